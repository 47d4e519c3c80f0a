#include "seedrl/io/checkpoint_optimizer.h"

#include "seedrl/util/optimizer_state_key.h"

#include <memory>
#include <sstream>
#include <type_traits>
#include <unordered_set>

#include <torch/optim/adam.h>
#include <torch/optim/rmsprop.h>
#include <torch/torch.h>

#include "seedrl/io/checkpoint.h"

namespace seedrl {

namespace {

using StateKey = OptimizerStateKey;

enum class Kind { kAdam, kRMSprop };

std::optional<Kind> kind_of(const torch::optim::Optimizer& o) {
  if (dynamic_cast<const torch::optim::Adam*>(&o)) return Kind::kAdam;
  if (dynamic_cast<const torch::optim::RMSprop*>(&o)) return Kind::kRMSprop;
  return std::nullopt;
}

const char* kind_name(Kind k) { return k == Kind::kAdam ? "adam" : "rmsprop"; }

// The state tensors LibTorch's step() creates for a parameter of a group with
// these options, and reads on every later step (a missing one would crash it).
std::vector<std::string> state_names(Kind k, const torch::optim::OptimizerOptions& options) {
  if (k == Kind::kAdam) {
    const auto& o = dynamic_cast<const torch::optim::AdamOptions&>(options);
    std::vector<std::string> n{"exp_avg", "exp_avg_sq"};
    if (o.amsgrad()) n.push_back("max_exp_avg_sq");
    return n;
  }
  const auto& o = dynamic_cast<const torch::optim::RMSpropOptions&>(options);
  std::vector<std::string> n{"square_avg"};
  if (o.momentum() > 0) n.push_back("momentum_buffer");
  if (o.centered()) n.push_back("grad_avg");
  return n;
}

bool known_name(Kind k, const std::string& name) {
  if (k == Kind::kAdam) return name == "exp_avg" || name == "exp_avg_sq" || name == "max_exp_avg_sq";
  return name == "square_avg" || name == "momentum_buffer" || name == "grad_avg";
}

// Reads and writes a state's step and tensors by name.
struct StateAccess {
  Kind kind;

  std::int64_t step(const torch::optim::OptimizerParamState& s) const {
    return kind == Kind::kAdam ? static_cast<const torch::optim::AdamParamState&>(s).step()
                               : static_cast<const torch::optim::RMSpropParamState&>(s).step();
  }

  at::Tensor get(const torch::optim::OptimizerParamState& s, const std::string& name) const {
    if (kind == Kind::kAdam) {
      const auto& a = static_cast<const torch::optim::AdamParamState&>(s);
      return name == "exp_avg" ? a.exp_avg() : name == "exp_avg_sq" ? a.exp_avg_sq() : a.max_exp_avg_sq();
    }
    const auto& r = static_cast<const torch::optim::RMSpropParamState&>(s);
    return name == "square_avg" ? r.square_avg() : name == "momentum_buffer" ? r.momentum_buffer() : r.grad_avg();
  }

  std::unique_ptr<torch::optim::OptimizerParamState> make(std::int64_t step) const {
    if (kind == Kind::kAdam) {
      auto a = std::make_unique<torch::optim::AdamParamState>();
      a->step(step);
      return a;
    }
    auto r = std::make_unique<torch::optim::RMSpropParamState>();
    r->step(step);
    return r;
  }

  void set(torch::optim::OptimizerParamState& s, const std::string& name, const at::Tensor& t) const {
    if (kind == Kind::kAdam) {
      auto& a = static_cast<torch::optim::AdamParamState&>(s);
      if (name == "exp_avg")
        a.exp_avg(t);
      else if (name == "exp_avg_sq")
        a.exp_avg_sq(t);
      else
        a.max_exp_avg_sq(t);
      return;
    }
    auto& r = static_cast<torch::optim::RMSpropParamState&>(s);
    if (name == "square_avg")
      r.square_avg(t);
    else if (name == "momentum_buffer")
      r.momentum_buffer(t);
    else
      r.grad_avg(t);
  }
};

const char* const kAllNames[] = {"exp_avg",    "exp_avg_sq",      "max_exp_avg_sq",
                                 "square_avg", "momentum_buffer", "grad_avg"};

}  // namespace

nlohmann::json write_optimizer_state(const torch::optim::Optimizer& optimizer, CheckpointTensorWriter& writer) {
  const auto kind = kind_of(optimizer);
  if (!kind) throw CheckpointError("cannot save the optimizer's state: only Adam and RMSprop are supported");
  const StateAccess access{*kind};
  const auto& states = optimizer.state();
  nlohmann::json lrs = nlohmann::json::array(), params = nlohmann::json::array();
  for (const auto& group : optimizer.param_groups()) {
    lrs.push_back(group.options().get_lr());
    for (const auto& p : group.params()) {
      const auto it = states.find(optimizer_state_key(p));
      if (it == states.end()) {
        params.push_back(nullptr);
        continue;
      }
      nlohmann::json tensors = nlohmann::json::array();
      for (const char* name : kAllNames) {
        if (!known_name(*kind, name)) continue;
        const at::Tensor t = access.get(*it->second, name);
        if (t.defined()) tensors.push_back(writer.add(name, t));
      }
      params.push_back({{"step", access.step(*it->second)}, {"tensors", std::move(tensors)}});
    }
  }
  return {{"type", kind_name(*kind)}, {"learning_rates", std::move(lrs)}, {"params", std::move(params)}};
}

SavedOptimizerState read_optimizer_state(const nlohmann::json& j, CheckpointIndexReader& reader) {
  SavedOptimizerState out;
  out.type = reader.string_field(j, "type", "the optimizer");
  if (out.type != "adam" && out.type != "rmsprop")
    reader.fail("is damaged: its optimizer type '" + printable(out.type) + "' is neither adam nor rmsprop");
  const Kind kind = out.type == "adam" ? Kind::kAdam : Kind::kRMSprop;
  const auto& lrs = reader.field(j, "learning_rates", "the optimizer");
  if (!lrs.is_array()) reader.fail("is damaged: the optimizer's learning rates are not a list");
  for (std::size_t g = 0; g < lrs.size(); ++g) {
    const nlohmann::json wrap{{"lr", lrs[g]}};
    const double lr = reader.number_field(wrap, "lr", "the optimizer's learning rate " + std::to_string(g));
    if (lr < 0) reader.fail("is damaged: the optimizer's learning rate " + std::to_string(g) + " is negative");
    out.learning_rates.push_back(lr);
  }
  const auto& params = reader.field(j, "params", "the optimizer");
  if (!params.is_array()) reader.fail("is damaged: the optimizer's parameter states are not a list");
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].is_null()) {
      out.params.emplace_back();
      continue;
    }
    const std::string where = "the optimizer state of parameter " + std::to_string(i);
    SavedParamState s;
    s.step = reader.int_field(params[i], "step", where);
    s.tensors = reader.tensor_list(reader.field(params[i], "tensors", where), where);
    for (const auto& t : s.tensors)
      if (!known_name(kind, t.name))
        reader.fail("is damaged: " + where + " holds '" + printable(t.name) + "', which " + out.type + " has not");
    out.params.emplace_back(std::move(s));
  }
  return out;
}

