// A header-style generic training utility: fit() is a template over the model
// and loader types, the loss and the metric are lambdas.
#include <torch/torch.h>

#include <functional>
#include <iostream>

namespace util {

template <typename Model, typename Loader, typename LossFn>
void fit(Model &model, Loader &loader, torch::optim::Optimizer &opt, LossFn loss_fn, const torch::Device &device,
         int epochs) {
  for (int e = 0; e < epochs; ++e) {
    auto sum = torch::zeros({}, device);
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled (the device comes from the caller)
      auto x = batch.data.to(device, /*non_blocking=*/true);
      auto y = batch.target.to(device, /*non_blocking=*/true);
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto loss = loss_fn(model->forward(x), y);
      loss.backward();
      opt.step();
      sum += loss.detach();
      if (loss.template item<float>() > 1e3f) // EXPECT: libtorch-host-sync-in-loop
        throw std::runtime_error("diverged");
    }
    std::cout << "epoch " << e << " loss " << sum.item<float>() << '\n'; // OK: per epoch
  }
}

template <typename Model, typename Loader, typename Metric>
double score(Model &model, Loader &loader, Metric metric, const torch::Device &device) {
  torch::NoGradGuard guard; // OK: evaluation without autograd
  model->eval();
  double total = 0;
  size_t n = 0;
  for (auto &batch : *loader) { // OK: guarded evaluation loop
    total += metric(model->forward(batch.data.to(device)), batch.target.to(device));
    ++n;
  }
  return total / n;
}

} // namespace util

struct Points : torch::data::datasets::Dataset<Points> {
  torch::Tensor x = torch::randn({4096, 2});
  torch::data::Example<> get(size_t i) override {
    auto p = x[i];
    return {p, (p.norm() < 1.0).to(torch::kLong)};
  }
  torch::optional<size_t> size() const override { return 4096; }
};

int main() {
  auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  auto model = torch::nn::Sequential(torch::nn::Linear(2, 32), torch::nn::ReLU(), torch::nn::Linear(32, 2));
  model->to(device);
  torch::optim::Adam opt(model->parameters(), 1e-2);
  auto loader = torch::data::make_data_loader(Points().map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions(128).workers(2).enforce_ordering(false));
  auto ce = [](const torch::Tensor &logits, const torch::Tensor &y) { return torch::cross_entropy_loss(logits, y); };
  util::fit(model, loader, opt, ce, device, 5);
  auto accuracy = [](const torch::Tensor &logits, const torch::Tensor &y) {
    return logits.argmax(1).eq(y).to(torch::kFloat).mean().item<double>(); // EXPECT: libtorch-host-sync-in-loop
  };
  std::cout << "accuracy " << util::score(model, loader, accuracy, device) << '\n';
}
