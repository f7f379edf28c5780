// A training loop whose logger is defined in another unit
// (test/checks/Inputs/sync-elsewhere-metrics.cpp): test/driver/summaries.test.
#include <torch/torch.h>

#include "sync-elsewhere.h"

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor x, torch::Tensor y, metrics::Logger &logger) {
  model->to(torch::kCUDA);
  for (int step = 0; step < 100; ++step) {
    auto loss = torch::mse_loss(model(x), y);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    logger.update(loss);
  }
}
