// Multi-class segmentation where the author pins each batch on the training
// thread before copying it: slower than a plain copy.
#include <torch/torch.h>

#include <iostream>

struct Stripes : torch::data::datasets::Dataset<Stripes> {
  torch::data::Example<> get(size_t i) override {
    auto cls = torch::arange(32).remainder(static_cast<int64_t>(i % 3) + 2).view({1, 32}).expand({32, 32});
    auto image = cls.to(torch::kFloat).unsqueeze(0).repeat({3, 1, 1}) / 3.0;
    return {image, cls.clone()};
  }
  torch::optional<size_t> size() const override { return 1024; }
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential net(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1).bias(false)), // OK: bias(false)
      torch::nn::BatchNorm2d(8), torch::nn::ReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(8, 4, 1)));
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9).nesterov(true));
  auto loader = torch::data::make_data_loader(
      Stripes().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(32).workers(2).enforce_ordering(false));

  for (int epoch = 0; epoch < 4; ++epoch) {
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled, libtorch-cudnn-benchmark
      auto x = batch.data.pin_memory().to(device, /*non_blocking=*/true); // EXPECT: libtorch-pin-memory-in-loop
      auto y = batch.target.to(device, /*non_blocking=*/true);
      auto loss = torch::nll_loss2d(torch::log_softmax(net->forward(x), 1), y);
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      opt.step();
    }
    std::cout << "epoch " << epoch << " done\n";
  }
}
