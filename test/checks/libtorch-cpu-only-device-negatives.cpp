// The plugin on the real headers runs in libtorch-cpu-only-device.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-cpu-only-device %t.inference -- -- -DINFERENCE
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-cpu-only-device %t.argv -- -- -DFROM_ARGV
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-cpu-only-device %t.flag -- -- -DFROM_FLAG
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-cpu-only-device %t.env -- -- -DFROM_ENV
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-cpu-only-device %t.query -- -- -DQUERIES_CUDA
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-cpu-only-device %t.cuda -- -- -DUSES_CUDA
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-cpu-only-device %t.lib -- -- -DNO_MAIN
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-cpu-only-device %t.unused -- -- -DUNUSED_DEVICE

// Programs that hard-code nothing, or that mean the CPU: silent.

#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <string>

#ifdef NO_MAIN
#define MAIN train_entry
#else
#define MAIN main
#endif

int MAIN(int argc, char **argv) {
#if defined(FROM_ARGV)
  // The device comes from the command line: `train cuda:0`.
  torch::Device device(argc > 1 ? std::string(argv[1]) : std::string("cpu"));
#elif defined(FROM_FLAG)
  // A flag picks the device; the default is the CPU.
  const bool use_gpu = argc > 1 && std::string(argv[1]) == "--gpu";
  torch::Device device(use_gpu ? torch::kCUDA : torch::kCPU);
#elif defined(FROM_ENV)
  const char *name = std::getenv("TRAIN_DEVICE");
  torch::Device device(name ? std::string(name) : std::string("cpu"));
#elif defined(QUERIES_CUDA)
  torch::Device device(torch::kCPU);
  if (torch::cuda::device_count() > 1)
    std::cout << "several GPUs found; this run uses the CPU\n";
#elif defined(USES_CUDA)
  torch::Device device(torch::kCPU);
  torch::Device gpu(torch::kCUDA);
#else
  torch::Device device(torch::kCPU);
#endif
  torch::nn::Linear model(4, 2);
#ifndef UNUSED_DEVICE
  model->to(device);
#endif
  auto x = torch::randn({8, 4});
#ifdef INFERENCE
  // Inference on the CPU on purpose: no training loop.
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 10; ++i)
    std::cout << model(x).sum() << '\n';
#else
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    model(x).sum().backward();
    optimizer.step();
  }
#endif
  return 0;
}
