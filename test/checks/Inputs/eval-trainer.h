// A trainer class defined in a header, as projects split it: the epoch
// loop in the program's source calls train_epoch() and validate().
#pragma once

#include <torch/torch.h>

#include <vector>

template <typename Loader> class Trainer {
public:
  Trainer(torch::nn::Sequential model, Loader &train, Loader &test)
      : model_(model), train_(train), test_(test),
        optimizer_(model->parameters(), 0.01) {}
  void train_epoch() {
    model_->train();
    for (auto &batch : *train_) {
      optimizer_.zero_grad();
      auto loss = torch::mse_loss(model_->forward(batch.data), batch.target);
      loss.backward();
      optimizer_.step();
    }
  }
  float validate() {
    model_->eval();
    float total = 0;
    for (auto &batch : *test_) {
      auto output = model_->forward(batch.data);
      total += output.sum().template item<float>();
    }
    return total;
  }
  // Called under a guard by the program: fine.
  float validate_quietly() {
    model_->eval();
    float total = 0;
    for (auto &batch : *test_)
      total += model_->forward(batch.data).sum().template item<float>();
    return total;
  }

private:
  torch::nn::Sequential model_;
  Loader &train_;
  Loader &test_;
  torch::optim::Adam optimizer_;
};

class Scorer {
public:
  explicit Scorer(torch::nn::Sequential model) : model_(model) {}
  float score(const std::vector<torch::Tensor> &batches);

private:
  torch::nn::Sequential model_;
};

inline float Scorer::score(const std::vector<torch::Tensor> &batches) {
  model_->eval();
  float total = 0;
  for (const auto &x : batches)
    total += model_->forward(x).sum().item<float>();
  return total;
}
