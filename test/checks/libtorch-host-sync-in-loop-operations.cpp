// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop %t

// Every operation of the check's list, once each, in one step loop.

#include <torch/torch.h>

#include <iostream>

// CUDA-only APIs: Debian's CPU-only LibTorch has no c10/cuda headers and no
// CUDA runtime, so declare their real signatures here.
namespace c10 {
namespace cuda {
void device_synchronize();
} // namespace cuda
} // namespace c10
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
extern "C" cudaError_t cudaDeviceSynchronize();
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream);

void step(torch::nn::Linear model, torch::optim::SGD &optimizer,
          torch::Tensor x, torch::Tensor mask, torch::Device device,
          cudaStream_t stream) {
  for (int i = 0; i < 10; ++i) {
    auto out = model(x.to(device));
    auto loss = out.sum();
    loss.backward();
    optimizer.step();

    auto scalar = loss.item();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    auto host = out.to(torch::Device("cpu"));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'to(torch::Device("cpu"))' copies the tensor to the host
    at::print(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: printing a tensor copies it to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    c10::cuda::device_synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10::cuda::device_synchronize()' blocks the host until the GPU finishes, on every training step
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize()' blocks the host
    cudaStreamSynchronize(stream);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize()' blocks the host
    auto picked = out.masked_select(mask);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'masked_select()' has a data-dependent output size
    auto runs = torch::unique_consecutive(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'at::unique_consecutive()' has a data-dependent output size
    auto where = torch::nonzero(mask);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'at::nonzero()' has a data-dependent output size
    bool any = mask.is_nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'is_nonzero()' returns a host bool: it copies and waits for the GPU on every training step
    bool same = out.equal(host);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'equal()' returns a host bool
    bool close = out.allclose(host);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'allclose()' returns a host bool
    float *raw = out.data_ptr<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'data_ptr<float>()' reads tensor memory on the host
    float firstRaw = raw[0];
    auto view = out.accessor<float, 2>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'accessor<float, 2>()' reads tensor memory on the host
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'torch::nn::utils::clip_grad_norm_()' reads the total gradient norm back to the host (it returns a double) and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: clip on the device: compute the total norm as a tensor and scale each gradient by '(max_norm / (total_norm + 1e-6)).clamp_max(1.0)'
    // Clipping by value reads nothing back.
    torch::nn::utils::clip_grad_value_(model->parameters(), 1.0);
    while (loss.item<float>() > 10.0f)
      // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: branching on 'item<float>()' copies the value to the host
      loss = loss / 2;

    // On the host copy nothing waits any more.
    auto hostValue = host.item<float>();
    float *hostRaw = host.data_ptr<float>();
    (void)scalar, (void)picked, (void)runs, (void)where, (void)any;
    (void)same, (void)close, (void)firstRaw, (void)view, (void)hostValue;
    (void)hostRaw;
  }
}
