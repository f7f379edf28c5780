// RUN: %check_libtorch_tidy %s libtorch-tensor-created-off-device %t

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#define ON_DEVICE(t, d) (t).to(d)

void setup(torch::Device device, torch::Tensor host, std::vector<float> &raw) {
  auto noise = torch::randn({32, 10}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'torch::randn' makes the tensor in host memory and '.to(device)' copies it to the GPU; pass the device to 'torch::randn' to create it there [libtorch-tensor-created-off-device]
  // CHECK-FIXES: {{^}}  auto noise = torch::randn({32, 10}, device);{{$}}
  auto zeros = torch::zeros({4}, torch::kFloat).to(device, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: 'torch::zeros' makes the tensor in host memory and '.to(device)' copies it
  // CHECK-FIXES: {{^}}  auto zeros = torch::zeros({4}, torch::TensorOptions(torch::kFloat).device(device));{{$}}
  auto ones = torch::ones({4}, torch::TensorOptions().dtype(torch::kFloat)).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:77: warning: 'torch::ones' makes the tensor in host memory and '.cuda()' copies it
  // CHECK-FIXES: {{^}}  auto ones = torch::ones({4}, torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA));{{$}}
  auto steps = torch::arange(10).to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'torch::arange' makes the tensor in host memory and '.to(torch::kCUDA)' copies it
  // CHECK-FIXES: {{^}}  auto steps = torch::arange(10, torch::kCUDA);{{$}}
  auto labels = torch::randint(10, {32}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'torch::randint' makes
  // CHECK-FIXES: {{^}}  auto labels = torch::randint(10, {32}, device);{{$}}
  auto filled = torch::full({2, 2}, 0.5).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'torch::full' makes
  // CHECK-FIXES: {{^}}  auto filled = torch::full({2, 2}, 0.5, device);{{$}}
  auto identity = at::eye(3).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'at::eye' makes
  // CHECK-FIXES: {{^}}  auto identity = at::eye(3, device);{{$}}
  auto grid = torch::linspace(0, 1, 5).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'torch::linspace' makes
  // CHECK-FIXES: {{^}}  auto grid = torch::linspace(0, 1, 5, device);{{$}}
  auto cpu_copy = host.cpu();
  auto like = torch::zeros_like(cpu_copy).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'torch::zeros_like' makes
  // CHECK-FIXES: {{^}}  auto like = torch::zeros_like(cpu_copy, device);{{$}}
  const std::vector<int64_t> shape = {2, 3};
  auto shaped = torch::rand(shape).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'torch::rand' makes
  // CHECK-FIXES: {{^}}  auto shaped = torch::rand(shape, device);{{$}}

  // A dtype change in the same copy, a leaf with requires_grad, an
  // explicit CPU device: the same finding, a note instead of a fix-it.
  auto half = torch::randn({4}).to(device, torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'torch::randn' makes
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: pass the device in the factory's TensorOptions, e.g. 'torch::randn(..., torch::TensorOptions().device(device))', and drop the copy
  auto weight = torch::randn({4}, torch::TensorOptions().requires_grad(true)).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:79: warning: 'torch::randn' makes
  // CHECK-MESSAGES: :[[@LINE-2]]:17: note: pass the device
  auto explicit_cpu = torch::ones({4}, torch::kCPU).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: 'torch::ones' makes
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: pass the device

  // Negatives.
  auto made_there = torch::randn({32, 10}, device);
  auto options = torch::zeros({4}, torch::TensorOptions().device(device));
  auto already = torch::zeros({4}, device).to(device);
  auto blob = torch::from_blob(raw.data(), {2}).to(device);
  auto values = torch::tensor({1.0f, 2.0f}).to(device);
  auto back = torch::zeros({4}).to(torch::kCPU);
  auto converted = torch::zeros({4}).to(torch::kHalf);
  auto like_device = torch::zeros_like(host).to(device);
  // Written in a macro: the macro may serve other call sites.
  auto in_macro = ON_DEVICE(torch::ones({2}), device);
  auto later = torch::zeros({4});
  later = later.to(device);
}
