// RUN: %check_libtorch_tidy %s libtorch-cpu-only-device %t
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix NOTE %s libtorch-cpu-only-device %t.note -- -- -DREADS_HOST_MEMORY

// A training program that can only ever run on the CPU.

#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device 'device' is hard-coded to the CPU and the program never asks whether CUDA is available: training can never use a GPU; choose it with 'torch::cuda::is_available()' [libtorch-cpu-only-device]
  // CHECK-FIXES: {{^}}  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);{{$}}
  // CHECK-MESSAGES-NOTE: :[[@LINE-3]]:17: warning: device 'device' is hard-coded to the CPU
  // CHECK-MESSAGES-NOTE: :[[@LINE-4]]:17: note: e.g. 'torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);', and move the model and every batch with '.to(device)'
  torch::nn::Linear model(4, 2);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  auto x = torch::randn({8, 4}).to(device);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    auto loss = model(x).sum();
    loss.backward();
    optimizer.step();
  }
#ifdef READS_HOST_MEMORY
  // Raw host pointers: a GPU device needs more than a new device.
  std::cout << x.data_ptr<float>()[0] << '\n';
  torch::nn::Linear head(2, 2);
  head->to(torch::kCPU);
  // CHECK-MESSAGES-NOTE: :[[@LINE-1]]:12: warning: the model is placed on the CPU and the program never asks whether CUDA is available: training can never use a GPU; choose the device with 'torch::cuda::is_available()'
  // CHECK-MESSAGES-NOTE: :[[@LINE-2]]:12: note: e.g. 'torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);', then move the model and every batch with '.to(device)'
#endif
}
