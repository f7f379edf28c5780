// MNIST-style MLP on synthetic Gaussian blobs: the textbook loop, written the
// way the LibTorch examples teach it. Clean for the default tier.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>

struct BlobSet : torch::data::datasets::Dataset<BlobSet> {
  torch::Tensor x, y;
  explicit BlobSet(int64_t n) {
    y = torch::randint(10, {n}, torch::kLong);
    x = torch::randn({n, 784}) + y.unsqueeze(1).to(torch::kFloat) * 0.1;
  }
  torch::data::Example<> get(size_t i) override {
    return {x[static_cast<int64_t>(i)], y[static_cast<int64_t>(i)]};
  }
  torch::optional<size_t> size() const override { return x.size(0); }
};

struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::dropout(torch::relu(fc1->forward(x)), 0.2, is_training());
    return torch::log_softmax(fc2->forward(x), 1);
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

template <typename Loader>
double test(std::shared_ptr<Net> &net, Loader &loader, torch::Device device) {
  torch::NoGradGuard no_grad; // OK: evaluation without autograd
  net->eval();
  auto correct = torch::zeros({}, torch::TensorOptions().device(device).dtype(torch::kLong));
  int64_t n = 0;
  for (const auto &batch : loader) { // OK: guarded evaluation loop
    auto data = batch.data.to(device, /*non_blocking=*/true);
    auto target = batch.target.to(device, /*non_blocking=*/true);
    correct += net->forward(data).argmax(1).eq(target).sum();
    n += target.size(0);
  }
  return correct.item<double>() / n; // OK: once, after the loop
}

int main() {
  torch::manual_seed(0);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto net = std::make_shared<Net>();
  net->to(device); // OK: once, before training

  auto train_loader = torch::data::make_data_loader(
      BlobSet(8192).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(64).workers(2).enforce_ordering(false));
  auto test_loader = torch::data::make_data_loader(
      BlobSet(1024).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(256).workers(2).enforce_ordering(false));
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));

  for (size_t epoch = 1; epoch <= 5; ++epoch) {
    net->train();
    size_t batch_index = 0;
    for (auto &batch : *train_loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto data = batch.data.to(device, /*non_blocking=*/true);
      auto target = batch.target.to(device, /*non_blocking=*/true);
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto loss = torch::nll_loss(net->forward(data), target);
      loss.backward();
      optimizer.step();
      if (++batch_index % 100 == 0) {
        std::printf("epoch %zu batch %zu loss %.4f\n", epoch, batch_index,
                    loss.item<float>()); // OK: logging every 100 steps
      }
    }
    std::printf("epoch %zu accuracy %.3f\n", epoch, test(net, *test_loader, device)); // OK: per epoch
  }
}
