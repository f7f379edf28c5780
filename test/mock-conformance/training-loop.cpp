// RUN: %clangxx_syntax_mock %s && %clangxx_syntax_real %s
// CONFORMANCE: 1.13 2.15
//
// Conformance program for the mock LibTorch headers: an MNIST-style training
// program as users write it (modelled on the official examples/cpp/mnist).
// It must compile unchanged against the mock headers and the real LibTorch.

#include <ATen/autocast_mode.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

static const char *const kDataRoot = "./data";
static const int64_t kTrainBatchSize = 64;
static const int64_t kTestBatchSize = 1000;
static const int64_t kNumberOfEpochs = 10;
static const int64_t kLogInterval = 10;

struct Net : torch::nn::Module {
  Net()
      : conv1(torch::nn::Conv2dOptions(1, 10, /*kernel_size=*/5)),
        conv2(torch::nn::Conv2dOptions(10, 20, /*kernel_size=*/5)),
        fc1(320, 50), fc2(50, 10) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("conv2_drop", conv2_drop);
    register_module("fc1", fc1);
    register_module("fc2", fc2);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(torch::max_pool2d(conv1->forward(x), 2));
    x = torch::relu(
        torch::max_pool2d(conv2_drop->forward(conv2->forward(x)), 2));
    x = x.view({-1, 320});
    x = torch::relu(fc1->forward(x));
    x = torch::dropout(x, /*p=*/0.5, /*train=*/is_training());
    x = fc2->forward(x);
    return torch::log_softmax(x, /*dim=*/1);
  }

  torch::nn::Conv2d conv1;
  torch::nn::Conv2d conv2;
  torch::nn::Dropout2d conv2_drop;
  torch::nn::Linear fc1;
  torch::nn::Linear fc2;
};

int main() {
  torch::manual_seed(1);

  torch::DeviceType device_type;
  if (torch::cuda::is_available()) {
    std::cout << "CUDA available! Training on GPU." << std::endl;
    device_type = torch::kCUDA;
  } else {
    std::cout << "Training on CPU." << std::endl;
    device_type = torch::kCPU;
  }
  torch::Device device(device_type);

#if TORCH_VERSION_MAJOR < 2
  at::globalContext().setBenchmarkCuDNN(true);
#endif
  at::globalContext().setFloat32MatmulPrecision("high");
  at::globalContext().setAllowTF32CuBLAS(true);

  Net model;
  model.to(device);

  auto train_dataset =
      torch::data::datasets::MNIST(kDataRoot)
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  const size_t train_dataset_size = train_dataset.size().value();
  auto train_loader =
      torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
          std::move(train_dataset), kTrainBatchSize);

  auto test_dataset =
      torch::data::datasets::MNIST(kDataRoot,
                                   torch::data::datasets::MNIST::Mode::kTest)
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  const size_t test_dataset_size = test_dataset.size().value();
  auto test_loader = torch::data::make_data_loader(
      std::move(test_dataset),
      torch::data::DataLoaderOptions().batch_size(kTestBatchSize).workers(2));

  torch::optim::SGD optimizer(
      model.parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));

  for (size_t epoch = 1; epoch <= kNumberOfEpochs; ++epoch) {
    model.train();
    size_t batch_idx = 0;
    at::autocast::set_enabled(true);
    for (auto &batch : *train_loader) {
      auto data = batch.data.to(device, /*non_blocking=*/true);
      auto targets = batch.target.to(device);
      optimizer.zero_grad();
      auto output = model.forward(data);
      auto loss = torch::nll_loss(output, targets);
      AT_ASSERT(!std::isnan(loss.template item<float>()));
      loss.backward();
      optimizer.step();

      if (batch_idx++ % kLogInterval == 0) {
        std::printf("\rTrain Epoch: %zu [%5zu/%5zu] Loss: %.4f", epoch,
                    batch_idx * batch.data.size(0), train_dataset_size,
                    loss.item<float>());
        std::cout << loss << std::endl;
        torch::print(loss);
        at::print(std::cout, loss, 80);
      }
      float f = loss.item().toFloat();
      (void)f;
      torch::cuda::synchronize();
    }
    at::autocast::clear_cache();
    at::autocast::set_enabled(false);

    torch::NoGradGuard no_grad;
    model.eval();
    double test_loss = 0;
    int32_t correct = 0;
    for (const auto &batch : *test_loader) {
      auto data = batch.data.to(device), targets = batch.target.to(device);
      auto output = model.forward(data);
      test_loss += torch::nll_loss(output, targets,
                                   /*weight=*/{}, torch::Reduction::Sum)
                       .template item<float>();
      auto pred = output.argmax(1);
      correct += pred.eq(targets).sum().template item<int64_t>();
      auto host = output.cpu();
      auto host2 = output.to(torch::kCPU);
      (void)host;
      (void)host2;
    }
    test_loss /= test_dataset_size;
    std::printf("\nTest set: Average loss: %.4f | Accuracy: %.3f\n", test_loss,
                static_cast<double>(correct) / test_dataset_size);
  }

  torch::save(model.parameters(), "model.pt");
  std::vector<torch::Tensor> loaded;
  torch::load(loaded, "model.pt");
  return 0;
}
