// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-eval-without-no-grad %t -- \
// RUN:   '--config={CheckOptions: {PeriodicGuardMacros: "EVERY_N_STEPS"}}' -- -I%S/Inputs

// PeriodicGuardMacros, set globally, reaches this check: an evaluation
// called inside a guard macro whose condition we cannot read is not part of
// every training step, so it is an evaluation pass of its own.

#include <torch/torch.h>

#include "every-n-steps.h"

#include <vector>

double validate_now_and_then(torch::nn::Linear &model,
                             std::vector<torch::Tensor> &batches) {
  model->eval();
  double total = 0;
  for (auto &batch : batches)
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on
    total += model(batch).sum().item<double>();
  model->train();
  return total;
}
// CHECK-FIXES: {{^}}                             std::vector<torch::Tensor> &batches) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}

// Called on every step: part of the step, not reported.
double validate_every_step(torch::nn::Linear &model,
                           std::vector<torch::Tensor> &batches) {
  model->eval();
  double total = 0;
  for (auto &batch : batches)
    total += model(batch).sum().item<double>();
  model->train();
  return total;
}

void train(torch::nn::Linear &model, torch::optim::SGD &optimizer,
           std::vector<torch::Tensor> &batches,
           std::vector<torch::Tensor> &held_out) {
  for (auto &batch : batches) {
    optimizer.zero_grad();
    auto loss = model(batch).sum();
    loss.backward();
    optimizer.step();
    validate_every_step(model, held_out);
    EVERY_N_STEPS(validate_now_and_then(model, held_out));
  }
}
