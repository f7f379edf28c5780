// Fine-tuning a head on a frozen backbone loaded from a checkpoint; the data
// loader is rebuilt each epoch with a new subset (per epoch, not per step).
#include <torch/torch.h>

#include <iostream>

struct Subset : torch::data::datasets::Dataset<Subset> {
  torch::Tensor x, y;
  Subset(int64_t n, int64_t seed) {
    auto gen = at::detail::createCPUGenerator(seed);
    x = torch::randn({n, 128}, gen);
    y = (x.slice(1, 0, 8).sum(1) > 0).to(torch::kLong);
  }
  torch::data::Example<> get(size_t i) override { return {x[i], y[i]}; }
  torch::optional<size_t> size() const override { return x.size(0); }
};

int main(int argc, char **argv) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential backbone(torch::nn::Linear(128, 256), torch::nn::ReLU(), torch::nn::Linear(256, 256));
  if (argc > 1)
    torch::load(backbone, argv[1]); // OK: once, before training
  for (auto &p : backbone->parameters())
    p.set_requires_grad(false);
  torch::nn::Linear head(256, 2);
  backbone->to(device);
  head->to(device);
  torch::optim::SGD opt(head->parameters(), torch::optim::SGDOptions(0.05));
  for (int64_t epoch = 0; epoch < 6; ++epoch) {
    auto loader = torch::data::make_data_loader( // OK: once per epoch, a new subset
        Subset(2000, epoch).map(torch::data::transforms::Stack<>()),
        torch::data::DataLoaderOptions(64).workers(2).enforce_ordering(false));
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto x = batch.data.to(device, /*non_blocking=*/true);
      auto y = batch.target.to(device, /*non_blocking=*/true);
      torch::Tensor features;
      {
        torch::NoGradGuard no_grad; // OK: frozen backbone
        features = backbone->forward(x);
      }
      auto loss = torch::cross_entropy_loss(head(features), y);
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      opt.step();
    }
  }
  torch::save(head, "head.pt");
}
