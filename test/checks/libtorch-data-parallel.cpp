// RUN: %check_libtorch_tidy %s libtorch-data-parallel %t

#include <torch/torch.h>

// Debian's CPU-only LibTorch ships torch/nn/parallel/data_parallel.h, but it
// cannot be included without the generated CUDA headers: declare the real
// signature (LibTorch 1.13.1) there.
#ifdef LIBTORCH_MOCK
#include <torch/nn/parallel/data_parallel.h>
#else
namespace torch {
namespace nn {
namespace parallel {
template <typename ModuleType>
Tensor data_parallel(ModuleType module, Tensor input,
                     optional<std::vector<Device>> devices = nullopt,
                     optional<Device> output_device = nullopt,
                     int64_t dim = 0);
} // namespace parallel
} // namespace nn
} // namespace torch
#endif

using torch::nn::parallel::data_parallel;

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           const torch::Tensor &x, const torch::Tensor &y) {
  for (int step = 0; step < 1000; ++step) {
    optimizer.zero_grad();
    auto out = torch::nn::parallel::data_parallel(model, x);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'data_parallel' on every training step copies the module's parameters and buffers to every GPU on each call, then gathers the outputs and reduces the gradients onto one device; keep one model replica per GPU for the whole run instead [libtorch-data-parallel]
    // CHECK-MESSAGES: :[[@LINE-2]]:16: note: run one process per GPU, each with its own model and data shard, and all-reduce the gradients after backward with a c10d process group (ProcessGroupNCCL); or train on one GPU with a larger batch
    auto loss = torch::mse_loss(out, y);
    loss.backward();
    optimizer.step();
    // Not flagged: every 100 steps only.
    if (step % 100 == 0)
      data_parallel(model, x);
  }
}

// Reached once per step from the loop below.
torch::Tensor forward_step(torch::nn::Linear model, const torch::Tensor &x) {
  return data_parallel(model, x, std::vector<torch::Device>{torch::kCUDA});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data_parallel' on every training step
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: run one process per GPU
}

void train_with_helper(torch::nn::Linear model, torch::optim::SGD &optimizer,
                       const torch::Tensor &x) {
  for (int step = 0; step < 1000; ++step) {
    optimizer.zero_grad();
    forward_step(model, x).sum().backward();
    optimizer.step();
  }
}

// Not flagged: outside any loop, and in an evaluation loop.
torch::Tensor evaluate(torch::nn::Linear model, const torch::Tensor &x) {
  auto once = data_parallel(model, x);
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 10; ++i)
    once += data_parallel(model, x);
  return once;
}
