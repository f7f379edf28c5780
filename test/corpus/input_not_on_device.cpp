// The model is on the device, the targets are copied, but the inputs go to
// forward() straight from the loader.
#include <torch/torch.h>

#include <iostream>

class Tabular : public torch::data::datasets::Dataset<Tabular> {
public:
  explicit Tabular(int64_t n) : features_(torch::randn({n, 30})), labels_((features_.slice(1, 0, 5).sum(1) > 0).to(torch::kLong)) {}
  torch::data::Example<> get(size_t i) override { return {features_[i], labels_[i]}; }
  torch::optional<size_t> size() const override { return features_.size(0); }

private:
  torch::Tensor features_, labels_;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential clf(torch::nn::Linear(30, 64), torch::nn::ReLU(), torch::nn::Dropout(0.1), torch::nn::Linear(64, 2));
  clf->to(device);
  torch::optim::Adam opt(clf->parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(Tabular(10000).map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions(256).workers(3).enforce_ordering(false));
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto target = batch.target.to(device, /*non_blocking=*/true);
      auto logits = clf->forward(batch.data); // EXPECT: libtorch-input-not-on-device
      auto loss = torch::cross_entropy_loss(logits, target);
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      opt.step();
    }
    std::cout << "epoch " << epoch << '\n';
  }
}
