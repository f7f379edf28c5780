// RUN: %check_libtorch_tidy %s libtorch-empty-cache-in-loop %t

#include <torch/torch.h>

// Debian's CPU-only LibTorch does not ship the generated CUDA headers:
// declare the real signature (c10/cuda/CUDACachingAllocator.h) here.
namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {
void emptyCache();
} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace c10

#define TRIM_CACHE() c10::cuda::CUDACachingAllocator::emptyCache()

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor data, int steps, bool low_memory) {
  for (int step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    auto loss = model(data).sum();
    loss.backward();
    optimizer.step();
    c10::cuda::CUDACachingAllocator::emptyCache();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'emptyCache()' on every training step returns the cached GPU memory to the driver, so the next step allocates it again with cudaMalloc, which synchronizes; remove it [libtorch-empty-cache-in-loop]
    // CHECK-FIXES: {{^}}    optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    //{{$}}
    if (steps > 1000)
      c10::cuda::CUDACachingAllocator::emptyCache();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'emptyCache()' on every training step
    // CHECK-FIXES: {{^}}      {}{{$}}
    // Periodic trimming is how the cache is meant to be managed.
    if (step % 100 == 0)
      c10::cuda::CUDACachingAllocator::emptyCache();
    if (low_memory)
      c10::cuda::CUDACachingAllocator::emptyCache();
  }
  // Once after training: fine.
  c10::cuda::CUDACachingAllocator::emptyCache();
}

// Called once per step: the call runs every step.
void cleanup() {
  using namespace c10::cuda;
  CUDACachingAllocator::emptyCache();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'emptyCache()' on every training step
  // CHECK-FIXES: {{^}}  using namespace c10::cuda;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  //{{$}}
}

// Never called from a training step.
void release_memory() { c10::cuda::CUDACachingAllocator::emptyCache(); }

void train_with_helper(torch::nn::Linear model, torch::optim::Adam &optimizer,
                       torch::Tensor data, int epochs, int steps) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int step = 0; step < steps; ++step) {
      optimizer.zero_grad();
      model(data).sum().backward();
      optimizer.step();
      cleanup();
      TRIM_CACHE();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'emptyCache()' on every training step
      // CHECK-FIXES: {{^}}      TRIM_CACHE();{{$}}
    }
    // Once per epoch: fine.
    c10::cuda::CUDACachingAllocator::emptyCache();
  }
  release_memory();
}

// Evaluation code and programs without training: not this check's business.
void evaluate(torch::nn::Linear model, torch::Tensor data) {
  for (int i = 0; i < 10; ++i) {
    torch::NoGradGuard no_grad;
    model(data);
    c10::cuda::CUDACachingAllocator::emptyCache();
  }
}
