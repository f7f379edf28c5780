// A loop whose training step is defined in another unit
// (test/checks/Inputs/step-elsewhere-trainer.cpp):
// test/driver/summaries-steps.test.
#include <torch/torch.h>

#include "step-elsewhere.h"

#include <iostream>

void train(trainer::Trainer &trainer, torch::Tensor x, torch::Tensor y) {
  trainer.model->to(torch::kCUDA);
  for (int step = 0; step < 100; ++step) {
    auto loss = trainer.train_step(x, y);
    std::cout << loss.item<float>() << "\n";
  }
}
