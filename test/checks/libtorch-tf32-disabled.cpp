// RUN: %check_libtorch_tidy %s libtorch-tf32-disabled %t
// Without `main` in the translation unit, or with a function-try-block
// `main`, a note says where the call goes:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NOTE %s libtorch-tf32-disabled %t -- -- -DNO_MAIN
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NOTE %s libtorch-tf32-disabled %t -- -- -DTRY_MAIN
//
// Negatives (mock headers; each one silences the whole translation unit):
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-tf32-disabled %t -- -- -DSET_PRECISION
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-tf32-disabled %t -- -- -DSET_PRECISION_ENUM
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-tf32-disabled %t -- -- -DALLOW_TF32
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-tf32-disabled %t -- -- -DBF16_MODEL
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-tf32-disabled %t -- -- -DCPU_ONLY

#include <torch/torch.h>

void configure() {
#if defined(SET_PRECISION)
  at::globalContext().setFloat32MatmulPrecision("medium");
#elif defined(SET_PRECISION_ENUM)
  at::globalContext().setFloat32MatmulPrecision(at::Float32MatmulPrecision::HIGHEST);
#elif defined(ALLOW_TF32)
  at::globalContext().setAllowTF32CuBLAS(false);
#endif
}

void train(torch::nn::Linear &model, torch::optim::Adam &optimizer,
           const torch::Tensor &x, const torch::Tensor &y,
           torch::Device device) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int step = 0; step < 100; ++step) {
      // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: float32 CUDA training without TF32: every matmul runs in full float32 precision and leaves the Tensor Cores of Ampere and newer GPUs idle; allow TF32 with 'setFloat32MatmulPrecision("high")' [libtorch-tf32-disabled]
      // CHECK-MESSAGES-NOTE: :[[@LINE-2]]:5: warning: float32 CUDA training without TF32
      // CHECK-MESSAGES-NOTE: :[[@LINE-3]]:5: note: call 'at::globalContext().setFloat32MatmulPrecision("high");' once at the start of 'main', before the model is built
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model(x.to(device)), y.to(device));
      loss.backward();
      optimizer.step();
    }
  }
}

#ifndef NO_MAIN
#ifdef TRY_MAIN
int main() try {
#else
int main() {
#endif
  // CHECK-FIXES: {{^}}int main() {{[{]$}}
  // CHECK-FIXES-NEXT: {{^}}  at::globalContext().setFloat32MatmulPrecision("high");{{$}}
  configure();
#ifdef CPU_ONLY
  torch::Device device(torch::kCPU);
#else
  torch::Device device(torch::kCUDA);
#endif
  torch::nn::Linear model(784, 10);
  model->to(device);
#ifdef BF16_MODEL
  model->to(torch::kBFloat16);
#endif
  torch::optim::Adam optimizer(model->parameters());
  train(model, optimizer, torch::randn({64, 784}), torch::randn({64, 10}),
        device);
  // Only the first CUDA training loop of the translation unit is reported.
  for (int step = 0; step < 10; ++step) {
    optimizer.zero_grad();
    model(torch::randn({64, 784}, device)).sum().backward();
    optimizer.step();
  }
  return 0;
}
#ifdef TRY_MAIN
catch (...) {
  return 1;
}
#endif
#endif
