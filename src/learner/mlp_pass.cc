#include "seedrl/learner/mlp_pass.h"

#include <stdexcept>
#include <string>

#include <torch/torch.h>

namespace seedrl {

namespace {

// A buffer of `rows` x `cols` like `like` (of `like`'s dtype, or bfloat16),
// made anew only when its shape changes.
void fit(at::Tensor& buffer, std::int64_t rows, std::int64_t cols, const at::Tensor& like, bool bf16 = false) {
  if (!buffer.defined() || buffer.size(0) != rows || buffer.size(1) != cols) {
    at::TensorOptions options = like.options().requires_grad(false);
    if (bf16) options = options.dtype(at::kBFloat16);
    buffer = at::empty({rows, cols}, options);
  }
}

// `buffer` (made by fit) holding `from`'s values rounded to bfloat16.
const at::Tensor& rounded(at::Tensor& buffer, const at::Tensor& from) {
  fit(buffer, from.size(0), from.size(1), from, true);
  buffer.copy_(from);
  return buffer;
}

}  // namespace

MlpPass::MlpPass(std::vector<at::Tensor> params, bool tanh, bool bf16_matmuls) : tanh_(tanh), bf16_(bf16_matmuls) {
  if (params.empty() || params.size() % 2 != 0)
    throw std::invalid_argument("MlpPass: expected a weight and a bias per layer, got " +
                                std::to_string(params.size()) + " tensors");
  for (std::size_t i = 0; i < params.size(); i += 2) {
    const at::Tensor& w = params[i];
    const at::Tensor& b = params[i + 1];
    if (w.dim() != 2 || b.dim() != 1 || b.size(0) != w.size(0))
      throw std::invalid_argument("MlpPass: layer " + std::to_string(i / 2) +
                                  " is not a Linear layer's weight and bias");
    if (!weights_.empty() && weights_.back().size(0) != w.size(1))
      throw std::invalid_argument("MlpPass: layer " + std::to_string(i / 2) + " takes " + std::to_string(w.size(1)) +
                                  " inputs after a layer of " + std::to_string(weights_.back().size(0)));
    weights_.push_back(w);
    biases_.push_back(b);
  }
  const std::size_t layers = weights_.size();
  outputs_.resize(layers);
  grads_.resize(layers);
  grad_in_.resize(layers);
  weight_grads_.resize(layers);
  bias_grads_.resize(layers);
  forward_mm_.resize(layers);
  weight_grad_mm_.resize(layers);
  input_grad_mm_.resize(layers);
  for (auto* v : {&weights16_, &inputs16_, &products16_, &grads16_, &weight_grads16_, &grad_in16_}) v->resize(layers);
}

bool MlpPass::bf16_layer(std::size_t l) const { return bf16_ && l + 1 < weights_.size(); }

const at::Tensor& MlpPass::forward(const at::Tensor& x) {
  torch::NoGradGuard no_grad;
  if (x.dim() != 2 || x.size(1) != weights_.front().size(1))
    throw std::invalid_argument("MlpPass: input of shape " + std::to_string(x.dim()) + "-d, width " +
                                std::to_string(x.dim() == 2 ? x.size(1) : -1) + " for " +
                                std::to_string(weights_.front().size(1)) + " inputs");
  const std::int64_t n = x.size(0);
  input_ = x;
  const at::Tensor* prev = &input_;
  for (std::size_t l = 0; l < weights_.size(); ++l) {
    at::Tensor& out = outputs_[l];
    fit(out, n, weights_[l].size(0), weights_[l]);
    if (bf16_layer(l)) {
      at::Tensor& product = products16_[l];
      fit(product, n, weights_[l].size(0), weights_[l], true);
      at::mm_out(product, rounded(inputs16_[l], *prev), rounded(weights16_[l], weights_[l]).t());
      // Not a mixed-dtype add, which would convert the product into a temporary.
      out.copy_(product);
      out.add_(biases_[l]);
      if (tanh_)
        out.tanh_();
      else
        out.relu_();
    } else {
      const bool hidden = l + 1 < weights_.size();
      const auto activation = !hidden ? CpuMatmul::Activation::kNone
                              : tanh_ ? CpuMatmul::Activation::kTanh
                                      : CpuMatmul::Activation::kRelu;
      forward_mm_[l].run(out, *prev, weights_[l].t(), &biases_[l], activation);
    }
    prev = &out;
  }
  return outputs_.back();
}

at::Tensor MlpPass::backward(const at::Tensor& grad_out, bool param_grads, std::int64_t first, std::int64_t count) {
  torch::NoGradGuard no_grad;
  if (!input_.defined()) throw std::logic_error("MlpPass::backward before forward");
  const std::int64_t n = input_.size(0);
  if (grad_out.dim() != 2 || grad_out.size(0) != n || grad_out.size(1) != weights_.back().size(0))
    throw std::invalid_argument("MlpPass::backward: the gradient's shape is not the last output's");
  if (count < 0 || first < 0 || first + count > weights_[0].size(1))
    throw std::invalid_argument("MlpPass::backward: input columns [" + std::to_string(first) + ", " +
                                std::to_string(first + count) + ") outside " + std::to_string(weights_[0].size(1)));
  const std::int64_t dim0[] = {0};
  at::Tensor g = grad_out;
  at::Tensor input_grad;
  for (std::size_t l = weights_.size(); l-- > 0;) {
    if (l + 1 < weights_.size()) {
      // g is the gradient to this layer's activation's output: through the activation.
      at::Tensor& pre = grads_[l];
      fit(pre, n, weights_[l].size(0), weights_[l]);
      if (tanh_)
        at::tanh_backward_out(pre, g, outputs_[l]);
      else
        at::threshold_backward_out(pre, g, outputs_[l], 0);
      g = pre;
    }
    const at::Tensor& in = l > 0 ? outputs_[l - 1] : input_;
    const bool bf16 = bf16_layer(l);
    // Rounded only for a bfloat16 matmul that reads it: the first layer's input gradient is float32.
    const at::Tensor* g16 = bf16 && (param_grads || l > 0) ? &rounded(grads16_[l], g) : nullptr;
    if (param_grads) {
      fit(weight_grads_[l], weights_[l].size(0), weights_[l].size(1), weights_[l]);
      if (bf16) {
        fit(weight_grads16_[l], weights_[l].size(0), weights_[l].size(1), weights_[l], true);
        at::mm_out(weight_grads16_[l], g16->t(), inputs16_[l]);
        weight_grads_[l].copy_(weight_grads16_[l]);
      } else {
        weight_grad_mm_[l].run(weight_grads_[l], g.t(), in);
      }
      if (!bias_grads_[l].defined() || bias_grads_[l].size(0) != biases_[l].size(0))
        bias_grads_[l] = at::empty({biases_[l].size(0)}, biases_[l].options().requires_grad(false));
      at::sum_out(bias_grads_[l], g, at::IntArrayRef(dim0));
      weights_[l].mutable_grad() = weight_grads_[l];
      biases_[l].mutable_grad() = bias_grads_[l];
    }
    if (l > 0) {
      at::Tensor& next = grad_in_[l - 1];
      fit(next, n, weights_[l].size(1), weights_[l]);
      if (bf16) {
        fit(grad_in16_[l], n, weights_[l].size(1), weights_[l], true);
        at::mm_out(grad_in16_[l], *g16, weights16_[l]);
        next.copy_(grad_in16_[l]);
      } else {
        input_grad_mm_[l].run(next, g, weights_[l]);
      }
      g = next;
    } else if (count > 0) {
      input_grad = at::mm(g, weights_[0].narrow(1, first, count));
    }
  }
  return input_grad;
}

}  // namespace seedrl
