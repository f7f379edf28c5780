// Neural style transfer as most C++ ports of the PyTorch tutorial write it:
// a pretrained convolutional feature extractor, loaded from disk, frozen and
// put in eval mode, scores an image that the optimizer updates directly. The
// content and style images never change, yet their features (and the style's
// Gram matrix) are computed again on every step. The second version computes
// them once before the loop; the third jitters the style image on every step,
// so its features do change.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>
#include <string>

// The first slices of a VGG-like network, as the ports define them.
struct VggSliceImpl : torch::nn::Module {
  explicit VggSliceImpl(int64_t width = 32) {
    layers = register_module(
        "layers",
        torch::nn::Sequential(
            torch::nn::Conv2d(torch::nn::Conv2dOptions(3, width, 3).padding(1)),
            torch::nn::ReLU(),
            torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)),
            torch::nn::Conv2d(torch::nn::Conv2dOptions(width, 2 * width, 3).padding(1)),
            torch::nn::ReLU()));
  }
  torch::Tensor forward(const torch::Tensor &image) { return layers->forward(image); }
  torch::nn::Sequential layers{nullptr};
};
TORCH_MODULE(VggSlice);

// The Gram matrix of a batch of feature maps, normalized by their size.
torch::Tensor gram(const torch::Tensor &maps) {
  const auto b = maps.size(0), c = maps.size(1);
  auto flat = maps.view({b, c, -1});
  return torch::matmul(flat, flat.transpose(1, 2)).div(flat.size(1) * flat.size(2));
}

void stylize(const std::string &weights, torch::Device device) {
  VggSlice extractor;
  torch::load(extractor, weights);
  extractor->to(device); // OK: once, before the loop
  extractor->eval();
  for (auto &p : extractor->parameters())
    p.requires_grad_(false); // OK: frozen after loading
  auto content = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device));
  auto style = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device));
  auto image = content.clone().requires_grad_(true);
  torch::optim::Adam optimizer({image}, torch::optim::AdamOptions(0.02));
  const double style_weight = 1e4;
  for (int step = 0; step < 300; ++step) { // EXPECT: libtorch-cudnn-benchmark, libtorch-missing-autocast, libtorch-tf32-disabled
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto image_features = extractor(image); // OK: the optimizer updates the image on every step
    auto content_features = extractor(content); // EXPECT: libtorch-constant-features-in-loop
    auto style_features = extractor(style); // EXPECT: libtorch-constant-features-in-loop
    auto loss = torch::mse_loss(image_features, content_features) +
                style_weight * torch::mse_loss(gram(image_features), gram(style_features));
    loss.backward();
    optimizer.step();
    if (step % 50 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << '\n'; // OK: every 50 steps
  }
}

void stylize_hoisted(const std::string &weights, torch::Device device) {
  VggSlice extractor;
  torch::load(extractor, weights);
  extractor->to(device);
  extractor->eval();
  for (auto &p : extractor->parameters())
    p.requires_grad_(false);
  auto content = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device));
  auto style = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device));
  torch::Tensor content_features;
  torch::Tensor style_gram;
  {
    torch::NoGradGuard no_grad; // OK: the targets are computed once, without autograd
    content_features = extractor(content); // OK: before the loop
    style_gram = gram(extractor(style)); // OK: before the loop
  }
  auto image = content.clone().requires_grad_(true);
  torch::optim::Adam optimizer({image}, torch::optim::AdamOptions(0.02));
  for (int step = 0; step < 300; ++step) { // EXPECT: libtorch-missing-autocast
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto image_features = extractor(image); // OK: the optimizer updates the image on every step
    auto loss = torch::mse_loss(image_features, content_features) +
                1e4 * torch::mse_loss(gram(image_features), style_gram);
    loss.backward();
    optimizer.step();
  }
}

void stylize_jittered(const std::string &weights, torch::Device device) {
  VggSlice extractor;
  torch::load(extractor, weights);
  extractor->to(device);
  extractor->eval();
  for (auto &p : extractor->parameters())
    p.requires_grad_(false);
  auto style = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device));
  auto image = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device)).requires_grad_(true);
  torch::optim::Adam optimizer({image}, torch::optim::AdamOptions(0.02));
  for (int step = 0; step < 300; ++step) { // EXPECT: libtorch-missing-autocast
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    auto jittered = (style + 0.05 * torch::randn_like(style)).clamp(0, 1);
    auto loss = torch::mse_loss(gram(extractor(image)),
                                gram(extractor(jittered))); // OK: a new random jitter of the style on every step
    loss.backward();
    optimizer.step();
  }
}

int main(int argc, char **argv) {
  const std::string weights = argc > 1 ? argv[1] : "vgg_slice.pt";
  const bool cpu = argc > 2 && std::string(argv[2]) == "--cpu";
  const torch::Device device =
      !cpu && torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
  std::printf("stylizing on %s\n", device.str().c_str());
  stylize(weights, device);
  stylize_hoisted(weights, device);
  stylize_jittered(weights, device);
}
