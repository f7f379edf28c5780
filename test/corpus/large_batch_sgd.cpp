// Large-batch SGD over a tensor held on the device, sliced per step, with a
// one-off accuracy pass at the end.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Linear(256, 512), torch::nn::ReLU(), torch::nn::Linear(512, 10));
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  auto inputs = torch::randn({8192, 256}, device);
  auto labels = torch::randint(10, {8192}, torch::TensorOptions().device(device).dtype(torch::kLong));
  for (int64_t i = 0; i < 8192; i += 512) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto out = model->forward(inputs.slice(0, i, i + 512));
    auto loss = torch::cross_entropy_loss(out, labels.slice(0, i, i + 512));
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    opt.step();
  }
  {
    torch::NoGradGuard no_grad;
    auto preds = model->forward(inputs);
    std::cout << "train accuracy " << preds.argmax(1).eq(labels).to(torch::kFloat).mean().item<float>() << '\n'; // OK: once, after training
  }
}
