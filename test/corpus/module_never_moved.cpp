// The batches go to the GPU, the model does not: the first forward call
// fails on a CUDA machine (or, with a CPU fallback, trains on the host).
#include <torch/torch.h>

#include <iostream>

struct Regressor : torch::nn::Module {
  Regressor() : fc1(register_module("fc1", torch::nn::Linear(12, 48))), fc2(register_module("fc2", torch::nn::Linear(48, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};

struct Houses : torch::data::datasets::Dataset<Houses> {
  torch::Tensor x = torch::randn({5000, 12});
  torch::Tensor y = x.matmul(torch::linspace(-1, 1, 12)).unsqueeze(1);
  torch::data::Example<> get(size_t i) override { return {x[i], y[i]}; }
  torch::optional<size_t> size() const override { return 5000; }
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Regressor>(); // EXPECT: libtorch-module-not-on-device
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(1e-2));
  auto loader = torch::data::make_data_loader(
      Houses().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(100).workers(2).enforce_ordering(false));
  for (int epoch = 0; epoch < 20; ++epoch) {
    auto sum = torch::zeros({}, device);
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto x = batch.data.to(device, /*non_blocking=*/true);
      auto y = batch.target.to(device, /*non_blocking=*/true);
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto loss = torch::mse_loss(model->forward(x), y);
      loss.backward();
      opt.step();
      sum += loss.detach();
    }
    std::cout << "epoch " << epoch << " loss " << sum.item<float>() << '\n'; // OK: per epoch
  }
}
