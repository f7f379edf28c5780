// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-data-parallel %t -- \
// RUN:   '--config={CheckOptions: {PeriodicGuardMacros: "EVERY_N_STEPS"}}' -- -I%S/Inputs

// PeriodicGuardMacros, set globally, reaches this check: a call inside a
// guard macro whose condition we cannot read does not run on every step.

#include <torch/torch.h>

#include "every-n-steps.h"
#include <torch/nn/parallel/data_parallel.h>

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           const torch::Tensor &x, const torch::Tensor &y) {
  for (int step = 0; step < 1000; ++step) {
    optimizer.zero_grad();
    auto out = torch::nn::parallel::data_parallel(model, x);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'data_parallel' on every training step
    // CHECK-MESSAGES: :[[@LINE-2]]:16: note: run one process per GPU
    auto loss = torch::mse_loss(out, y);
    loss.backward();
    optimizer.step();
    EVERY_N_STEPS(torch::nn::parallel::data_parallel(model, x));
  }
}
