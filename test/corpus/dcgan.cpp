// DCGAN on synthetic 28x28 "digits": generator and discriminator, one
// optimizer each. Noise is drawn on the host and copied on every step.
#include <torch/torch.h>

#include <cstdio>

using namespace torch;

constexpr int64_t kNoiseSize = 100;
constexpr int64_t kBatchSize = 64;

struct DCGANGeneratorImpl : nn::Module {
  explicit DCGANGeneratorImpl(int64_t nz)
      : conv1(nn::ConvTranspose2dOptions(nz, 256, 4).bias(false)), // OK: bias(false)
        bn1(256),
        conv2(nn::ConvTranspose2dOptions(256, 128, 3).stride(2).padding(1).bias(false)), // OK: bias(false)
        bn2(128),
        conv3(nn::ConvTranspose2dOptions(128, 64, 4).stride(2).padding(1).bias(false)), // OK: bias(false)
        bn3(64),
        conv4(nn::ConvTranspose2dOptions(64, 1, 4).stride(2).padding(1).bias(false)) { // OK: bias(false)
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("conv3", conv3);
    register_module("conv4", conv4);
    register_module("bn1", bn1);
    register_module("bn2", bn2);
    register_module("bn3", bn3);
  }
  Tensor forward(Tensor x) {
    x = torch::relu(bn1(conv1(x)));
    x = torch::relu(bn2(conv2(x)));
    x = torch::relu(bn3(conv3(x)));
    return torch::tanh(conv4(x));
  }
  nn::ConvTranspose2d conv1, conv2, conv3, conv4;
  nn::BatchNorm2d bn1, bn2, bn3;
};
TORCH_MODULE(DCGANGenerator);

struct Shapes : data::datasets::Dataset<Shapes> {
  data::Example<> get(size_t i) override {
    auto img = torch::zeros({1, 28, 28});
    const int64_t r = 4 + static_cast<int64_t>(i % 8);
    img.slice(1, 14 - r, 14 + r).slice(2, 14 - r, 14 + r).fill_(1.0);
    return {img * 2 - 1, torch::zeros({})};
  }
  optional<size_t> size() const override { return 6400; }
};

int main() {
  torch::manual_seed(1);
  Device device(torch::cuda::is_available() ? kCUDA : kCPU);

  DCGANGenerator generator(kNoiseSize);
  generator->to(device);
  nn::Sequential discriminator(
      nn::Conv2d(nn::Conv2dOptions(1, 64, 4).stride(2).padding(1).bias(false)), // OK: bias(false)
      nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2)),
      nn::Conv2d(nn::Conv2dOptions(64, 128, 4).stride(2).padding(1).bias(false)), // OK: bias(false)
      nn::BatchNorm2d(128),
      nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2)),
      nn::Conv2d(nn::Conv2dOptions(128, 1, 7).bias(false)), nn::Sigmoid()); // OK: bias(false)
  discriminator->to(device);

  optim::Adam g_opt(generator->parameters(), optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  optim::Adam d_opt(discriminator->parameters(), optim::AdamOptions(2e-4).betas({0.5, 0.999}));

  auto loader = data::make_data_loader(
      Shapes().map(data::transforms::Stack<>()),
      data::DataLoaderOptions().batch_size(kBatchSize).workers(2).enforce_ordering(false));

  int64_t checkpoint_every = 200, iteration = 0;
  for (int64_t epoch = 1; epoch <= 10; ++epoch) {
    for (data::Example<> &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled, libtorch-cudnn-benchmark
      discriminator->zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      Tensor real_images = batch.data.to(device, /*non_blocking=*/true);
      Tensor real_labels = torch::empty(batch.data.size(0), device).uniform_(0.8, 1.0); // OK: made on the device
      Tensor real_output = discriminator->forward(real_images).reshape(real_labels.sizes());
      Tensor d_loss_real = binary_cross_entropy(real_output, real_labels);
      d_loss_real.backward();

      Tensor noise = torch::randn({batch.data.size(0), kNoiseSize, 1, 1}).to(device); // EXPECT: libtorch-tensor-created-off-device (only: made on the device, it needs no copy to make non-blocking)
      Tensor fake_images = generator->forward(noise);
      Tensor fake_labels = torch::zeros(batch.data.size(0), device); // OK: made on the device
      Tensor fake_output = discriminator->forward(fake_images.detach()).reshape(fake_labels.sizes());
      Tensor d_loss_fake = binary_cross_entropy(fake_output, fake_labels);
      d_loss_fake.backward();
      d_opt.step();

      generator->zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      fake_labels.fill_(1);
      fake_output = discriminator->forward(fake_images).reshape(fake_labels.sizes());
      Tensor g_loss = binary_cross_entropy(fake_output, fake_labels);
      g_loss.backward();
      g_opt.step();

      if (++iteration % checkpoint_every == 0) {
        std::printf("[%2ld] D_loss: %.4f | G_loss: %.4f\n", static_cast<long>(epoch),
                    (d_loss_real + d_loss_fake).item<float>(), g_loss.item<float>()); // OK: every 200 steps
        torch::save(generator, "generator-checkpoint.pt"); // OK: periodic checkpoint
      }
    }
  }
}
