// RUN: %check_libtorch_tidy --mock-version 2 --variants plugin-mock,cli-mock %s libtorch-zero-grad-set-to-none %t

// LibTorch 2.x (mock): both zero_grad overloads default to set_to_none =
// true, so only an explicit `false` is flagged, and the fix drops it.

#include <torch/torch.h>

#define ZERO_GRAD_KEEP(o) o.zero_grad(false)

void train(torch::nn::Linear &model, torch::optim::SGD &optimizer,
           const torch::Tensor &x, bool reset) {
  torch::Device device(torch::kCUDA);
  model->to(device);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad(false);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'Optimizer::zero_grad(false)' writes zeros into every gradient on each step; 'set_to_none' resets them instead, skipping that memory pass [libtorch-zero-grad-set-to-none]
    // CHECK-FIXES: {{^}}    optimizer.zero_grad();{{$}}
    model->zero_grad(false);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'Module::zero_grad(false)' writes zeros
    // CHECK-FIXES: {{^}}    model->zero_grad();{{$}}
    ZERO_GRAD_KEEP(optimizer);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Optimizer::zero_grad(false)' writes zeros
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: call 'zero_grad()': this LibTorch resets by default

    // Not flagged: the 2.x defaults reset.
    optimizer.zero_grad();
    model->zero_grad();
    optimizer.zero_grad(true);
    optimizer.zero_grad(reset);

    auto loss = model(x.to(device)).sum();
    loss.backward();
    optimizer.step();
  }
}
