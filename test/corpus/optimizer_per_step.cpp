// Learning-rate decay done by rebuilding the optimizer on every step (which
// also throws away Adam's moment estimates), and the model moved per step.
#include <torch/torch.h>

#include <cmath>
#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential net(torch::nn::Linear(4, 32), torch::nn::ReLU(), torch::nn::Linear(32, 4));
  const double base_lr = 1e-2;
  auto x = torch::randn({512, 4}, device);
  auto y = torch::softmax(x * 3, 1);
  for (int step = 0; step < 3000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    net->to(device); // EXPECT: libtorch-loop-invariant-setup
    const double lr = base_lr * std::pow(0.999, step);
    torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(lr)); // EXPECT: libtorch-loop-invariant-setup
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto loss = torch::kl_div(torch::log_softmax(net->forward(x), 1), y, at::Reduction::Mean);
    loss.backward();
    opt.step();
  }
  std::cout << "done\n";
}
