// Binary segmentation of synthetic discs: a custom dataset that renders each
// sample from its index, custom transforms (random flip, normalization), a
// tiny encoder-decoder and a Dice + BCE loss.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <iostream>
#include <utility>

namespace seg {

using Example = torch::data::Example<>;

class DiscDataset : public torch::data::datasets::Dataset<DiscDataset> {
public:
  DiscDataset(int64_t count, int64_t size, bool pin) : count_(count), size_(size), pin_(pin) {}

  Example get(size_t index) override {
    auto gen = at::detail::createCPUGenerator(static_cast<uint64_t>(index));
    auto center = torch::rand({2}, gen) * size_;
    auto radius = 4 + 8 * torch::rand({1}, gen);
    auto coords = torch::arange(size_, torch::kFloat);
    auto dy = (coords.view({-1, 1}) - center[0]).pow(2);
    auto dx = (coords.view({1, -1}) - center[1]).pow(2);
    auto mask = ((dx + dy).sqrt() < radius).to(torch::kFloat).unsqueeze(0);
    auto image = mask.expand({3, size_, size_}) * 0.7 + torch::rand({3, size_, size_}, gen) * 0.3;
    if (pin_)
      return {image.pin_memory(), mask.pin_memory()}; // OK: pinned on the loader's workers
    return {image, mask};
  }
  torch::optional<size_t> size() const override { return count_; }

private:
  int64_t count_, size_;
  bool pin_;
};

// Flips image and mask together, chosen from the image content so that the
// transform stays a pure function (safe on worker threads).
struct JointFlip : torch::data::transforms::Transform<Example, Example> {
  Example apply(Example e) override {
    if (e.data.sum().item<double>() > e.data.numel() * 0.4) // OK: host tensors in a transform
      return {e.data.flip({2}), e.target.flip({2})};
    return e;
  }
};

struct Normalize : torch::data::transforms::Transform<Example, Example> {
  Example apply(Example e) override { return {(e.data - 0.5) / 0.25, e.target}; }
};

struct UNetLiteImpl : torch::nn::Module {
  UNetLiteImpl() {
    down = register_module("down", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)), // EXPECT: libtorch-conv-bias-before-batchnorm
        torch::nn::BatchNorm2d(16), torch::nn::ReLU(), torch::nn::MaxPool2d(2)));
    up = register_module("up", torch::nn::Sequential(
        torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(16, 16, 2).stride(2)),
        torch::nn::ReLU(), torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 1, 1)))); // OK: conv then output
  }
  torch::Tensor forward(torch::Tensor x) { return up->forward(down->forward(x)); }
  torch::nn::Sequential down{nullptr}, up{nullptr};
};
TORCH_MODULE(UNetLite);

torch::Tensor dice_loss(const torch::Tensor &logits, const torch::Tensor &mask) {
  auto p = torch::sigmoid(logits);
  auto inter = (p * mask).sum({1, 2, 3});
  auto denom = p.sum({1, 2, 3}) + mask.sum({1, 2, 3});
  return 1 - ((2 * inter + 1) / (denom + 1)).mean();
}

} // namespace seg

int main() {
  const bool cuda = torch::cuda::is_available();
  const torch::Device device = cuda ? torch::kCUDA : torch::kCPU;
  auto dataset = seg::DiscDataset(2000, 64, cuda)
                     .map(seg::JointFlip())
                     .map(seg::Normalize())
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader( // EXPECT: libtorch-dataloader-enforce-ordering
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(16).workers(4));

  seg::UNetLite net;
  net->to(device);
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3).weight_decay(1e-5));
  float best = 1e9f;
  for (int epoch = 0; epoch < 8; ++epoch) {
    auto total = torch::zeros({}, device);
    int64_t batches = 0;
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled, libtorch-cudnn-benchmark
      auto image = batch.data.to(device, true);
      auto mask = batch.target.to(device, true);
      auto logits = net->forward(image);
      auto loss = seg::dice_loss(logits, mask) + torch::binary_cross_entropy_with_logits(logits, mask);
      adam.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      adam.step();
      total += loss.detach();
      ++batches;
    }
    const float mean = total.item<float>() / batches; // OK: once per epoch
    if (mean < best) {
      best = mean;
      torch::save(net, "unet-best.pt"); // OK: checkpoint on improvement, per epoch
    }
    std::cout << "epoch " << epoch << " loss " << mean << '\n';
  }
}
