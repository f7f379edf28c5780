// LibTorch's loss modules, given a host factory's tensor beside a device
// tensor. The mock headers declare no loss module, so this runs on the real
// headers only (1.13 and 2.15, both surfaces):
// RUN: %check_libtorch_tidy --variants cli-real,plugin-real %s libtorch-tensor-created-off-device %t

#include <torch/torch.h>

#include <cstdint>

struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor mask) {
    return x * mask.to(x.device());
  }
};
TORCH_MODULE(Net);

void train(torch::nn::Linear model, Net net, torch::optim::SGD &optimizer,
           torch::Tensor data, torch::Device device) {
  torch::nn::MSELoss criterion;
  torch::nn::BCEWithLogitsLoss bce;
  for (int64_t step = 0; step < 100; ++step) {
    auto out = model(data.to(device, /*non_blocking=*/true));
    auto loss = criterion(out, torch::zeros({8, 1}));
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'torch::zeros' makes the tensor in host memory on every training step and hands it, uncopied, to an operation with 'out' on the device
    // CHECK-FIXES: {{^}}    auto loss = criterion(out, torch::zeros({8, 1}, device));{{$}}
    auto labels = torch::ones({8, 1});
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'torch::ones' makes the tensor in host memory on every training step and hands it, uncopied, to an operation with 'out' on the device
    // CHECK-FIXES: {{^}}    auto labels = torch::ones({8, 1}, device);{{$}}
    auto bce_loss = bce->forward(out, labels);
    // A module of the project moves its inputs itself: not reported.
    auto masked = net(out, torch::ones({8, 1}));
    auto total = loss + bce_loss + masked.sum();
    optimizer.zero_grad();
    total.backward();
    optimizer.step();
  }
}
