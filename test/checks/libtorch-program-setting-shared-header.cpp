// The program-wide settings of libtorch-tf32-disabled and
// libtorch-cudnn-benchmark go into the `main` of the program that runs the
// training loop. The loop is in a header included by a trainer (its `main`
// calls the loop: the settings are inserted there) and by an inference
// program (its `main` never trains: a note, no edit).
//
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-tf32-disabled,libtorch-cudnn-benchmark %t -- --header-filter=shared-training-loop -- -I%S/Inputs
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=INFER %s libtorch-tf32-disabled,libtorch-cudnn-benchmark %t -- --header-filter=shared-training-loop -- -I%S/Inputs -DINFERENCE
//
// CHECK-MESSAGES: shared-training-loop.h:22:3: warning: CUDA training of a convolutional model without the cuDNN autotuner: {{.*}} [libtorch-cudnn-benchmark]
// CHECK-MESSAGES: shared-training-loop.h:22:3: warning: float32 CUDA training without TF32: {{.*}} [libtorch-tf32-disabled]
//
// CHECK-MESSAGES-INFER: shared-training-loop.h:22:3: warning: CUDA training of a convolutional model without the cuDNN autotuner: {{.*}} [libtorch-cudnn-benchmark]
// CHECK-MESSAGES-INFER: shared-training-loop.h:22:3: note: 'main' in this file does not run this training loop: call 'at::globalContext().setBenchmarkCuDNN(true);' once at the start of the 'main' of the program that trains with it
// CHECK-MESSAGES-INFER: shared-training-loop.h:22:3: warning: float32 CUDA training without TF32: {{.*}} [libtorch-tf32-disabled]
// CHECK-MESSAGES-INFER: shared-training-loop.h:22:3: note: 'main' in this file does not run this training loop: call 'at::globalContext().setFloat32MatmulPrecision("high");' once at the start of the 'main' of the program that trains with it

#include <torch/torch.h>

#include "shared-training-loop.h"

#include <iostream>

// The trainer's main gets both settings; the inference program's is left
// as it is.
// CHECK-FIXES: {{^}}int main() {{[{]$}}
// CHECK-FIXES-NEXT: {{^}}  at::globalContext().setFloat32MatmulPrecision("high");{{$}}
// CHECK-FIXES-NEXT: {{^}}  at::globalContext().setBenchmarkCuDNN(true);{{$}}
// CHECK-FIXES-NEXT: {{^}}  const torch::Device device(torch::kCUDA);{{$}}
// CHECK-FIXES-INFER: {{^}}int main() {{[{]$}}
// CHECK-FIXES-INFER-NEXT: {{^}}  const torch::Device device(torch::kCUDA);{{$}}
#ifndef INFERENCE
int main() {
  const torch::Device device(torch::kCUDA);
  TinyConv net;
  net->to(device);
  torch::optim::SGD optimizer(net->parameters(), 0.1);
  train_steps(net, optimizer, torch::randn({8, 3, 16, 16}),
              torch::randint(2, {8}), device);
  torch::save(net, "tiny.pt");
}
#else
int main() {
  const torch::Device device(torch::kCUDA);
  TinyConv net;
  torch::load(net, "tiny.pt");
  net->to(device);
  net->eval();
  std::cout << predict(net, torch::randn({8, 3, 16, 16}), device) << '\n';
}
#endif
