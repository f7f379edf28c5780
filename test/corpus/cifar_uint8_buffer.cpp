// A CIFAR-style classifier trained from an in-memory uint8 image buffer, the
// way projects that parse the binary CIFAR files feed it: each batch is a
// from_blob view of the raw bytes, converted, normalized with the dataset's
// per-channel mean and std, and moved to the GPU. The conversion happens on
// the host (four times the bytes cross the bus), and the mean/std tables
// and the label-smoothing targets are rebuilt and copied on every step.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

namespace {
constexpr int64_t kBatch = 64, kClasses = 10, kImage = 32;
static const float kMean[3] = {0.4914f, 0.4822f, 0.4465f};
static const float kStd[3] = {0.2470f, 0.2435f, 0.2616f};

struct Net : torch::nn::Module {
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear fc{nullptr};
  Net() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)));
    fc = register_module("fc", torch::nn::Linear(32 * 8 * 8, kClasses));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1->forward(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2->forward(x)), 2);
    return fc->forward(x.flatten(1));
  }
};

std::vector<uint8_t> synthetic_images(int64_t n, std::mt19937 &rng) {
  std::uniform_int_distribution<int> pixel(0, 255);
  std::vector<uint8_t> bytes(n * 3 * kImage * kImage);
  for (auto &b : bytes)
    b = static_cast<uint8_t>(pixel(rng));
  return bytes;
}

std::vector<int64_t> synthetic_labels(int64_t n, std::mt19937 &rng) {
  std::uniform_int_distribution<int64_t> label(0, kClasses - 1);
  std::vector<int64_t> labels(n);
  for (auto &l : labels)
    l = label(rng);
  return labels;
}

// Normalizes a float batch that is already on the device.
torch::Tensor normalize(const torch::Tensor &x, torch::Device device) {
  auto mean = torch::from_blob(const_cast<float *>(kMean), {1, 3, 1, 1}).to(device); // EXPECT: libtorch-tensor-created-off-device
  auto stdev = torch::from_blob(const_cast<float *>(kStd), {1, 3, 1, 1}).to(device); // EXPECT: libtorch-tensor-created-off-device
  return (x - mean) / stdev;
}

torch::Tensor smoothed_cross_entropy(const torch::Tensor &logits, const torch::Tensor &target,
                                     torch::Device device) {
  auto soft = torch::full({logits.size(0), kClasses}, 0.1 / (kClasses - 1)).to(device); // EXPECT: libtorch-tensor-created-off-device
  soft.scatter_(1, target.unsqueeze(1), 0.9);
  return -(soft * torch::log_softmax(logits, 1)).sum(1).mean();
}
} // namespace

int main() {
  torch::manual_seed(0);
  std::mt19937 rng(0);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net.to(device);
  torch::optim::SGD optimizer(net.parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  const int64_t n = 1024;
  auto images = synthetic_images(n, rng);
  auto labels = synthetic_labels(n, rng);
  auto test_images = synthetic_images(256, rng);
  auto test_labels = synthetic_labels(256, rng);

  for (int epoch = 0; epoch < 5; ++epoch) {
    net.train();
    double epoch_loss = 0;
    for (int64_t b = 0; b + kBatch <= n; b += kBatch) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled, libtorch-cudnn-benchmark
      auto raw = torch::from_blob(images.data() + b * 3 * kImage * kImage, {kBatch, 3, kImage, kImage},
                                  torch::kUInt8);
      auto x = normalize(raw.to(torch::kFloat32).div(255.0).to(device), device); // EXPECT: libtorch-tensor-created-off-device
      auto y = torch::from_blob(labels.data() + b, {kBatch}, torch::kLong).to(device); // EXPECT: libtorch-blocking-host-to-device-copy
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto loss = smoothed_cross_entropy(net.forward(x), y, device);
      loss.backward();
      optimizer.step();
      if (b % (8 * kBatch) == 0)
        epoch_loss += loss.item<double>(); // OK: every eighth step
    }

    // Accuracy on the held-out buffer, counted on the device.
    torch::NoGradGuard no_grad;
    net.eval();
    auto correct = torch::zeros({}, torch::TensorOptions(torch::kLong).device(device)); // OK: made on the device
    for (int64_t b = 0; b + kBatch <= 256; b += kBatch) {
      auto raw = torch::from_blob(test_images.data() + b * 3 * kImage * kImage, {kBatch, 3, kImage, kImage},
                                  torch::kUInt8);
      auto x = normalize(raw.to(device).to(torch::kFloat32).div(255.0), device); // OK: converted on the device
      auto y = torch::from_blob(test_labels.data() + b, {kBatch}, torch::kLong).to(device, /*non_blocking=*/true);
      correct += net.forward(x).argmax(1).eq(y).sum();
    }
    std::cout << "epoch " << epoch << " loss " << epoch_loss << " correct " << correct.item<int64_t>()
              << std::endl;
  }
}
