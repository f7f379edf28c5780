// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-empty-cache-in-loop %t -- \
// RUN:   '--config={CheckOptions: {libtorch-empty-cache-in-loop.PeriodicGuardMacros: "EVERY_N_STEPS"}}' -- -I%S/Inputs

// PeriodicGuardMacros reaches this check: a call inside a guard macro whose
// condition we cannot read does not run on every step.

#include <torch/torch.h>

#include "every-n-steps.h"

namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {
void emptyCache();
} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace c10

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor data, int steps) {
  for (int step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    auto loss = model(data).sum();
    loss.backward();
    optimizer.step();
    c10::cuda::CUDACachingAllocator::emptyCache();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'emptyCache()' on every training step
    EVERY_N_STEPS(c10::cuda::CUDACachingAllocator::emptyCache());
  }
}
