// A tensor's pointer waits for nothing: handed to a kernel, a collective or
// a copy engine it is how a CUDA tensor is meant to be used. Only a read
// through it on the host needs the values there.
// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop %t

#include <torch/torch.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

// Device-side consumers of a raw pointer, as a CUDA extension or a
// communication library declares them.
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
extern "C" cudaError_t cudaMemcpyAsync(void *dst, const void *src,
                                       unsigned long count, int kind,
                                       cudaStream_t stream);
void launch_scale(float *data, int64_t n, float factor);
void all_reduce_sum(void *buffer, int64_t count);

void consume(float value);

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor x, torch::Device device, cudaStream_t stream) {
  std::vector<float> history;
  float staging[64];
  for (int step = 0; step < 100; ++step) {
    auto out = model(x.to(device));
    auto loss = out.sum();
    loss.backward();
    optimizer.step();

    // Reads through the pointer on the host: the values must be there.
    consume(*loss.data_ptr<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'data_ptr<float>()' reads tensor memory on the host
    consume(out.data_ptr<float>()[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'data_ptr<float>()' reads tensor memory on the host
    const float *first = out.data_ptr<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'data_ptr<float>()' reads tensor memory on the host
    consume(first[1]);
    const float *begin = out.data_ptr<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'data_ptr<float>()' reads tensor memory on the host
    std::vector<float> values(begin, begin + out.numel());
    std::memcpy(staging, out.data_ptr<float>(), 4 * sizeof(float));
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'data_ptr<float>()' reads tensor memory on the host
    float *raw = loss.data_ptr<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'data_ptr<float>()' reads tensor memory on the host
    history.push_back(std::accumulate(raw, raw + 1, 0.0f));

    // Handed to the device: nothing waits.
    launch_scale(out.data_ptr<float>(), out.numel(), 0.5f);
    all_reduce_sum(loss.data_ptr(), loss.numel());
    float *grads = out.data_ptr<float>();
    launch_scale(grads, out.numel(), 2.0f);
    cudaMemcpyAsync(out.data_ptr<float>(), x.data_ptr<float>(),
                    sizeof(float) * 4, 3, stream);
    // Wraps device memory without reading it.
    auto alias = torch::from_blob(out.data_ptr<float>(), {out.numel()},
                                  out.options());
    // Writes through the pointer need no value from the device.
    std::memcpy(loss.data_ptr<float>(), staging, sizeof(float));
    float *target = out.data_ptr<float>();
    target[0] = 1.0f;
    (void)values, (void)alias;
  }
}
