// RUN: %check_libtorch_tidy --variants plugin-real2,cli-real2 %s libtorch-empty-cache-in-loop,libtorch-host-sync-in-loop %t

// LibTorch's CUDA-only API as the CUDA build declares it (2.15: c10/cuda/,
// ATen/cuda/), which Debian's CPU-only 1.13 does not ship and the other
// check tests declare by hand. In 2.15, emptyCache takes a memory pool with
// a default argument (`emptyCache(MempoolId_t mempool_id = {0, 0})`), where
// 1.13 took none; the temporary that default argument makes wraps the call
// in cleanups, which the fix-it that removes the statement looks past.

#include <torch/torch.h>

#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor data, int steps) {
  torch::Device device(torch::kCUDA);
  model->to(device);
  data = data.to(device);
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  for (int step = 0; step < steps; ++step) {
    // Not reported: a stream guard switches the current stream, on the host.
    c10::cuda::CUDAStreamGuard guard(side);
    optimizer.zero_grad();
    auto loss = model(data).sum();
    loss.backward();
    optimizer.step();
    c10::cuda::CUDACachingAllocator::emptyCache();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'emptyCache()' on every training step returns the cached GPU memory to the driver, so the next step allocates it again with cudaMalloc, which synchronizes; remove it [libtorch-empty-cache-in-loop]
    // CHECK-FIXES: {{^}}    optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    //{{$}}
    c10::cuda::device_synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10::cuda::device_synchronize()' {{.*}} [libtorch-host-sync-in-loop]
    if (steps > 1000)
      c10::cuda::CUDACachingAllocator::emptyCache();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'emptyCache()' on every training step
    // CHECK-FIXES: {{^}}      {}{{$}}
    // Periodic trimming is how the cache is meant to be managed.
    if (step % 100 == 0)
      c10::cuda::CUDACachingAllocator::emptyCache();
  }
  // Once after training: fine.
  c10::cuda::CUDACachingAllocator::emptyCache();
}

// A CUDA graph captured once and replayed on every step: replay() launches
// the captured kernels without waiting for them; nothing to report.
void replay(at::cuda::CUDAGraph &graph, int steps) {
  for (int step = 0; step < steps; ++step)
    graph.replay();
}
