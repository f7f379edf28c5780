#include "trainer.h"

namespace proj {

RegressionNetImpl::RegressionNetImpl(int64_t in, int64_t hidden) {
  body_ = register_module("body", torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::GELU(),
                                                        torch::nn::Linear(hidden, 1)));
}

torch::Tensor RegressionNetImpl::forward(const torch::Tensor &x) { return body_->forward(x); }

static torch::Device pick_device() {
  return torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
}

Trainer::Trainer(RegressionNet model, TrainerConfig config)
    : model_(std::move(model)), config_(std::move(config)), device_(pick_device()),
      optimizer_(model_->parameters(), torch::optim::AdamOptions(config_.lr)) {
  model_->to(device_); // OK: the model is moved once, by its owner
}

void Trainer::step(const torch::Tensor &x, const torch::Tensor &y) {
  optimizer_.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
  auto loss = torch::mse_loss(model_->forward(x), y);
  loss.backward();
  optimizer_.step();
  LOG_EVERY_N(config_.log_every, global_step_) << "step " << global_step_ << " loss " << loss.item<float>() << '\n'; // OK: every log_every steps
  ++global_step_;
  if (global_step_ % 1000 == 0)
    torch::save(model_, config_.checkpoint); // OK: periodic checkpoint
}

} // namespace proj
