// Neural style transfer in the shape tutorials give it: a small pretrained
// convolutional feature extractor, loaded from disk and put in eval mode,
// scores an image that the optimizer updates directly. The extractor's
// parameters still require grad, so every step's backward computes weight
// gradients nobody uses. A second extractor is frozen properly.
#include <torch/torch.h>

#include <cstdio>
#include <string>

struct FeaturesImpl : torch::nn::Module {
  FeaturesImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)))) {}
  torch::Tensor forward(torch::Tensor x) {
    return conv2(torch::relu(conv1(x)));
  }
  torch::nn::Conv2d conv1;
  torch::nn::Conv2d conv2;
};
TORCH_MODULE(Features);

torch::Tensor gram(const torch::Tensor &f) {
  auto flat = f.flatten(2);
  return torch::bmm(flat, flat.transpose(1, 2)) / flat.size(2);
}

void stylize(const std::string &weights, torch::Device device) {
  Features extractor;
  torch::load(extractor, weights);
  extractor->to(device); // OK: once, before the loop
  extractor->eval(); // OK: eval() switches layers, it does not stop autograd
  auto style = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device));
  torch::Tensor style_gram;
  {
    torch::NoGradGuard no_grad; // OK: the target is computed once, without autograd
    style_gram = gram(extractor(style));
  }
  auto image = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device)).requires_grad_(true);
  torch::optim::Adam optimizer({image}, torch::optim::AdamOptions(0.02));
  for (int step = 0; step < 300; ++step) { // EXPECT: libtorch-cudnn-benchmark, libtorch-missing-autocast, libtorch-tf32-disabled
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto loss = torch::mse_loss(gram(extractor(image)), style_gram); // EXPECT: libtorch-frozen-module-requires-grad
    loss.backward();
    optimizer.step();
  }
}

void stylize_frozen(const std::string &weights, torch::Device device) {
  Features extractor;
  torch::load(extractor, weights);
  extractor->to(device); // OK: once, before the loop
  extractor->eval();
  for (auto &p : extractor->parameters())
    p.requires_grad_(false); // OK: frozen after loading
  auto style = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device));
  torch::Tensor style_gram;
  {
    torch::NoGradGuard no_grad;
    style_gram = gram(extractor(style));
  }
  auto image = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device)).requires_grad_(true);
  torch::optim::Adam optimizer({image}, torch::optim::AdamOptions(0.02));
  for (int step = 0; step < 300; ++step) { // EXPECT: libtorch-missing-autocast
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto loss = torch::mse_loss(gram(extractor(image)), style_gram); // OK: parameters frozen
    loss.backward();
    optimizer.step();
  }
}

int main(int argc, char **argv) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::string weights = argc > 1 ? argv[1] : "features.pt";
  stylize(weights, device);
  stylize_frozen(weights, device);
}
