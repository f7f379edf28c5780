// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-zero-grad-set-to-none %t -- \
// RUN:   '--config={CheckOptions: {PeriodicGuardMacros: "EVERY_N_STEPS"}}' -- -I%S/Inputs

// PeriodicGuardMacros, set globally, reaches this check: a helper called
// only inside a guard macro whose condition we cannot read does not run on
// every step.

#include <torch/torch.h>

#include "every-n-steps.h"

void clear_every_step(torch::nn::Linear &model) { model->zero_grad(); }
// CHECK-MESSAGES: :[[@LINE-1]]:58: warning: 'Module::zero_grad()' writes zeros into every gradient on each step
// CHECK-FIXES: {{^}}void clear_every_step(torch::nn::Linear &model) { model->zero_grad(/*set_to_none=*/true); }{{$}}
void clear_now_and_then(torch::nn::Linear &model) { model->zero_grad(); }

void train(torch::nn::Linear &model, torch::optim::SGD &optimizer,
           const torch::Tensor &x) {
  torch::Device device(torch::kCUDA);
  model->to(device);
  for (int step = 0; step < 100; ++step) {
    clear_every_step(model);
    EVERY_N_STEPS(clear_now_and_then(model));
    auto loss = model(x.to(device)).sum();
    loss.backward();
    optimizer.step();
  }
}
