// WGAN with weight clipping: n_critic discriminator updates per generator
// update, in lambdas. Clipping runs under NoGradGuard; the critic is never
// moved to the device.
#include <torch/torch.h>

#include <iostream>

int main() {
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t nz = 32, batch = 128, n_critic = 5;
  const double clip = 0.01;

  torch::nn::Sequential gen(torch::nn::Linear(nz, 128), torch::nn::ReLU(), torch::nn::Linear(128, 2));
  torch::nn::Sequential critic(torch::nn::Linear(2, 128), torch::nn::LeakyReLU(), torch::nn::Linear(128, 1)); // EXPECT: libtorch-module-not-on-device
  gen->to(device);
  torch::optim::RMSprop g_opt(gen->parameters(), torch::optim::RMSpropOptions(5e-5));
  torch::optim::RMSprop c_opt(critic->parameters(), torch::optim::RMSpropOptions(5e-5));

  auto sample_real = [&](int64_t n) {
    auto angle = torch::rand({n, 1}, device) * 6.2831853; // OK: made on the device
    return torch::cat({torch::cos(angle), torch::sin(angle)}, 1);
  };

  auto critic_step = [&]() {
    critic->zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto fake = gen->forward(torch::randn({batch, nz}, device)).detach(); // OK: made on the device
    auto loss = critic->forward(fake).mean() - critic->forward(sample_real(batch)).mean();
    loss.backward();
    c_opt.step();
    torch::NoGradGuard no_grad; // OK: clipping is not part of the graph
    for (auto &p : critic->parameters())
      p.clamp_(-clip, clip);
    return loss.detach();
  };

  auto running = torch::zeros({}, device);
  for (int64_t it = 0; it < 2000; ++it) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    for (int64_t k = 0; k < n_critic; ++k)
      running += critic_step();
    gen->zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto g_loss = -critic->forward(gen->forward(torch::randn({batch, nz}, device))).mean(); // OK: made on the device
    g_loss.backward();
    g_opt.step();
    if (it % 100 == 0) {
      std::cout << "it " << it << " critic " << running.item<double>() / (100 * n_critic) << '\n'; // OK: every 100 iterations
      running.zero_();
    }
  }
}
