// Keypoint regression with Gaussian heatmap targets on synthetic images. The
// targets are rendered straight into GPU tensors one pixel at a time, which
// launches a kernel per pixel; the sample weights are filled on the host
// and copied once, as they should be.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <vector>

namespace {
constexpr int64_t kSize = 32, kJoints = 4, kBatch = 16;

struct HeatmapNet : torch::nn::Module {
  torch::nn::Conv2d c1{nullptr}, c2{nullptr}, head{nullptr};
  HeatmapNet() {
    c1 = register_module("c1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3).padding(1)));
    c2 = register_module("c2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 16, 3).padding(1)));
    head = register_module("head", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, kJoints, 1)));
  }
  torch::Tensor forward(torch::Tensor x) {
    return head->forward(torch::relu(c2->forward(torch::relu(c1->forward(x)))));
  }
};

// Renders one Gaussian per joint, on the device the loss runs on.
torch::Tensor render_heatmaps(const std::vector<float> &joints, torch::Device device) {
  auto maps = torch::zeros({kJoints, kSize, kSize}, torch::TensorOptions().device(device));
  for (int64_t k = 0; k < kJoints; ++k) {
    const float cx = joints[2 * k], cy = joints[2 * k + 1];
    for (int64_t y = 0; y < kSize; ++y)
      for (int64_t x = 0; x < kSize; ++x) {
        const float d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
        maps[k][y][x] = std::exp(-d2 / 8.f); // EXPECT: libtorch-per-element-device-write
      }
  }
  return maps;
}
} // namespace

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto net = std::make_shared<HeatmapNet>();
  net->to(device);
  torch::optim::Adam optimizer(net->parameters(), 1e-3);

  // A fixed synthetic set: random joints, images with a bright dot at each.
  const int64_t n = 256;
  std::vector<torch::Tensor> images, targets;
  for (int64_t i = 0; i < n; ++i) {
    auto xy = torch::randint(4, kSize - 4, {kJoints * 2}).to(torch::kFloat);
    std::vector<float> joints(xy.data_ptr<float>(), xy.data_ptr<float>() + kJoints * 2);
    auto image = torch::zeros({1, kSize, kSize});
    for (int64_t k = 0; k < kJoints; ++k)
      image[0][static_cast<int64_t>(joints[2 * k + 1])][static_cast<int64_t>(joints[2 * k])] = 1.f; // OK: a host tensor
    images.push_back(image.to(device));
    targets.push_back(render_heatmaps(joints, device));
  }

  // Per-sample weights: built on the host, copied once.
  std::vector<float> weights(n);
  for (int64_t i = 0; i < n; ++i)
    weights[i] = i % 10 == 0 ? 2.f : 1.f;
  auto sample_weight = torch::from_blob(weights.data(), {n}).to(device); // OK: once, before training

  for (int epoch = 0; epoch < 20; ++epoch) {
    for (int64_t b = 0; b + kBatch <= n; b += kBatch) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled, libtorch-cudnn-benchmark
      auto x = torch::stack(std::vector<torch::Tensor>(images.begin() + b, images.begin() + b + kBatch));
      auto t = torch::stack(std::vector<torch::Tensor>(targets.begin() + b, targets.begin() + b + kBatch));
      auto w = sample_weight.slice(0, b, b + kBatch).view({-1, 1, 1, 1});
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto loss = (w * (net->forward(x) - t).pow(2)).mean();
      loss.backward();
      optimizer.step();
    }
  }
}
