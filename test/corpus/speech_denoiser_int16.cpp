// A small 1-D convolutional speech denoiser trained on int16 PCM clips, in
// the style of audio projects that keep their clips as raw int16 samples.
// The step builds its inputs from helpers and lambdas: a lambda that makes
// the noise on the host, a helper that returns a host mask, a loss several
// calls deep that builds its frequency weights on the host, and band
// weights kept in a vector that never changes but is copied every step.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

namespace {
constexpr int64_t kClip = 1024, kBatch = 16;

struct Denoiser : torch::nn::Module {
  torch::nn::Conv1d enc{nullptr}, dec{nullptr};
  Denoiser() {
    enc = register_module("enc", torch::nn::Conv1d(torch::nn::Conv1dOptions(1, 16, 9).padding(4)));
    dec = register_module("dec", torch::nn::Conv1d(torch::nn::Conv1dOptions(16, 1, 9).padding(4)));
  }
  torch::Tensor forward(torch::Tensor x) { return dec->forward(torch::tanh(enc->forward(x))); }
};

std::vector<int16_t> synthetic_clips(int64_t n, std::mt19937 &rng) {
  std::normal_distribution<float> sample(0.f, 3000.f);
  std::vector<int16_t> pcm(n * kClip);
  for (auto &s : pcm)
    s = static_cast<int16_t>(sample(rng));
  return pcm;
}

// The helper makes the mask on the host and the step copies it.
torch::Tensor keep_mask(int64_t length) {
  return torch::ones({1, 1, length}); // EXPECT: libtorch-tensor-created-off-device
}

// Four calls below the step: spectral_loss -> weighted_l1 -> band_weights
// -> ramp.
torch::Tensor ramp(int64_t n, torch::Device device) {
  return torch::linspace(1.0, 2.0, n).to(device); // EXPECT: libtorch-tensor-created-off-device
}
torch::Tensor band_weights(int64_t n, torch::Device device) { return ramp(n, device).sqrt(); }
torch::Tensor weighted_l1(const torch::Tensor &a, const torch::Tensor &b, torch::Device device) {
  return ((a - b).abs() * band_weights(a.size(-1), device)).mean();
}
torch::Tensor spectral_loss(const torch::Tensor &out, const torch::Tensor &clean, torch::Device device) {
  return weighted_l1(out, clean, device);
}
} // namespace

int main() {
  torch::manual_seed(1);
  std::mt19937 rng(1);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Denoiser>();
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

  const int64_t n = 256;
  auto clean = synthetic_clips(n, rng);
  std::vector<float> level_weights;
  for (int i = 0; i < 4; ++i)
    level_weights.push_back(1.0f + 0.25f * i);
  auto make_noise = [](int64_t batch) { return 0.05 * torch::randn({batch, 1, kClip}); }; // OK: scaled before it is returned
  auto make_hiss = [](int64_t batch) { return torch::rand({batch, 1, kClip}); }; // EXPECT: libtorch-tensor-created-off-device
  auto fixed_noise = torch::randn({kBatch, 1, kClip}, device); // OK: made on the device, once

  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int64_t b = 0; b + kBatch <= n; b += kBatch) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled, libtorch-cudnn-benchmark
      auto pcm = torch::from_blob(clean.data() + b * kClip, {kBatch, 1, kClip}, torch::kInt16);
      auto target = pcm.toType(torch::kFloat).to(device, /*non_blocking=*/true).div(32768.0); // EXPECT: libtorch-tensor-created-off-device
      auto noise = make_noise(kBatch).to(device); // EXPECT: libtorch-blocking-host-to-device-copy
      auto hiss = make_hiss(kBatch).to(device);
      auto mask = keep_mask(kClip).to(device);
      auto levels = torch::tensor(level_weights).to(device); // EXPECT: libtorch-tensor-created-off-device
      auto gain = torch::ones({kBatch, 1, 1}, torch::TensorOptions().device(device)); // OK: made on the device
      auto out = model->forward((target + noise + 0.01 * hiss + fixed_noise * 0.01) * mask * gain);
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto loss = spectral_loss(out, target, device) * levels.mean();
      loss.backward();
      optimizer.step();
    }
    std::cout << "epoch " << epoch << std::endl;
  }
}
