// The other translation unit of test/checks/*-step-elsewhere.cpp.
#include "step-elsewhere.h"

namespace trainer {
namespace {
void apply(torch::optim::SGD &optimizer) { optimizer.step(); }
} // namespace

torch::Tensor Trainer::train_step(const torch::Tensor &x,
                                  const torch::Tensor &y) {
  optimizer->zero_grad();
  auto loss = torch::mse_loss(model(x), y);
  loss.backward();
  apply(*optimizer);
  return loss.detach();
}

float Trainer::train_epoch(const std::vector<torch::Tensor> &xs,
                           const std::vector<torch::Tensor> &ys) {
  auto total = torch::zeros({});
  for (size_t i = 0; i < xs.size(); ++i)
    total += train_step(xs[i], ys[i]);
  return total.item<float>();
}

torch::Tensor Trainer::evaluate(const torch::Tensor &x,
                                const torch::Tensor &y) {
  return torch::mse_loss(model(x), y);
}

torch::Tensor stack_on(const std::vector<torch::Tensor> &images,
                       torch::Device device) {
  return torch::stack(images).to(device);
}

torch::Tensor stack(const std::vector<torch::Tensor> &images) {
  return torch::stack(images);
}

void accumulate_gradients(torch::nn::Linear model, const torch::Tensor &x,
                          const torch::Tensor &y) {
  torch::mse_loss(model(x), y).backward();
}
} // namespace trainer
