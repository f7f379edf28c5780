// The plugin on the real headers runs in libtorch-zero-grad-accumulation.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-zero-grad-accumulation %t

// A CPU-only program is not what this tool measures: silent.

#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCPU);
  auto model = torch::nn::Linear(4, 2);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  auto x = torch::randn({8, 4}).to(device);
  for (int i = 0; i < 100; ++i) {
    optimizer.zero_grad();
    auto loss = model(x).sum() / 4;
    loss.backward();
    if ((i + 1) % 4 == 0)
      optimizer.step();
  }
}
