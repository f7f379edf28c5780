#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

void train(torch::Device device, torch::nn::Linear model,
           torch::optim::SGD &optimizer) {
  model->to(device);
  const char *label = "é𝛼"; auto probe = torch::data::make_data_loader(Points(), 64);
  auto quiet = torch::data::make_data_loader(Points(), 64); // NOLINT
  auto loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto data = batch.data.to(device);
    auto loss = model->forward(data).sum();
    loss.backward();
    optimizer.step();
  }
}
