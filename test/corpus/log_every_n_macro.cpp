// A project-wide logging macro in the glog style: LOG_EVERY_N expands to a
// modulo guard, so the reads inside it run every N steps only.
#include <torch/torch.h>

#include <iostream>

#define LOG_EVERY_N(n, step)                                                   \
  if ((step) % (n) == 0)                                                       \
  std::cerr << "[step " << (step) << "] "

#define CHECK_FINITE(t) TORCH_CHECK(torch::isfinite(t).all().item<bool>(), #t " is not finite")

struct Mlp : torch::nn::Module {
  torch::nn::Linear l1{nullptr}, l2{nullptr};
  Mlp() {
    l1 = register_module("l1", torch::nn::Linear(20, 64));
    l2 = register_module("l2", torch::nn::Linear(64, 1));
  }
  torch::Tensor forward(torch::Tensor x) { return l2(torch::silu(l1(x))); }
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto net = std::make_shared<Mlp>();
  net->to(device);
  torch::optim::Adagrad opt(net->parameters(), torch::optim::AdagradOptions(0.05));
  auto w_true = torch::randn({20, 1}, device); // OK: made on the device
  for (int64_t step = 0; step < 5000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto x = torch::randn({256, 20}, device); // OK: made on the device
    auto y = x.mm(w_true) + 0.01 * torch::randn({256, 1}, device);
    auto loss = torch::mse_loss(net->forward(x), y);
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    opt.step();
    LOG_EVERY_N(250, step) << "loss " << loss.item<float>() << '\n'; // OK: logs every 250 steps
    if (step % 1000 == 0) {
      CHECK_FINITE(loss); // OK: every 1000 steps
    }
  }
}
