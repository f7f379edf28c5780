// RUN: %check_libtorch_tidy %s libtorch-conv-bias-before-batchnorm %t

#include <torch/torch.h>

namespace nn = torch::nn;

// Sequential(...) argument lists.
nn::Sequential features() {
  return nn::Sequential(
      nn::Conv2d(nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)),
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'Conv2d' has a bias but its output goes straight into 'BatchNorm2d', which subtracts the per-channel mean and cancels it: the bias costs compute and memory for nothing; build it with '.bias(false)' [libtorch-conv-bias-before-batchnorm]
      // CHECK-FIXES: {{^}}      nn::Conv2d(nn::Conv2dOptions(3, 32, 3).stride(2).padding(1).bias(false)),{{$}}
      nn::BatchNorm2d(32),
      // CHECK-MESSAGES: :[[@LINE-1]]:7: note: the batch norm that follows it
      nn::ReLU(),
      nn::Conv2d(nn::Conv2dOptions(32, 64, 3).bias(true)),
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'Conv2d' has a bias but its output goes straight into 'BatchNorm2d'
      // CHECK-FIXES: {{^}}      nn::Conv2d(nn::Conv2dOptions(32, 64, 3).bias(false)),{{$}}
      nn::BatchNorm2d(nn::BatchNorm2dOptions(64)),
      // CHECK-MESSAGES: :[[@LINE-1]]:7: note: the batch norm that follows it
      nn::Conv2d(64, 64, 3),
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'Conv2d' has a bias but its output goes straight into 'BatchNorm2d'
      // CHECK-FIXES: {{^}}      nn::Conv2d(torch::nn::Conv2dOptions(64, 64, 3).bias(false)),{{$}}
      nn::BatchNorm2d(64),
      // CHECK-MESSAGES: :[[@LINE-1]]:7: note: the batch norm that follows it
      // Not flagged: no bias, or a ReLU in between.
      nn::Conv2d(nn::Conv2dOptions(64, 64, 3).bias(false)),
      nn::BatchNorm2d(64),
      nn::Conv2d(nn::Conv2dOptions(64, 64, 3)),
      nn::ReLU(),
      nn::BatchNorm2d(64),
      nn::Conv1d(nn::Conv1dOptions(64, 8, 1)),
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'Conv1d' has a bias but its output goes straight into 'BatchNorm1d'
      // CHECK-FIXES: {{^}}      nn::Conv1d(nn::Conv1dOptions(64, 8, 1).bias(false)),{{$}}
      nn::BatchNorm1d(8));
      // CHECK-MESSAGES: :[[@LINE-1]]:7: note: the batch norm that follows it
}

#define CONV_OPTIONS(in, out) nn::Conv2dOptions(in, out, 3)

nn::Sequential in_macros(bool flag, nn::Conv2dOptions options) {
  return nn::Sequential(
      nn::Conv2d(CONV_OPTIONS(3, 8)),
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'Conv2d' has a bias but its output goes straight into 'BatchNorm2d'
      // CHECK-MESSAGES: :[[@LINE-2]]:18: note: add '.bias(false)' to its 'Conv2dOptions'
      // CHECK-FIXES: {{^}}      nn::Conv2d(CONV_OPTIONS(3, 8)),{{$}}
      nn::BatchNorm2d(8),
      // CHECK-MESSAGES: :[[@LINE-1]]:7: note: the batch norm that follows it
      // Not flagged: the bias is a choice made elsewhere.
      nn::Conv2d(nn::Conv2dOptions(8, 8, 3).bias(flag)), nn::BatchNorm2d(8),
      nn::Conv2d(options), nn::BatchNorm2d(8));
}

// forward(): `bn(conv(x))` and `x = conv(x); x = bn(x);`.
struct BlockImpl : nn::Module {
  BlockImpl()
      : conv2(register_module(
            "conv2", nn::Conv2d(nn::Conv2dOptions(16, 16, 3).padding(1)))) {
    // Each warning sits on a construction, its note in forward():
    // CHECK-MESSAGES-DAG: :[[@LINE-2]]:33: warning: 'Conv2d' has a bias but its output goes straight into 'BatchNorm2d'
    // CHECK-FIXES: {{^}}            "conv2", nn::Conv2d(nn::Conv2dOptions(16, 16, 3).padding(1).bias(false)))) {{[{]$}}
    conv1 = register_module("conv1",
                            nn::Conv2d(nn::Conv2dOptions(3, 16, 3).padding(1)));
    // CHECK-MESSAGES-DAG: :[[@LINE-1]]:40: warning: 'Conv2d' has a bias but its output goes straight into 'BatchNorm2d'
    // CHECK-FIXES: {{^}}                            nn::Conv2d(nn::Conv2dOptions(3, 16, 3).padding(1).bias(false)));{{$}}
    conv3 = register_module("conv3", nn::Conv2d(16, 16, 1));
    bn1 = register_module("bn1", nn::BatchNorm2d(16));
    bn2 = register_module("bn2", nn::BatchNorm2d(16));
    bn3 = register_module("bn3", nn::BatchNorm2d(16));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(bn1(conv1(x)));
    // CHECK-MESSAGES-DAG: :[[@LINE-1]]:21: note: the batch norm that follows it
    x = conv2->forward(x);
    x = bn2->forward(x);
    // CHECK-MESSAGES-DAG: :[[@LINE-1]]:9: note: the batch norm that follows it
    // Not flagged: conv3's output also feeds the residual sum, where its
    // bias counts.
    auto y = conv3(x);
    auto z = bn3(y);
    return torch::relu(z + y);
  }
  nn::Conv2d conv1{nullptr}, conv2{nullptr}, conv3{nullptr};
  nn::BatchNorm2d bn1{nullptr}, bn2{nullptr}, bn3{nullptr};
};
TORCH_MODULE(Block);

// Not flagged: a convolution whose output reaches a batch norm on one path
// only keeps its bias for the other.
struct SwitchImpl : nn::Module {
  SwitchImpl() {
    conv = register_module("conv", nn::Conv2d(nn::Conv2dOptions(3, 8, 3)));
    bn = register_module("bn", nn::BatchNorm2d(8));
  }
  torch::Tensor forward(torch::Tensor x, bool normalize) {
    if (normalize)
      return bn(conv(x));
    return torch::relu(conv(x));
  }
  nn::Conv2d conv{nullptr};
  nn::BatchNorm2d bn{nullptr};
};
TORCH_MODULE(Switch);

// A local module used once.
torch::Tensor local_modules(torch::Tensor x) {
  nn::ConvTranspose2d up(nn::ConvTranspose2dOptions(8, 4, 2).stride(2));
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'ConvTranspose2d' has a bias but its output goes straight into 'BatchNorm2d'
  // CHECK-FIXES: {{^}}  nn::ConvTranspose2d up(nn::ConvTranspose2dOptions(8, 4, 2).stride(2).bias(false));{{$}}
  nn::BatchNorm2d norm(4);
  auto y = up(x);
  auto z = norm(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: note: the batch norm that follows it
  // Not flagged: ReLU first.
  nn::Conv2d conv(nn::Conv2dOptions(4, 4, 3));
  return norm(torch::relu(conv(z)));
}
