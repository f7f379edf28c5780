// CORPUS-FLAGS: -std=c++20
// clang-tidy cannot parse this unit: in C++20 mode Clang (16 and 22 alike)
// rejects function bodies of LibTorch 1.13's headers (g++ 12 accepts them). The CLI
// skips the bodies of system-header functions and analyzes it.
// C++20 ranges and a three-way comparison in an evaluation utility. The
// evaluation runs after training, with autograd switched off.
#include <torch/torch.h>

#include <algorithm>
#include <compare>
#include <iostream>
#include <ranges>
#include <vector>

struct Score {
  double value;
  int64_t epoch;
  auto operator<=>(const Score &) const = default;
};

int main() {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::nn::Linear model(16, 4);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.05);
  auto x = torch::randn({1024, 16}, device);
  auto y = x.slice(1, 0, 4).argmax(1);
  std::vector<Score> scores;
  for (int64_t epoch = 0; epoch < 50; ++epoch) {
    for (int64_t i = 0; i < 1024; i += 128) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto loss = torch::cross_entropy_loss(model(x.slice(0, i, i + 128)), y.slice(0, i, i + 128));
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      opt.step();
    }
    torch::NoGradGuard no_grad; // OK: per-epoch evaluation without autograd
    auto acc = model(x).argmax(1).eq(y).to(torch::kFloat).mean().item<double>(); // OK: once per epoch
    scores.push_back({acc, epoch});
  }
  auto good = scores | std::views::filter([](const Score &s) { return s.value > 0.9; });
  auto best = std::ranges::max(scores);
  std::cout << std::ranges::distance(good) << " good epochs, best " << best.value << " at " << best.epoch << '\n';
}
