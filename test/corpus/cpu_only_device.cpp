// A training program written on a laptop: the device is hard-coded to the
// CPU and CUDA is never queried, so it cannot use a GPU where there is one.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(42);
  torch::Device device(torch::kCPU); // EXPECT: libtorch-cpu-only-device
  torch::nn::Sequential net(torch::nn::Linear(3, 16), torch::nn::Tanh(), torch::nn::Linear(16, 1));
  net->to(device);
  torch::optim::LBFGS lbfgs(net->parameters(), torch::optim::LBFGSOptions(0.5));
  auto x = torch::linspace(-2, 2, 300, device).unsqueeze(1).repeat({1, 3});
  auto y = x.pow(3).sum(1, true);
  for (int it = 0; it < 50; ++it) {
    auto closure = [&] {
      lbfgs.zero_grad();
      auto loss = torch::mse_loss(net->forward(x), y);
      loss.backward();
      return loss;
    };
    auto loss = lbfgs.step(closure);
    std::cout << "iteration " << it << " loss " << loss.item<float>() << '\n'; // OK: a CPU-only program waits for no GPU
  }
}
