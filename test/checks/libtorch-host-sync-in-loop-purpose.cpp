// Waits that are what the evaluation code is for: a per-batch latency
// measurement, and an early exit decided on the host.
// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop %t

#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <vector>

// Negative: the sync makes the clock measure the batch, not the launch.
std::vector<double> latencies(torch::nn::Linear model,
                              const std::vector<torch::Tensor> &batches,
                              torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  std::vector<double> ms;
  for (const auto &batch : batches) {
    auto start = std::chrono::steady_clock::now();
    auto out = model(batch.to(device));
    torch::cuda::synchronize();
    auto end = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  return ms;
}

// A sync with no clock after it still waits for nothing.
void no_clock(torch::nn::Linear model, const std::vector<torch::Tensor> &batches,
              torch::Device device) {
  torch::NoGradGuard no_grad;
  for (const auto &batch : batches) {
    auto out = model(batch.to(device));
    torch::cuda::synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'torch::cuda::synchronize()' blocks the host until the GPU finishes, on every evaluation batch [libtorch-host-sync-in-loop]
  }
}

// Negative: greedy decoding of one sequence stops at the end token.
std::vector<int64_t> decode(torch::nn::Linear model, torch::Tensor state,
                            torch::Device device, int64_t eos) {
  torch::NoGradGuard no_grad;
  std::vector<int64_t> tokens;
  for (int t = 0; t < 64; ++t) {
    auto logits = model(state.to(device));
    auto next = logits.argmax(-1);
    if (next.item<int64_t>() == eos)
      break;
    tokens.push_back(t);
    state = logits;
  }
  return tokens;
}

// Negative: the same with a block that returns.
bool converges(torch::nn::Linear model, torch::Tensor x, torch::Device device) {
  torch::NoGradGuard no_grad;
  for (int t = 0; t < 64; ++t) {
    auto y = model(x.to(device));
    if (y.abs().max().item<float>() < 1e-3) {
      return true;
    }
    x = y;
  }
  return false;
}

// A branch that does not leave the loop still waits on every batch.
int count_confident(torch::nn::Linear model, torch::Tensor x,
                    torch::Device device) {
  torch::NoGradGuard no_grad;
  int confident = 0;
  for (int t = 0; t < 64; ++t) {
    auto y = model(x.to(device));
    if (y.max().item<float>() > 0.9)
      // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: branching on 'item<float>()' copies the value to the host and waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
      ++confident;
  }
  return confident;
}

// An early exit in a training loop is still a wait on every step.
void train_until(torch::nn::Linear model, torch::optim::SGD &optimizer,
                 torch::Tensor x, torch::Device device) {
  for (int step = 0; step < 1000; ++step) {
    optimizer.zero_grad();
    auto loss = model(x.to(device)).pow(2).mean();
    loss.backward();
    optimizer.step();
    if (loss.item<float>() < 1e-4)
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: branching on 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
      break;
  }
}
