// A training loop in a header that both a trainer and an inference program
// include (test/checks/libtorch-program-setting-shared-header.cpp).
#pragma once

#include <torch/torch.h>

struct TinyConvImpl : torch::nn::Module {
  TinyConvImpl()
      : conv(register_module("conv", torch::nn::Conv2d(3, 8, 3))),
        fc(register_module("fc", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) {
    return fc(conv(x).mean({2, 3}));
  }
  torch::nn::Conv2d conv;
  torch::nn::Linear fc;
};
TORCH_MODULE(TinyConv);

inline void train_steps(TinyConv &net, torch::optim::SGD &optimizer,
                        const torch::Tensor &x, const torch::Tensor &y,
                        torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::nll_loss(net(x.to(device, true)), y.to(device, true)).backward();
    optimizer.step();
  }
}

inline torch::Tensor predict(TinyConv &net, const torch::Tensor &x,
                             torch::Device device) {
  torch::NoGradGuard no_grad;
  return net(x.to(device, true)).argmax(1);
}
