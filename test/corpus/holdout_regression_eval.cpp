// Tabular regression with a held-out split kept whole on the device: the
// epoch loop trains through a data loader in one function and scores the
// held-out tensors in another, one forward pass each, after switching the
// model to eval mode. The scoring runs with autograd on.
#include <torch/torch.h>

#include <cstddef>
#include <cstdio>

struct Rows : torch::data::datasets::Dataset<Rows> {
  explicit Rows(int64_t n) : features(torch::randn({n, 12})), targets(torch::randn({n, 1})) {}
  torch::data::Example<> get(size_t index) override {
    return {features[index], targets[index]};
  }
  c10::optional<size_t> size() const override { return features.size(0); }
  torch::Tensor features, targets;
};

struct RegressorImpl : torch::nn::Module {
  RegressorImpl()
      : hidden(register_module("hidden", torch::nn::Linear(12, 64))),
        dropout(register_module("dropout", torch::nn::Dropout(0.2))),
        out(register_module("out", torch::nn::Linear(64, 1))) {}
  torch::Tensor forward(torch::Tensor x) {
    return out(dropout(torch::relu(hidden(x))));
  }
  torch::nn::Linear hidden;
  torch::nn::Dropout dropout;
  torch::nn::Linear out;
};
TORCH_MODULE(Regressor);

template <typename Loader>
double train_epoch(Regressor &model, Loader &loader, torch::optim::Optimizer &optimizer,
                   torch::Device device) {
  model->train();
  double total = 0;
  int64_t batches = 0;
  for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto x = batch.data.to(device, /*non_blocking=*/true);
    auto y = batch.target.to(device, /*non_blocking=*/true);
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    total += loss.template item<double>(); // EXPECT: libtorch-host-sync-in-loop
    ++batches;
  }
  return total / static_cast<double>(batches);
}

// Scores the held-out split: eval mode, one forward pass, numbers out.
void report_holdout(Regressor &model, const torch::Tensor &x, const torch::Tensor &y, int epoch) {
  model->eval();
  auto prediction = model->forward(x); // EXPECT: libtorch-eval-without-no-grad
  double mse = torch::mse_loss(prediction, y).item<double>();
  double mae = (prediction - y).abs().mean().item<double>();
  std::printf("epoch %d holdout mse %.4f mae %.4f\n", epoch, mse, mae);
}

// The final test split, scored once under a guard: fine.
void report_test(Regressor &model, const torch::Tensor &x, const torch::Tensor &y) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto prediction = model->forward(x); // OK: under the guard above
  std::printf("test mse %.4f\n", torch::mse_loss(prediction, y).item<double>());
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto loader = torch::data::make_data_loader(
      Rows(4096).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(128).workers(2).enforce_ordering(false));
  auto holdout_x = torch::randn({512, 12}, device);
  auto holdout_y = torch::randn({512, 1}, device);
  auto test_x = torch::randn({512, 12}, device);
  auto test_y = torch::randn({512, 1}, device);

  Regressor model;
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  for (int epoch = 0; epoch < 30; ++epoch) {
    double train_loss = train_epoch(model, loader, optimizer, device);
    std::printf("epoch %d train %.4f\n", epoch, train_loss);
    report_holdout(model, holdout_x, holdout_y, epoch);
  }
  report_test(model, test_x, test_y);
}
