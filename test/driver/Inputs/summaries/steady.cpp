// A training loop that calls a function of another unit that does not wait
// (test/checks/Inputs/sync-elsewhere-metrics.cpp):
// test/driver/summaries-database.test.
#include <torch/torch.h>

#include "sync-elsewhere.h"

void train_steady(torch::nn::Linear model, torch::optim::SGD &optimizer,
                  torch::Tensor x, torch::Tensor y) {
  model->to(torch::kCUDA);
  auto sum = torch::zeros({}, torch::kCUDA);
  for (int step = 0; step < 100; ++step) {
    auto loss = torch::mse_loss(model(x), y);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    metrics::accumulate(sum, loss);
  }
}
