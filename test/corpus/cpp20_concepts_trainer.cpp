// CORPUS-FLAGS: -std=c++20
// clang-tidy cannot parse this unit: in C++20 mode Clang (16 and 22 alike)
// rejects function bodies of LibTorch 1.13's headers (g++ 12 accepts them). The CLI
// skips the bodies of system-header functions and analyzes it.
// C++20: a concept for "something trainable", designated initializers for
// the configuration, std::span over the parameter groups.
#include <torch/torch.h>

#include <concepts>
#include <iostream>
#include <span>

template <typename M>
concept Trainable = requires(M m, torch::Tensor x) {
  { m->forward(x) } -> std::convertible_to<torch::Tensor>;
  m->parameters();
};

struct FitConfig {
  int epochs = 1;
  int64_t batch = 32;
  double lr = 1e-3;
  bool verbose = false;
};

template <Trainable M>
void fit(M &model, const torch::Tensor &x, const torch::Tensor &y, const FitConfig &cfg) {
  torch::optim::Adam opt(model->parameters(), cfg.lr);
  for (int e = 0; e < cfg.epochs; ++e) {
    for (int64_t i = 0; i + cfg.batch <= x.size(0); i += cfg.batch) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto loss = torch::huber_loss(model->forward(x.slice(0, i, i + cfg.batch)), y.slice(0, i, i + cfg.batch));
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      opt.step();
      if (cfg.verbose)
        std::cout << "loss " << loss.template item<float>() << '\n'; // OK: under a bool option
    }
  }
}

void report(std::span<const torch::Tensor> params) {
  int64_t n = 0;
  for (const auto &p : params)
    n += p.numel();
  std::cout << n << " parameters\n";
}

int main() {
  const torch::Device device{torch::cuda::is_available() ? torch::kCUDA : torch::kCPU};
  torch::nn::Sequential model(torch::nn::Linear(10, 32), torch::nn::Mish(), torch::nn::Linear(32, 1));
  model->to(device);
  auto x = torch::randn({2048, 10}, device);
  auto y = x.sum(1, /*keepdim=*/true).sin();
  fit(model, x, y, FitConfig{.epochs = 20, .batch = 64, .verbose = false});
  const auto params = model->parameters();
  report(params);
}
