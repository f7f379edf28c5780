// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-blocking-host-to-device-copy %t -- \
// RUN:   '--config={CheckOptions: {PeriodicGuardMacros: "EVERY_N_STEPS"}}' -- -I%S/Inputs

// PeriodicGuardMacros, set globally, reaches this check: a copy inside a
// guard macro whose condition we cannot read does not run on every step.

#include <torch/torch.h>

#include "every-n-steps.h"

namespace myproj {
void probe(const torch::Tensor &t);
} // namespace myproj

void train(std::vector<torch::Tensor> &batches, torch::Device device,
           torch::nn::Linear model, torch::optim::SGD &optimizer) {
  model->to(device);
  for (auto &batch : batches) {
    auto data = batch.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-MESSAGES: :[[@LINE-2]]:23: note: the copy overlaps with GPU work only from pinned memory
    // CHECK-FIXES: {{^}}    auto data = batch.to(device, /*non_blocking=*/true);{{$}}
    EVERY_N_STEPS(myproj::probe(batch.to(device)));
    optimizer.zero_grad();
    auto loss = model(data).sum();
    loss.backward();
    optimizer.step();
  }
}
