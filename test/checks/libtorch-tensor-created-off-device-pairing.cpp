// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-tensor-created-off-device,libtorch-blocking-host-to-device-copy %t
//
// libtorch-blocking-host-to-device-copy leaves `factory(...).to(device)` to
// libtorch-tensor-created-off-device. Run together: on every step the
// factory-then-copy is reported once, by tensor-created-off-device; where
// it runs once, neither reports it.

#include <torch/torch.h>

#include <cstdint>

struct Model : torch::nn::Module {
  explicit Model(torch::Device device)
      : scale_(torch::ones({4}).to(device)), fc_(torch::nn::Linear(4, 2)) {
    register_module("fc", fc_);
  }
  torch::Tensor forward(torch::Tensor x) { return fc_(x * scale_); }
  torch::Tensor scale_;
  torch::nn::Linear fc_{nullptr};
};

torch::Tensor step_noise(torch::Device device) {
  return torch::randn({8, 4}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'torch::randn' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step; pass the device to 'torch::randn' to create it there [libtorch-tensor-created-off-device]
  // CHECK-MESSAGES: :[[@LINE+18]]:20: note: called here on every training step
  // CHECK-FIXES: {{^}}  return torch::randn({8, 4}, device);{{$}}
}

void train(torch::Device device, torch::optim::SGD &optimizer,
           const torch::Tensor &x, const torch::Tensor &y) {
  Model model(device);
  auto fixed = torch::zeros({8, 4}).to(device);
  for (int epoch = 0; epoch < 3; ++epoch) {
    auto per_epoch = torch::rand({4}).to(device);
    for (int step = 0; step < 100; ++step) {
      auto input = x.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'to(device)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
      // CHECK-MESSAGES: :[[@LINE-2]]:22: note: the copy overlaps with GPU work only from pinned memory
      // CHECK-FIXES: {{^}}      auto input = x.to(device, /*non_blocking=*/true);{{$}}
      auto labels = torch::randint(2, {8}).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'torch::randint' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step
      // CHECK-FIXES: {{^}}      auto labels = torch::randint(2, {8}, device);{{$}}
      auto noise = step_noise(device);
      optimizer.zero_grad();
      torch::nll_loss(model.forward(input + noise + fixed + per_epoch), labels)
          .backward();
      optimizer.step();
    }
  }
  auto after = torch::ones({8, 4}).to(device);
  model.forward(after);
}
