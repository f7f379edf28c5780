// The plugin on the real headers runs in libtorch-loop-invariant-setup.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-loop-invariant-setup %t

#include <torch/torch.h>

// A program that, as written, cannot use a GPU: `to()` moves nothing.
int main() {
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  torch::Device device(torch::kCPU);
  auto data = torch::zeros({8, 4});
  for (int step = 0; step < 100; ++step) {
    model->to(device);
    optimizer.zero_grad();
    auto loss = model(data.to(device)).sum();
    loss.backward();
    optimizer.step();
    // Logging every N steps: not setup, and not every step anyway.
    if (step % 10 == 0)
      std::cout << "step " << step << "\n";
    // A new optimizer is wrong on any device.
    torch::optim::SGD restarted(model->parameters(), 0.1);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: an optimizer constructed on every training step is allocated again and loses its state
    restarted.zero_grad();
  }
  return 0;
}
