// A CIFAR-style classifier with dropout and batch norm, split into
// train_epoch() and evaluate() the way many examples split it: evaluate()
// switches the model to eval mode and nothing switches it back, so every
// epoch after the first trains with dropout off. A second run restores the
// mode correctly.
#include <torch/torch.h>

#include <cstdio>

struct Blobs : torch::data::datasets::Dataset<Blobs> {
  torch::Tensor x, y;
  explicit Blobs(int64_t n) {
    y = torch::randint(10, {n}, torch::kLong);
    x = torch::randn({n, 64}) + y.unsqueeze(1).to(torch::kFloat) * 0.1;
  }
  torch::data::Example<> get(size_t i) override {
    return {x[static_cast<int64_t>(i)], y[static_cast<int64_t>(i)]};
  }
  torch::optional<size_t> size() const override { return x.size(0); }
};

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl()
      : fc1(register_module("fc1", torch::nn::Linear(64, 128))),
        bn(register_module("bn", torch::nn::BatchNorm1d(128))),
        drop(register_module("drop", torch::nn::Dropout(0.3))),
        fc2(register_module("fc2", torch::nn::Linear(128, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    return fc2(drop(torch::relu(bn(fc1(x)))));
  }
  torch::nn::Linear fc1;
  torch::nn::BatchNorm1d bn;
  torch::nn::Dropout drop;
  torch::nn::Linear fc2;
};
TORCH_MODULE(Classifier);

using Loader = decltype(torch::data::make_data_loader(
    Blobs(1).map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(64).workers(2).enforce_ordering(false)));

void train_epoch(Classifier &model, Loader &loader, torch::optim::Optimizer &optimizer,
                 torch::Device device) {
  for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto data = batch.data.to(device, /*non_blocking=*/true);
    auto target = batch.target.to(device, /*non_blocking=*/true);
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto loss = torch::cross_entropy_loss(model->forward(data), target); // EXPECT: libtorch-eval-mode-not-restored
    loss.backward();
    optimizer.step();
  }
}

double evaluate(Classifier &model, Loader &loader, torch::Device device) {
  torch::NoGradGuard no_grad; // OK: evaluation without autograd
  model->eval();
  auto correct = torch::zeros({}, torch::TensorOptions().device(device).dtype(torch::kLong));
  int64_t n = 0;
  for (auto &batch : *loader) { // OK: guarded evaluation loop
    auto data = batch.data.to(device, /*non_blocking=*/true);
    auto target = batch.target.to(device, /*non_blocking=*/true);
    correct += model->forward(data).argmax(1).eq(target).sum();
    n += target.size(0);
  }
  return correct.item<double>() / n; // OK: once per evaluation
}

// The same steps with the mode restored where it belongs.
void train_epoch_restoring(Classifier &model, Loader &loader, torch::optim::Optimizer &optimizer,
                           torch::Device device) {
  model->train(); // OK: back to train mode before every epoch
  for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast
    auto data = batch.data.to(device, /*non_blocking=*/true);
    auto target = batch.target.to(device, /*non_blocking=*/true);
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto loss = torch::cross_entropy_loss(model->forward(data), target); // OK: trained in train mode
    loss.backward();
    optimizer.step();
  }
}

int main() {
  torch::manual_seed(0);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto train_loader = torch::data::make_data_loader(
      Blobs(4096).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(64).workers(2).enforce_ordering(false));
  auto test_loader = torch::data::make_data_loader(
      Blobs(1024).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(256).workers(2).enforce_ordering(false));

  Classifier model;
  model->to(device); // OK: once, before training
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  for (int epoch = 1; epoch <= 10; ++epoch) {
    train_epoch(model, train_loader, optimizer, device);
    std::printf("epoch %d accuracy %.3f\n", epoch, evaluate(model, test_loader, device)); // OK: per epoch
  }

  Classifier second;
  second->to(device); // OK: once, before training
  torch::optim::Adam second_optimizer(second->parameters(), torch::optim::AdamOptions(1e-3));
  for (int epoch = 1; epoch <= 10; ++epoch) {
    train_epoch_restoring(second, train_loader, second_optimizer, device);
    std::printf("epoch %d accuracy %.3f\n", epoch, evaluate(second, test_loader, device)); // OK: per epoch
  }
}
