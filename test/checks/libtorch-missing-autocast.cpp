// RUN: %check_libtorch_tidy %s libtorch-missing-autocast %t
// RUN: %check_libtorch_tidy --mock-version 2 --variants plugin-mock,cli-mock --check-suffix=V2 %s libtorch-missing-autocast %t
//
// Negatives (mock headers; each one silences the whole translation unit):
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-missing-autocast %t -- -- -DAUTOCAST_1X
// RUN: %check_libtorch_tidy --mock-version 2 --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-missing-autocast %t -- -- -DAUTOCAST_2X
// The device-generic spelling on real LibTorch 2.15 (1.13 has none):
// RUN: %check_libtorch_tidy --variants cli-real2 --check-suffix=NONE %s libtorch-missing-autocast %t -- -- -DAUTOCAST_2X
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-missing-autocast %t -- -- -DBF16_MODEL
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-missing-autocast %t -- -- -DHALF_OPTIONS
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-missing-autocast %t -- -- -DCPU_ONLY

#include <torch/torch.h>
#if defined(AUTOCAST_1X) || defined(AUTOCAST_2X)
#include <ATen/autocast_mode.h>
#endif

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(784, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

void train(Net &model, torch::optim::SGD &optimizer, const torch::Tensor &x,
           const torch::Tensor &y, torch::Device device) {
  // The epoch loop is not reported, the step loop inside it is.
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int step = 0; step < 100; ++step) {
      // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: CUDA training loop without mixed precision: float32 matmuls and convolutions leave the GPU's Tensor Cores idle; run the forward pass under bfloat16 autocast [libtorch-missing-autocast]
      // CHECK-MESSAGES-TORCH1: :[[@LINE-2]]:5: note: include <ATen/autocast_mode.h> and run the forward pass and the loss under bfloat16 autocast: 'at::autocast::set_autocast_gpu_dtype(at::kBFloat16); at::autocast::set_enabled(true); auto loss = ...; at::autocast::clear_cache(); at::autocast::set_enabled(false); loss.backward();' (LibTorch has no C++ GradScaler: float16 would need manual loss scaling)
      // CHECK-MESSAGES-TORCH2: :[[@LINE-3]]:5: note: include <ATen/autocast_mode.h> and run the forward pass and the loss under bfloat16 autocast: 'at::autocast::set_autocast_dtype(at::kCUDA, at::kBFloat16); at::autocast::set_autocast_enabled(at::kCUDA, true); auto loss = ...; at::autocast::clear_cache(); at::autocast::set_autocast_enabled(at::kCUDA, false); loss.backward();' (LibTorch has no C++ GradScaler: float16 would need manual loss scaling)
      // CHECK-MESSAGES-V2: :[[@LINE-4]]:5: warning: CUDA training loop without mixed precision
      // CHECK-MESSAGES-V2: :[[@LINE-5]]:5: note: include <ATen/autocast_mode.h> and run the forward pass and the loss under bfloat16 autocast: 'at::autocast::set_autocast_dtype(at::kCUDA, at::kBFloat16); at::autocast::set_autocast_enabled(at::kCUDA, true); auto loss = ...; at::autocast::clear_cache(); at::autocast::set_autocast_enabled(at::kCUDA, false); loss.backward();'
      optimizer.zero_grad();
#if defined(AUTOCAST_1X)
      at::autocast::set_enabled(true);
#elif defined(AUTOCAST_2X)
      at::autocast::set_autocast_enabled(at::kCUDA, true);
#endif
      auto loss = torch::mse_loss(model.forward(x.to(device)), y.to(device));
      loss.backward();
      optimizer.step();
    }
  }
}

// Not reported: evaluation, no backward pass.
void evaluate(Net &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 10; ++i)
    model.forward(x);
}

int main() {
#ifdef CPU_ONLY
  torch::Device device(torch::kCPU);
#else
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
#endif
  Net model;
  model.to(device);
#ifdef BF16_MODEL
  model.to(torch::kBFloat16);
#endif
  torch::optim::SGD optimizer(model.parameters(), 0.01);
#ifdef HALF_OPTIONS
  auto x = torch::randn({64, 784},
                        torch::TensorOptions().dtype(torch::kHalf).device(device));
#else
  auto x = torch::randn({64, 784});
#endif
  auto y = torch::randn({64, 10});
  train(model, optimizer, x, y, device);
  evaluate(model, x);

  // Each training loop is reported once.
  while (true) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: CUDA training loop without mixed precision
    // CHECK-MESSAGES: :[[@LINE-2]]:3: note: include <ATen/autocast_mode.h>
    // CHECK-MESSAGES-V2: :[[@LINE-3]]:3: warning: CUDA training loop without mixed precision
    // CHECK-MESSAGES-V2: :[[@LINE-4]]:3: note: include <ATen/autocast_mode.h>
    optimizer.zero_grad();
    auto loss = model.forward(x.to(device)).sum();
    loss.backward();
    optimizer.step();
    if (loss.item<float>() < 0.1)
      break;
  }
}
