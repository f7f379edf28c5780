// RUN: %check_libtorch_tidy %s libtorch-zero-grad-set-to-none %t

// LibTorch 1.13 (the real headers and the default mock): Optimizer::zero_grad()
// always writes zeros; Module::zero_grad defaults to set_to_none = false.
// LibTorch 2.15 (real2): both default to set_to_none = true, so only an
// explicit `false` is flagged, and its fix drops it. The 2.x mock is tested
// in libtorch-zero-grad-set-to-none-v2.cpp.

#include <torch/torch.h>

#define ZERO_GRAD(m) m->zero_grad()

void train(torch::nn::Linear &model, torch::optim::SGD &optimizer,
           const torch::Tensor &x, bool reset) {
  torch::Device device(torch::kCUDA);
  model->to(device);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    // CHECK-MESSAGES-TORCH1: :[[@LINE-1]]:15: warning: 'Optimizer::zero_grad()' writes zeros into every gradient on each step (LibTorch 1.x cannot reset them here); resetting them skips that memory pass and lets backward write fresh gradients [libtorch-zero-grad-set-to-none]
    // CHECK-MESSAGES-TORCH1: :[[@LINE-2]]:15: note: reset them instead: 'for (auto &group : optimizer.param_groups()) for (auto &p : group.params()) p.mutable_grad().reset();', or 'model->zero_grad(/*set_to_none=*/true);' on the module the optimizer trains; LibTorch 2.x resets by default
    // CHECK-FIXES: {{^}}    optimizer.zero_grad();{{$}}
    model->zero_grad();
    // CHECK-MESSAGES-TORCH1: :[[@LINE-1]]:12: warning: 'Module::zero_grad()' writes zeros into every gradient on each step; 'set_to_none' resets them instead, skipping that memory pass [libtorch-zero-grad-set-to-none]
    // CHECK-FIXES-TORCH1: {{^}}    model->zero_grad(/*set_to_none=*/true);{{$}}
    // CHECK-FIXES-TORCH2: {{^}}    model->zero_grad();{{$}}
    model->zero_grad(false);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'Module::zero_grad(false)' writes zeros into every gradient on each step; 'set_to_none' resets them instead, skipping that memory pass [libtorch-zero-grad-set-to-none]
    // CHECK-FIXES-TORCH1: {{^}}    model->zero_grad(/*set_to_none=*/true);{{$}}
    // CHECK-FIXES-TORCH2: {{^}}    model->zero_grad();{{$}}
    ZERO_GRAD(model);
    // CHECK-MESSAGES-TORCH1: :[[@LINE-1]]:5: warning: 'Module::zero_grad()' writes zeros into every gradient on each step
    // CHECK-MESSAGES-TORCH1: :[[@LINE-2]]:5: note: call 'zero_grad(/*set_to_none=*/true)'
    // CHECK-FIXES: {{^}}    ZERO_GRAD(model);{{$}}

    // Not flagged: already resetting, or the caller decides.
    model->zero_grad(true);
    model->zero_grad(/*set_to_none=*/true);
    model->zero_grad(reset);

    auto loss = model(x.to(device)).sum();
    loss.backward();
    optimizer.step();
  }
}

// Not flagged: outside training, zeroing once costs nothing.
void setup(torch::nn::Linear &model) { model->zero_grad(); }
