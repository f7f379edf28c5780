// Training step factored into a lambda that the loop calls; the lambda reads
// the loss back on the host for a running average.
#include <torch/torch.h>

#include <iostream>
#include <vector>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear encoder(64, 16), decoder(16, 64);
  encoder->to(device);
  decoder->to(device);
  std::vector<torch::Tensor> params = encoder->parameters();
  for (auto &p : decoder->parameters())
    params.push_back(p);
  torch::optim::Adam opt(params, 1e-3);
  auto data = torch::randn({10000, 64}, device); // OK: made on the device

  double running = 0;
  auto train_step = [&](const torch::Tensor &x) {
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto recon = decoder(torch::relu(encoder(x)));
    auto loss = torch::mse_loss(recon, x);
    loss.backward();
    opt.step();
    running = 0.99 * running + 0.01 * loss.item<double>(); // EXPECT: libtorch-host-sync-in-loop
  };

  for (int epoch = 0; epoch < 20; ++epoch) {
    auto perm = torch::randperm(data.size(0), torch::TensorOptions().device(device).dtype(torch::kLong));
    for (int64_t i = 0; i + 128 <= data.size(0); i += 128) // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      train_step(data.index_select(0, perm.slice(0, i, i + 128)));
    std::cout << "epoch " << epoch << " ema loss " << running << '\n'; // OK: a host double, per epoch
  }
}
