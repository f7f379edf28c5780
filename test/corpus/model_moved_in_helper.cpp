// The model is built and moved by a factory function; the training loader
// has no worker threads.
#include <torch/torch.h>

#include <iostream>

struct Spirals : torch::data::datasets::Dataset<Spirals> {
  torch::data::Example<> get(size_t i) override {
    const double t = static_cast<double>(i % 500) / 500.0 * 12.0;
    const int64_t cls = static_cast<int64_t>(i % 2);
    const double sign = cls ? 1.0 : -1.0;
    auto p = torch::tensor({sign * t * std::cos(t) / 12.0, sign * t * std::sin(t) / 12.0});
    return {p.to(torch::kFloat), torch::tensor(cls)};
  }
  torch::optional<size_t> size() const override { return 1000; }
};

torch::nn::Sequential build_model(const torch::Device &device) {
  torch::nn::Sequential m(torch::nn::Linear(2, 64), torch::nn::ReLU(), torch::nn::Linear(64, 64), torch::nn::ReLU(),
                          torch::nn::Linear(64, 2));
  m->to(device);
  return m;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = build_model(device); // OK: moved in the factory
  torch::optim::Adam opt(model->parameters(), 3e-3);
  auto loader = torch::data::make_data_loader(Spirals().map(torch::data::transforms::Stack<>()), 50); // EXPECT: libtorch-dataloader-no-workers
  for (int epoch = 0; epoch < 100; ++epoch) {
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto x = batch.data.to(device, true);
      auto y = batch.target.to(device, true);
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      torch::cross_entropy_loss(model->forward(x), y).backward();
      opt.step();
    }
  }
  std::cout << "done\n";
}
