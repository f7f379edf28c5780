// A reusable trainer class, declared here and defined in trainer.cpp; main.cpp
// drives it. Built from compile_commands.json.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <string>

#define LOG_EVERY_N(n, counter) if ((counter) % (n) == 0) std::cout

namespace proj {

struct TrainerConfig {
  int64_t epochs = 5;
  int64_t batch_size = 64;
  double lr = 1e-3;
  int64_t log_every = 100;
  std::string checkpoint = "model.pt";
};

class RegressionNetImpl : public torch::nn::Module {
public:
  RegressionNetImpl(int64_t in, int64_t hidden);
  torch::Tensor forward(const torch::Tensor &x);

private:
  torch::nn::Sequential body_{nullptr};
};
TORCH_MODULE(RegressionNet);

class Trainer {
public:
  Trainer(RegressionNet model, TrainerConfig config);

  template <typename Loader> double fit(Loader &train, Loader &val) {
    double last = 0;
    for (int64_t epoch = 0; epoch < config_.epochs; ++epoch) {
      train_epoch(train);
      last = evaluate(val); // OK: per epoch
      std::cout << "epoch " << epoch << " val " << last << '\n';
    }
    return last;
  }

  template <typename Loader> void train_epoch(Loader &loader);
  template <typename Loader> double evaluate(Loader &loader);

  const torch::Device &device() const { return device_; }

private:
  void step(const torch::Tensor &x, const torch::Tensor &y);

  RegressionNet model_;
  TrainerConfig config_;
  torch::Device device_;
  torch::optim::Adam optimizer_;
  int64_t global_step_ = 0;
};

template <typename Loader> void Trainer::train_epoch(Loader &loader) {
  model_->train();
  for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    step(batch.data.to(device_, /*non_blocking=*/true), batch.target.to(device_, /*non_blocking=*/true));
  }
}

template <typename Loader> double Trainer::evaluate(Loader &loader) {
  torch::NoGradGuard no_grad; // OK: evaluation without autograd
  model_->eval();
  auto sum = torch::zeros({}, device_);
  int64_t n = 0;
  for (auto &batch : *loader) { // OK: guarded evaluation loop
    auto pred = model_->forward(batch.data.to(device_, /*non_blocking=*/true));
    sum += torch::mse_loss(pred, batch.target.to(device_, /*non_blocking=*/true), torch::Reduction::Sum);
    n += batch.data.size(0);
  }
  return sum.item<double>() / n;
}

} // namespace proj
