#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

void train() {
  auto loader = torch::data::make_data_loader(Points(), 64);
}

// Half-typed code below: the finding above is still reported.
void evaluate(torch::nn::Linear model {
  for (int i = 0; i < 3; ++i)
    auto out = model->forward(torch::zeros({2, 2})
}