void restore_optimizer_state(const SavedOptimizerState& saved, const CheckpointIndexReader& reader,
                             torch::optim::Optimizer& optimizer) {
  const auto kind = kind_of(optimizer);
  if (!kind) reader.fail("cannot be loaded into this optimizer: only Adam and RMSprop are supported");
  if (saved.type != kind_name(*kind))
    reader.fail("holds " + saved.type + " state; this run's optimizer is " + kind_name(*kind));
  auto& groups = optimizer.param_groups();
  if (saved.learning_rates.size() != groups.size())
    reader.fail("does not match this optimizer: " + std::to_string(saved.learning_rates.size()) +
                " parameter groups there, " + std::to_string(groups.size()) + " here");
  std::vector<std::pair<at::Tensor, const torch::optim::OptimizerOptions*>> params;
  for (const auto& group : groups)
    for (const auto& p : group.params()) params.emplace_back(p, &group.options());
  if (saved.params.size() != params.size())
    reader.fail("does not match this optimizer: " + std::to_string(saved.params.size()) + " parameters there, " +
                std::to_string(params.size()) + " here");

  // Everything is checked and built before the optimizer changes.
  const StateAccess access{*kind};
  std::vector<std::unique_ptr<torch::optim::OptimizerParamState>> fresh(params.size());
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (!saved.params[i]) continue;
    const auto& [p, options] = params[i];
    const SavedParamState& s = *saved.params[i];
    const std::string where = "the optimizer state of parameter " + std::to_string(i);
    const std::vector<std::string> needed = state_names(*kind, *options);
    if (s.tensors.size() != needed.size())
      reader.fail("does not match this optimizer: " + where + " has " + std::to_string(s.tensors.size()) +
                  " tensors there, " + std::to_string(needed.size()) + " here (other optimizer options?)");
    // A step no run reaches: step + 1 would overflow, and Adam's bias
    // correction raises its betas to it.
    if (s.step > (std::int64_t{1} << 53)) reader.fail("is damaged: " + where + " has step " + std::to_string(s.step));
    fresh[i] = access.make(s.step);
    for (const auto& name : needed) {
      const CheckpointTensor* t = nullptr;
      for (const auto& c : s.tensors)
        if (c.name == name) t = &c;
      if (!t) reader.fail("does not match this optimizer: " + where + " lacks " + name + " (other optimizer options?)");
      if (t->shape != p.sizes().vec() || t->dtype != p.scalar_type())
        reader.fail("does not match this model: " + where + " " + name + " is " + dtype_name(t->dtype) + " " +
                    shape_text(t->shape) + " there, " + dtype_name(p.scalar_type()) + " " +
                    shape_text(p.sizes().vec()) + " here");
      at::Tensor value = torch::empty_like(p, torch::MemoryFormat::Contiguous);
      value.copy_(reader.make_tensor(*t));
      // What no update leaves: the first step after a resume would turn the
      // weights NaN, and the error would blame the learning rate.
      if (!torch::isfinite(value).all().item<bool>())
        reader.fail("is damaged: " + where + " " + name + " holds a value that is not finite");
      if ((name == "exp_avg_sq" || name == "max_exp_avg_sq" || name == "square_avg") && value.lt(0).any().item<bool>())
        reader.fail("is damaged: " + where + " " + name + " holds a negative value (a mean of squares)");
      access.set(*fresh[i], name, value);
    }
  }
  auto& states = optimizer.state();
  for (std::size_t i = 0; i < params.size(); ++i) {
    const StateKey key = optimizer_state_key(params[i].first);
    if (fresh[i])
      states.insert_or_assign(key, std::move(fresh[i]));
    else
      states.erase(key);
  }
  for (std::size_t g = 0; g < groups.size(); ++g) groups[g].options().set_lr(saved.learning_rates[g]);
}

}  // namespace seedrl
