// A small GAN on synthetic 4x4 "patches", written the way many ports from
// Python are: the discriminator's targets are made on the host every step
// and handed to the loss as they are, a crop utility moves an already
// stacked device batch "to be sure", the generator's output is moved again,
// and the loss history is kept in a host tensor written every step.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

namespace {

constexpr int64_t kPatch = 16;
constexpr int64_t kNoise = 8;
constexpr int64_t kBatch = 32;
constexpr int64_t kSteps = 400;

// Image utility: cuts kBatch crops from the pool and stacks them on the device.
torch::Tensor crops_on(const torch::Tensor &pool, int64_t offset, torch::Device device) {
  std::vector<torch::Tensor> crops;
  crops.reserve(kBatch);
  for (int64_t i = 0; i < kBatch; ++i)
    crops.push_back(pool[(offset + i) % pool.size(0)].to(device, /*non_blocking=*/true));
  return torch::stack(crops).to(device); // OK: the crops are on the device already
}

} // namespace

int main() {
  torch::manual_seed(3);
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto pool = torch::rand({1024, kPatch}).pin_memory();

  torch::nn::Sequential generator(torch::nn::Linear(kNoise, 32), torch::nn::ReLU(),
                                  torch::nn::Linear(32, kPatch), torch::nn::Sigmoid());
  torch::nn::Sequential discriminator(torch::nn::Linear(kPatch, 32), torch::nn::LeakyReLU(),
                                      torch::nn::Linear(32, 1), torch::nn::Sigmoid());
  generator->to(device);
  discriminator->to(device);
  torch::optim::Adam g_opt(generator->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam d_opt(discriminator->parameters(), torch::optim::AdamOptions(2e-4));

  auto d_history = torch::zeros({kSteps});
  for (int64_t step = 0; step < kSteps; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto real = crops_on(pool, step * kBatch, device);
    auto noise = torch::randn({kBatch, kNoise}, device);
    auto fake = generator->forward(noise).to(device); // OK: the generator's output is on the device

    auto real_targets = torch::ones({kBatch, 1}); // EXPECT: libtorch-tensor-created-off-device
    auto fake_targets = torch::zeros({kBatch, 1}, device);
    auto d_loss = torch::binary_cross_entropy(discriminator->forward(real), real_targets) +
                  torch::binary_cross_entropy(discriminator->forward(fake.detach()), fake_targets);
    d_opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    d_loss.backward();
    d_opt.step();
    d_history[step] = d_loss.detach(); // EXPECT: libtorch-host-sync-in-loop

    auto g_loss = torch::binary_cross_entropy(discriminator->forward(fake), torch::ones_like(fake_targets));
    g_opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    g_loss.backward();
    g_opt.step();
  }
  std::printf("mean discriminator loss %.4f\n", d_history.mean().item<float>());
}
