// A convolutional autoencoder written by someone who read the performance
// guide: TF32 and cuDNN autotuning on, bf16 autocast around the forward pass,
// gradients reset instead of zeroed, workers with unordered delivery.
#include <ATen/autocast_mode.h>
#include <torch/torch.h>

#include <iostream>

struct Noise : torch::data::datasets::Dataset<Noise> {
  torch::data::Example<> get(size_t i) override {
    auto img = torch::rand({1, 32, 32}) * (static_cast<double>(i % 10) / 10.0);
    return {img, img};
  }
  torch::optional<size_t> size() const override { return 4096; }
};

int main() {
  at::globalContext().setFloat32MatmulPrecision("high"); // OK: TF32 allowed
  at::globalContext().setBenchmarkCuDNN(true);           // OK: fixed input shapes
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential ae(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3).stride(2).padding(1)), torch::nn::ReLU(), // OK: conv then relu
      torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).stride(2).padding(1)), torch::nn::ReLU(),
      torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(32, 16, 2).stride(2)), torch::nn::ReLU(),
      torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(16, 1, 2).stride(2)), torch::nn::Sigmoid());
  ae->to(device);
  torch::optim::Adam opt(ae->parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(
      Noise().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(128).workers(4).enforce_ordering(false));

  at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
  for (int epoch = 0; epoch < 5; ++epoch) {
    auto total = torch::zeros({}, device);
    for (auto &batch : *loader) { // OK: autocast, TF32 and cuDNN benchmark are set
      auto x = batch.data.to(device, /*non_blocking=*/true);
      at::autocast::set_enabled(true);
      auto loss = torch::mse_loss(ae->forward(x).to(torch::kFloat), x);
      at::autocast::set_enabled(false);
      at::autocast::clear_cache();
      for (auto &p : ae->parameters())
        p.mutable_grad().reset(); // OK: gradients reset, not zeroed
      loss.backward();
      opt.step();
      total += loss.detach();
    }
    std::cout << "epoch " << epoch << " loss " << total.item<float>() << '\n'; // OK: per epoch
  }
}
