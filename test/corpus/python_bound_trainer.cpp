// A training library whose loop lives in Python: the bindings call
// trainer_step() once per batch. This unit holds no loop around the step.
#include <torch/torch.h>

#include <cstdint>
#include <memory>

namespace tabular {

struct Mlp : torch::nn::Module {
  Mlp(int64_t in, int64_t hidden, int64_t out)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(hidden, out))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};

class Trainer {
public:
  Trainer(int64_t in, int64_t out, torch::Device device)
      : device_(device), model_(std::make_shared<Mlp>(in, 256, out)),
        optimizer_(model_->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9)) {
    model_->to(device_);
  }

  // One optimization step on a batch that Python hands over.
  float step(const torch::Tensor &features, const torch::Tensor &labels) {
    auto x = features.to(device_); // EXPECT: libtorch-blocking-host-to-device-copy
    auto y = labels.to(device_, /*non_blocking=*/true); // OK: asynchronous copy
    auto class_weights = torch::ones({y.size(0)}).to(device_); // EXPECT: libtorch-tensor-created-off-device
    optimizer_.zero_grad();
    auto per_sample = torch::nll_loss(torch::log_softmax(model_->forward(x), 1), y,
                                      {}, at::Reduction::None);
    auto loss = (per_sample * class_weights).mean();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model_->parameters(), 5.0); // EXPECT: libtorch-host-sync-in-loop
    optimizer_.step();
    return loss.item<float>(); // EXPECT: libtorch-host-sync-in-loop
  }

  // Evaluation on one batch, called by Python after each epoch.
  float accuracy(const torch::Tensor &features, const torch::Tensor &labels) {
    torch::NoGradGuard no_grad;
    model_->eval();
    auto pred = model_->forward(features.to(device_)).argmax(1);
    auto acc = pred.eq(labels.to(device_)).to(torch::kFloat).mean().item<float>(); // OK: once per call, no step
    model_->train();
    return acc;
  }

  // A single sanity step before training starts.
  void warm_up(const torch::Tensor &features, const torch::Tensor &labels) {
    optimizer_.zero_grad();
    auto loss = torch::nll_loss(torch::log_softmax(model_->forward(features.to(device_)), 1),
                                labels.to(device_));
    loss.backward();
    optimizer_.step();
    TORCH_CHECK(std::isfinite(loss.item<float>()), "diverged on the first batch"); // OK: once, from trainer_create
  }

private:
  torch::Device device_;
  std::shared_ptr<Mlp> model_;
  torch::optim::SGD optimizer_;
};

} // namespace tabular

// The C interface the Python extension wraps.
extern "C" {

void *trainer_create(int64_t in, int64_t out, const float *warm_x, const int64_t *warm_y, int64_t n) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto *trainer = new tabular::Trainer(in, out, device);
  auto x = torch::from_blob(const_cast<float *>(warm_x), {n, in}).clone();
  auto y = torch::from_blob(const_cast<int64_t *>(warm_y), {n}, torch::kLong).clone();
  trainer->warm_up(x, y);
  return trainer;
}

float trainer_step(void *handle, const float *x, const int64_t *y, int64_t n, int64_t in) {
  auto features = torch::from_blob(const_cast<float *>(x), {n, in});
  auto labels = torch::from_blob(const_cast<int64_t *>(y), {n}, torch::kLong);
  return static_cast<tabular::Trainer *>(handle)->step(features, labels);
}

void trainer_destroy(void *handle) { delete static_cast<tabular::Trainer *>(handle); }

} // extern "C"
