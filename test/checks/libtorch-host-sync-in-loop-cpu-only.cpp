// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop %t

// A CPU-only program waits for no GPU: silent (a hard-coded CPU device is
// libtorch-cpu-only-device's finding).

#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::kCPU);
  auto model = torch::nn::Linear(4, 2);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  auto x = torch::randn({8, 4}).to(device);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    auto loss = model(x).sum();
    loss.backward();
    optimizer.step();
    std::cout << loss.item<float>() << '\n';
  }
}
