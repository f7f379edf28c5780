// A small conditional-free GAN on 2-D points, written as tutorials do: the
// generator is sampled every 200 steps inside the training loop, and each
// epoch ends with a test() pass and a lambda that scores a held-out vector
// of batches after `eval()`, believed to switch autograd off.
#include <torch/torch.h>

#include <cstdio>
#include <utility>
#include <vector>

struct GeneratorImpl : torch::nn::Module {
  GeneratorImpl()
      : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(16, 64), torch::nn::ReLU(),
                                                          torch::nn::Dropout(0.2), torch::nn::Linear(64, 2)))) {}
  torch::Tensor forward(torch::Tensor z) { return body->forward(z); }
  torch::nn::Sequential body;
};
TORCH_MODULE(Generator);

std::pair<double, double> test(torch::nn::Sequential &critic, const std::vector<torch::Tensor> &real,
                               const torch::Device &device) {
  critic->eval();
  auto real_score = torch::zeros({}, device);
  for (const auto &points : real) { // EXPECT: libtorch-eval-without-no-grad
    real_score += critic->forward(points).mean();
  }
  return {real_score.item<double>() / real.size(), 0.0}; // OK: once per epoch
}

int main() {
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Generator generator;
  torch::nn::Sequential critic(torch::nn::Linear(2, 64), torch::nn::LeakyReLU(), torch::nn::Linear(64, 1));
  generator->to(device);
  critic->to(device);
  torch::optim::Adam g_opt(generator->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam c_opt(critic->parameters(), torch::optim::AdamOptions(2e-4));

  std::vector<torch::Tensor> held_out;
  for (int i = 0; i < 8; ++i)
    held_out.push_back(torch::randn({64, 2}, device)); // OK: made on the device
  const auto fixed_noise = torch::randn({16, 16}, device);

  auto score_samples = [&]() {
    generator->eval();
    auto total = torch::zeros({}, device);
    for (const auto &points : held_out) { // EXPECT: libtorch-eval-without-no-grad
      total += critic->forward(generator->forward(torch::randn({points.size(0), 16}, device))).mean();
    }
    return total.item<double>() / held_out.size(); // OK: once per epoch
  };

  for (int epoch = 0; epoch < 20; ++epoch) {
    generator->train();
    critic->train();
    for (int64_t step = 0; step < 1000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto real = torch::randn({64, 2}, device); // OK: made on the device
      auto fake = generator->forward(torch::randn({64, 16}, device));
      c_opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto c_loss = critic->forward(fake.detach()).mean() - critic->forward(real).mean();
      c_loss.backward();
      c_opt.step();
      g_opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto g_loss = -critic->forward(fake).mean();
      g_loss.backward();
      g_opt.step();
      if (step % 200 == 0) {
        auto samples = generator->forward(fixed_noise); // EXPECT: libtorch-eval-without-no-grad
        torch::save(samples.cpu(), "samples.pt");
      }
    }
    auto [real_score, unused] = test(critic, held_out, device);
    std::printf("epoch %d real %.3f fake %.3f\n", epoch, real_score, score_samples());
  }
}
