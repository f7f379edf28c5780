// RUN: %check_libtorch_tidy --variants plugin-real2,cli-real2 %s libtorch-host-sync-in-loop,libtorch-blocking-host-to-device-copy,libtorch-zero-grad-set-to-none %t

// C++20 user code on LibTorch 2.15, whose headers require C++20: a training
// step constrained by a concept, steps counted by a range view, options
// given with designated initializers, a batch passed as a std::span. The
// checks see through each; their fix-its compile with g++ -std=c++20.

#include <torch/torch.h>

#include <concepts>
#include <ranges>
#include <span>

template <typename M>
concept TrainableModule = requires(M m, torch::Tensor x) {
  { m->forward(x) } -> std::convertible_to<torch::Tensor>;
  m->parameters();
};

struct RunConfig {
  int steps = 100;
  double lr = 0.1;
  bool log = false;
};

template <TrainableModule M>
void train(M &model, torch::optim::SGD &optimizer,
           std::span<const torch::Tensor> batch, RunConfig config) {
  torch::Device device(torch::kCUDA);
  model->to(device);
  float total = 0;
  for ([[maybe_unused]] int step : std::views::iota(0, config.steps)) {
    optimizer.zero_grad(false);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'Optimizer::zero_grad(false)' writes zeros into every gradient on each step; 'set_to_none' resets them instead, skipping that memory pass [libtorch-zero-grad-set-to-none]
    // CHECK-FIXES: {{^}}    optimizer.zero_grad();{{$}}
    auto input = batch[0].to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'to(device)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
    // CHECK-MESSAGES: :[[@LINE-2]]:27: note: the copy overlaps with GPU work only from pinned memory
    // CHECK-FIXES: {{^}}    auto input = batch[0].to(device, /*non_blocking=*/true);{{$}}
    torch::Tensor loss = model->forward(input).sum();
    loss.backward();
    optimizer.step();
    total += loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: {{.*}} [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-2]]:19: note: {{.*}}
  }
  if (config.log)
    std::cout << "mean loss " << total / config.steps << "\n";
}

int main() {
  torch::nn::Linear model(4, 2);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.1);
  std::vector<torch::Tensor> batch{torch::ones({8, 4})};
  train(model, optimizer, batch, {.steps = 10, .log = true});
  // Not reported: one loop over a range view outside training.
  for (auto &t : batch | std::views::take(1))
    t.add_(1);
}
