// A training library written as a class template over the logger, compiled
// on its own (no unit of the library instantiates it; the applications do).
// What does not depend on the logger is analyzed in the template itself.
#include <torch/torch.h>

#include <cstdint>
#include <string>

struct RegressorImpl : torch::nn::Module {
  RegressorImpl()
      : hidden(register_module("hidden", torch::nn::Linear(16, 64))),
        out(register_module("out", torch::nn::Linear(64, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return out(torch::relu(hidden(x))); }
  torch::nn::Linear hidden, out;
};
TORCH_MODULE(Regressor);

template <typename Logger> class RegressionTrainer {
public:
  RegressionTrainer(Logger &log, torch::Device device) : log_(log), device_(device) {
    model_->to(device_); // OK: once, in the constructor
  }

  void fit(const torch::Tensor &x, const torch::Tensor &y, int64_t batch) {
    torch::optim::Adam optimizer(model_->parameters(), torch::optim::AdamOptions(1e-3)); // OK: built once, before the loop
    for (int64_t i = 0; i + batch <= x.size(0); i += batch) {
      auto input = x.slice(0, i, i + batch).to(device_); // EXPECT: libtorch-blocking-host-to-device-copy
      auto target = y.slice(0, i, i + batch).to(device_, /*non_blocking=*/true);
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto loss = torch::mse_loss(model_->forward(input), target);
      loss.backward();
      optimizer.step();
      log_.scalar("train/loss", loss.item<double>()); // EXPECT: libtorch-host-sync-in-loop
      if (i % (100 * batch) == 0)
        log_.flush(); // OK: the logger is the template's parameter: nothing is known of it
    }
  }

private:
  Logger &log_;
  torch::Device device_;
  Regressor model_;
};
