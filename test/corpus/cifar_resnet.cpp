// CIFAR-style residual network. The blocks are written correctly (no conv
// bias before batch norm); the training loop copies batches synchronously and
// the validation pass keeps autograd on.
#include <torch/torch.h>

#include <iomanip>
#include <iostream>

namespace nn = torch::nn;

struct BasicBlockImpl : nn::Module {
  BasicBlockImpl(int64_t in, int64_t out, int64_t stride)
      : conv1(nn::Conv2dOptions(in, out, 3).stride(stride).padding(1).bias(false)), // OK: bias(false)
        bn1(out),
        conv2(nn::Conv2dOptions(out, out, 3).padding(1).bias(false)), // OK: bias(false)
        bn2(out) {
    register_module("conv1", conv1);
    register_module("bn1", bn1);
    register_module("conv2", conv2);
    register_module("bn2", bn2);
    if (stride != 1 || in != out) {
      shortcut = register_module(
          "shortcut", nn::Sequential(nn::Conv2d(nn::Conv2dOptions(in, out, 1).stride(stride).bias(false)), // OK: bias(false)
                                     nn::BatchNorm2d(out)));
    }
  }
  torch::Tensor forward(torch::Tensor x) {
    auto y = torch::relu(bn1(conv1(x)));
    y = bn2(conv2(y));
    return torch::relu(y + (shortcut.is_empty() ? x : shortcut->forward(x)));
  }
  nn::Conv2d conv1, conv2;
  nn::BatchNorm2d bn1, bn2;
  nn::Sequential shortcut{nullptr};
};
TORCH_MODULE(BasicBlock);

struct ResNetImpl : nn::Module {
  ResNetImpl() {
    stem = register_module("stem", nn::Sequential(nn::Conv2d(nn::Conv2dOptions(3, 32, 3).padding(1).bias(false)), // OK: bias(false)
                                                  nn::BatchNorm2d(32), nn::ReLU()));
    layers = register_module("layers", nn::Sequential(BasicBlock(32, 32, 1), BasicBlock(32, 64, 2)));
    head = register_module("head", nn::Linear(64, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = layers->forward(stem->forward(x));
    return head(torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1));
  }
  nn::Sequential stem{nullptr}, layers{nullptr};
  nn::Linear head{nullptr};
};
TORCH_MODULE(ResNet);

class SyntheticCifar : public torch::data::datasets::Dataset<SyntheticCifar> {
public:
  explicit SyntheticCifar(int64_t n) : images_(torch::rand({n, 3, 32, 32})), labels_(torch::randint(10, {n})) {}
  torch::data::Example<> get(size_t i) override { return {images_[i], labels_[i]}; }
  torch::optional<size_t> size() const override { return images_.size(0); }

private:
  torch::Tensor images_, labels_;
};

template <typename Loader>
float validate(ResNet &net, Loader &loader, const torch::Device &device) {
  net->eval();
  auto total = torch::zeros({}, device);
  int64_t n = 0;
  for (auto &batch : *loader) { // EXPECT: libtorch-eval-without-no-grad
    auto out = net->forward(batch.data.to(device));
    total += torch::cross_entropy_loss(out, batch.target.to(device), {}, torch::Reduction::Sum);
    n += batch.data.size(0);
  }
  return total.item<float>() / n;
}

int main() {
  const auto device = torch::Device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto make = [](int64_t n) {
    return SyntheticCifar(n)
        .map(torch::data::transforms::Normalize<>({0.49, 0.48, 0.45}, {0.25, 0.24, 0.26}))
        .map(torch::data::transforms::Stack<>());
  };
  auto train = torch::data::make_data_loader(make(4096), torch::data::DataLoaderOptions(64).workers(4).enforce_ordering(false));
  auto val = torch::data::make_data_loader(make(512), torch::data::DataLoaderOptions(256).workers(2).enforce_ordering(false));

  ResNet net;
  net->to(device);
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9).weight_decay(5e-4));
  for (int epoch = 0; epoch < 10; ++epoch) {
    net->train();
    for (auto &batch : *train) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled, libtorch-cudnn-benchmark
      auto images = batch.data.to(device); // EXPECT: libtorch-blocking-host-to-device-copy
      auto targets = batch.target.to(device); // EXPECT: libtorch-blocking-host-to-device-copy
      sgd.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      torch::cross_entropy_loss(net->forward(images), targets).backward();
      sgd.step();
    }
    std::cout << "epoch " << epoch << " val loss " << std::fixed << std::setprecision(4)
              << validate(net, val, device) << '\n'; // OK: per epoch
  }
}
