// Bag-of-words text classifier on synthetic documents, trained with
// gradient accumulation. The micro-step counter is global (it also drives
// the learning-rate warm-up and the logging), but the optimizer is cleared at
// the start of every epoch: 1000 documents in batches of 24 end each epoch
// inside an accumulation window, and that window's gradients are dropped.
#include <torch/torch.h>

#include <iostream>
#include <vector>

namespace {
constexpr int64_t kVocab = 2000, kClasses = 5, kDocs = 1000;

struct Documents : torch::data::datasets::Dataset<Documents> {
  torch::Tensor counts, labels;
  Documents() {
    labels = torch::randint(kClasses, {kDocs});
    counts = torch::poisson(torch::rand({kDocs, kVocab}) * 0.05);
    counts.scatter_add_(1, (labels * 7).unsqueeze(1), torch::full({kDocs, 1}, 3.0)); // a class signal
  }
  torch::data::Example<> get(size_t i) override {
    return {counts[i], labels[i]};
  }
  torch::optional<size_t> size() const override { return kDocs; }
};

struct BowNet : torch::nn::Module {
  torch::nn::Linear hidden{nullptr}, out{nullptr};
  BowNet() {
    hidden = register_module("hidden", torch::nn::Linear(kVocab, 256));
    out = register_module("out", torch::nn::Linear(256, kClasses));
  }
  torch::Tensor forward(torch::Tensor x) {
    return out->forward(torch::relu(hidden->forward(torch::log1p(x))));
  }
};
} // namespace

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto net = std::make_shared<BowNet>();
  net->to(device);
  torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(1e-3));
  auto loader = torch::data::make_data_loader( // EXPECT: libtorch-dataloader-enforce-ordering
      Documents().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(24).workers(2));

  const int accumulate = 8, warmup = 200;
  int64_t global_step = 0;
  for (int epoch = 0; epoch < 10; ++epoch) {
    net->train();
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-accumulation, libtorch-zero-grad-set-to-none
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto x = batch.data.to(device, /*non_blocking=*/true);
      auto y = batch.target.to(device, /*non_blocking=*/true);
      auto loss = torch::cross_entropy_loss(net->forward(x), y) / accumulate;
      loss.backward();
      if (++global_step % accumulate == 0) {
        const double scale = std::min(1.0, double(global_step) / warmup);
        for (auto &group : optimizer.param_groups())
          static_cast<torch::optim::AdamOptions &>(group.options()).lr(1e-3 * scale);
        optimizer.step();
        optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      }
    }
    std::cout << "epoch " << epoch << " micro-steps " << global_step << '\n'; // OK: a host counter
  }
}
