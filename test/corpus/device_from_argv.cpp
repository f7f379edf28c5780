// The device comes from the command line ("cpu", "cuda", "cuda:1"): the user
// chooses, so a CPU default is not a finding.
#include <torch/torch.h>

#include <iostream>
#include <string>

int main(int argc, char **argv) {
  const std::string device_name = argc > 1 ? argv[1] : "cpu";
  torch::Device device(device_name); // OK: chosen by the user
  torch::nn::Sequential net(torch::nn::Linear(8, 8), torch::nn::ReLU(), torch::nn::Linear(8, 2));
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int step = 0; step < 1000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled (the user may pick a GPU)
    auto x = torch::randn({64, 8}, device); // OK: made on the device
    auto y = (x.sum(1) > 0).to(torch::kLong);
    auto loss = torch::cross_entropy_loss(net->forward(x), y);
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    opt.step();
  }
  std::cout << "trained on " << device << '\n';
}
