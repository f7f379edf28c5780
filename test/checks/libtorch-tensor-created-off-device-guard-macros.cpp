// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-tensor-created-off-device %t -- \
// RUN:   '--config={CheckOptions: {PeriodicGuardMacros: "EVERY_N_STEPS"}}' -- -I%S/Inputs

// PeriodicGuardMacros, set globally, reaches this check: a tensor made in
// a helper called inside a guard macro whose condition we cannot read is
// not made on every step.

#include <torch/torch.h>

#include "every-n-steps.h"

namespace myproj {
void show(const torch::Tensor &t);
} // namespace myproj

// Called only under the guard macro: not on every step.
void sample(torch::Device device) {
  auto extra = torch::randn({4, 10}).to(device);
  myproj::show(extra);
}

void train(torch::Device device, torch::nn::Linear model,
           torch::optim::SGD &optimizer) {
  for (int step = 0; step < 100; ++step) {
    auto noise = torch::randn({32, 10}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'torch::randn' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step
    // CHECK-FIXES: {{^}}    auto noise = torch::randn({32, 10}, device);{{$}}
    EVERY_N_STEPS(sample(device));
    optimizer.zero_grad();
    auto loss = model(noise).sum();
    loss.backward();
    optimizer.step();
  }
}
