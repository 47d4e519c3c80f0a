#include "seedrl/trainer/export_weights.h"

#include <stdexcept>
#include <string_view>

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/export.h>
#include <torch/csrc/jit/serialization/pickler.h>
#include <torch/torch.h>
#include <nlohmann/json.hpp>

#include "seedrl/io/replace_file.h"
#include "seedrl/model/torso.h"
#include "seedrl/trainer/checkpoint_model.h"
#include "seedrl/util/error_text.h"

namespace seedrl {

namespace {

// What a PyTorch user needs beside the tensors to rebuild the network.
std::string metadata(const CheckpointModel& m) {
  const ModelConfig& model = m.config.model;
  nlohmann::json action{{"kind", m.spec.action.is_discrete() ? "discrete" : "box"}};
  if (m.spec.action.is_discrete())
    action["num_actions"] = m.spec.action.num_actions;
  else
    action.update({{"dim", m.spec.action.dim}, {"low", m.spec.action.low}, {"high", m.spec.action.high}});
  nlohmann::json j{
      {"format", "seedrl-export-1"},
      {"algo", m.config.algo},
      {"env", m.config.env},
      {"observation", {{"shape", m.spec.observation.shape}, {"dtype", dtype_name(m.spec.observation.dtype)}}},
      {"action", action},
      {"torso", resolve_torso(m.spec.observation, model.torso)},
      {"hidden", model.hidden},
      {"activation", model.activation},
      {"lstm", model.lstm},
      {"lstm_size", model.lstm_size},
      {"separate_value_net", model.separate_value_net},
      {"prev_action_input", model.prev_action_input},
      {"normalize_obs", model.normalize_obs},
      {"frames", m.counters.frames},
      {"learner_steps", m.counters.learner_steps}};
  // ObsNormalizer's defaults: clamp((x - mean) / sqrt(var + eps), -clip, clip).
  if (model.normalize_obs) j["obs_normalizer"] = {{"clip", 10.0}, {"eps", 1e-8}};
  return j.dump();
}

// torch.save's zip format, as torch::pickle_save writes it, but without the
// TorchScript type tag pickle_save wraps every dict in: the tag is a global
// (torch.jit._pickle.restore_type_tag) that torch.load refuses with
// weights_only=True, its default since PyTorch 2.6.
std::vector<char> torch_save_bytes(const c10::IValue& value) {
  std::vector<char> pickle;
  torch::jit::Pickler pickler(
      [&](const char* data, std::size_t size) { pickle.insert(pickle.end(), data, data + size); },
      /*tensor_table=*/nullptr, /*type_renamer=*/nullptr, /*memoized_class_types=*/nullptr,
      /*get_tensor_id=*/nullptr, /*tag_aggregates=*/false);
  pickler.protocol();
  pickler.pushIValue(value);
  pickler.stop();
  std::vector<char> out;
  caffe2::serialize::PyTorchStreamWriter writer([&](const void* data, std::size_t size) {
    const char* bytes = static_cast<const char*>(data);
    out.insert(out.end(), bytes, bytes + size);
    return size;
  });
  torch::jit::writeArchiveAndTensors("data", pickle.data(), pickle.size(), pickler.tensorData(), writer);
  writer.writeEndOfFile();
  return out;
}

}  // namespace

void export_weights(const std::string& checkpoint, const std::string& out_path) {
  const CheckpointModel m = load_checkpoint_model(checkpoint);
  c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
  {
    torch::NoGradGuard no_grad;
    for (const auto& item : m.module->named_parameters(true))
      dict.insert(item.key(), item.value().detach().to(torch::kCPU).contiguous().clone());
    for (const auto& item : m.module->named_buffers(true))
      dict.insert(item.key(), item.value().detach().to(torch::kCPU).contiguous().clone());
  }
  dict.insert(std::string("seedrl_metadata"), metadata(m));
  const std::vector<char> bytes = torch_save_bytes(c10::IValue(dict));
  try {
    replace_file(out_path, std::string_view(bytes.data(), bytes.size()));
  } catch (const std::exception& e) {
    throw std::invalid_argument("-o: " + error_text(e));
  }
}

}  // namespace seedrl
