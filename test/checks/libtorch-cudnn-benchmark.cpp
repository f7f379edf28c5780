// RUN: %check_libtorch_tidy %s libtorch-cudnn-benchmark %t
// Without `main` in the translation unit a note says where the call goes:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NOTE %s libtorch-cudnn-benchmark %t -- -- -DNO_MAIN
//
// Negatives (mock headers; each one silences the whole translation unit):
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-cudnn-benchmark %t -- -- -DBENCHMARK_SET
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-cudnn-benchmark %t -- -- -DDETERMINISTIC
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-cudnn-benchmark %t -- -- -DNO_CONV
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock --check-suffix=NONE %s libtorch-cudnn-benchmark %t -- -- -DCPU_ONLY

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() {
#ifdef NO_CONV
    fc = register_module("fc", torch::nn::Linear(3 * 32 * 32, 10));
#else
    conv = register_module(
        "conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3)));
    fc = register_module("fc", torch::nn::Linear(16 * 30 * 30, 10));
#endif
  }
  torch::Tensor forward(torch::Tensor x) {
#ifndef NO_CONV
    x = torch::relu(conv(x));
#endif
    return fc(x.flatten(1));
  }
#ifndef NO_CONV
  torch::nn::Conv2d conv{nullptr};
#endif
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void train(Net &model, torch::optim::SGD &optimizer, torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: CUDA training of a convolutional model without the cuDNN autotuner: every convolution uses cuDNN's heuristic algorithm instead of the fastest one measured for its shapes; enable 'setBenchmarkCuDNN(true)' [libtorch-cudnn-benchmark]
    // CHECK-MESSAGES-NOTE: :[[@LINE-2]]:3: warning: CUDA training of a convolutional model without the cuDNN autotuner
    // CHECK-MESSAGES-NOTE: :[[@LINE-3]]:3: note: call 'at::globalContext().setBenchmarkCuDNN(true);' once at the start of 'main', before the model is built
    auto x = torch::randn({8, 3, 32, 32}, device);
    optimizer.zero_grad();
    auto loss = model(x).sum();
    loss.backward();
    optimizer.step();
  }
}

#ifndef NO_MAIN
int main(int argc, char **argv) {
  // CHECK-FIXES: {{^}}int main(int argc, char **argv) {{[{]$}}
  // CHECK-FIXES-NEXT: {{^}}  at::globalContext().setBenchmarkCuDNN(true);{{$}}
#if defined(BENCHMARK_SET)
  at::globalContext().setBenchmarkCuDNN(argc > 1);
#elif defined(DETERMINISTIC)
  at::globalContext().setDeterministicCuDNN(true);
#endif
#ifdef CPU_ONLY
  torch::Device device("cpu");
#else
  torch::Device device(argc > 1 ? argv[1] : "cuda:0");
#endif
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  train(model, optimizer, device);
}
#endif
