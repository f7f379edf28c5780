// A small MNIST CNN whose author logs the loss on every step. The two per-step
// reads are the classic GPU stall; the periodic one is fine.
#include <torch/torch.h>

#include <iostream>

class ConvNetImpl : public torch::nn::Module {
public:
  ConvNetImpl()
      : conv1(torch::nn::Conv2dOptions(1, 16, 3).padding(1)), // EXPECT: libtorch-conv-bias-before-batchnorm
        bn1(16), conv2(torch::nn::Conv2dOptions(16, 32, 3).padding(1)),
        fc(32 * 7 * 7, 10) {
    register_module("conv1", conv1);
    register_module("bn1", bn1);
    register_module("conv2", conv2);
    register_module("fc", fc);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(bn1(conv1(x))), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2); // OK: conv followed by relu
    return fc(x.flatten(1));
  }

private:
  torch::nn::Conv2d conv1;
  torch::nn::BatchNorm2d bn1;
  torch::nn::Conv2d conv2;
  torch::nn::Linear fc;
};
TORCH_MODULE(ConvNet);

class Digits : public torch::data::datasets::Dataset<Digits> {
public:
  Digits(torch::Tensor images, torch::Tensor labels)
      : images_(std::move(images)), labels_(std::move(labels)) {}
  torch::data::Example<> get(size_t index) override {
    return {images_[index], labels_[index]};
  }
  torch::optional<size_t> size() const override { return images_.size(0); }

private:
  torch::Tensor images_, labels_;
};

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto dataset = Digits(torch::randn({2048, 1, 28, 28}), torch::randint(10, {2048}))
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>( // EXPECT: libtorch-dataloader-enforce-ordering
      std::move(dataset), torch::data::DataLoaderOptions(128).workers(4));

  ConvNet model;
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));

  int64_t step = 0;
  for (int epoch = 0; epoch < 3; ++epoch) {
    float epoch_loss = 0;
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled, libtorch-cudnn-benchmark
      auto x = batch.data.to(device, /*non_blocking=*/true);
      auto y = batch.target.to(device, /*non_blocking=*/true);
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto loss = torch::cross_entropy_loss(model(x), y);
      loss.backward();
      opt.step();
      epoch_loss += loss.item<float>(); // EXPECT: libtorch-host-sync-in-loop
      std::cout << "step " << step << " loss " << loss << std::endl; // EXPECT: libtorch-host-sync-in-loop
      if (step % 50 == 0)
        std::cout << "lr-free log " << loss.item<float>() << std::endl; // OK: every 50 steps
      ++step;
    }
    std::cout << "epoch " << epoch << " total " << epoch_loss << std::endl; // OK: a float, per epoch
  }
}
