// RUN: %clangxx_syntax_mock -std=c++20 -DLIBTORCH_MOCK_VERSION_MAJOR=2 %s
// CONFORMANCE: 2.15
//
// Conformance program for the LibTorch 2.x mode of the mock headers
// (-DLIBTORCH_MOCK_VERSION_MAJOR=2 models LibTorch 2.15.0, which requires
// C++20): the API that differs from 1.13. The RUN line compiles it against
// the mock only; qualified-names-2x.test compiles it against the real 2.15
// headers too and compares what every name resolves to.

#include <ATen/autocast_mode.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <type_traits>

static_assert(TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR == 15 &&
                  TORCH_VERSION_PATCH == 0,
              "the 2.x mode models LibTorch 2.15.0");

// 2.x: Optimizer::zero_grad(bool set_to_none = true) and
// Module::zero_grad(bool set_to_none = true).
static_assert(std::is_same<decltype(&torch::optim::Optimizer::zero_grad),
                           void (torch::optim::Optimizer::*)(bool)>::value,
              "Optimizer::zero_grad takes set_to_none in 2.x");
static_assert(std::is_same<decltype(&torch::nn::Module::zero_grad),
                           void (torch::nn::Module::*)(bool)>::value,
              "Module::zero_grad takes set_to_none in 2.x");

// 2.15: c10::optional is std::optional, and DataLoaderOptions' optional
// members are std::optional.
static_assert(std::is_same<c10::optional<int>, std::optional<int>>::value,
              "c10::optional is an alias of std::optional in 2.15");
static_assert(
    std::is_same<
        decltype(std::declval<torch::data::DataLoaderOptions &>().max_jobs()),
        std::optional<size_t> &>::value,
    "DataLoaderOptions::max_jobs is a std::optional in 2.15");
static_assert(
    std::is_same<
        decltype(std::declval<torch::data::DataLoaderOptions &>().timeout()),
        std::optional<std::chrono::milliseconds> &>::value,
    "DataLoaderOptions::timeout is a std::optional in 2.15");

int main() {
  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Linear(4, 2);
  model->to(device);
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::Adam adam(model->parameters());

  // Float32 matmul precision: the string overload only, the TF32 switches,
  // and the per-backend precision API.
  at::globalContext().setFloat32MatmulPrecision("high");
  at::globalContext().setAllowTF32CuBLAS(true);
  at::globalContext().setAllowTF32CuDNN(true);
  bool tf32 = at::globalContext().allowTF32CuBLAS() &&
              at::globalContext().allowTF32CuDNN();
  at::Float32MatmulPrecision precision =
      at::globalContext().float32MatmulPrecision();
  at::globalContext().setFloat32Precision(at::Float32Backend::CUDA,
                                          at::Float32Op::MATMUL,
                                          at::Float32Precision::TF32);
  (void)tf32;
  (void)precision;

  at::autocast::set_autocast_enabled(at::kCUDA, true);
  at::autocast::set_autocast_dtype(at::kCUDA, at::kBFloat16);
  bool enabled = at::autocast::is_autocast_enabled(at::kCUDA);
  at::ScalarType dtype = at::autocast::get_autocast_dtype(at::kCUDA);
  (void)enabled;
  (void)dtype;

  // Signatures that changed since 1.13: optimizers built from parameter
  // groups take them by const reference, c10::device_index takes a
  // DeviceIndex, from_blob's deleter overload takes a target device, the
  // Embedding module takes its options by value, Scalar prints by reference.
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(model->parameters());
  torch::optim::SGD grouped(groups, torch::optim::SGDOptions(0.01));
  torch::optim::Adam grouped_adam(groups);
  auto on_gpu = torch::device_index(0);
  float host[4] = {1, 2, 3, 4};
  auto wrapped = torch::from_blob(host, {4}, [](void *) {});
  auto owned = at::from_blob(
      host, {4}, [](void *) {}, at::kFloat);
  torch::nn::Embedding embedding(torch::nn::EmbeddingOptions(10, 3));
  std::cout << torch::Scalar(1.5) << c10::toString(torch::Scalar(2)) << "\n";
  (void)on_gpu;
  (void)wrapped;
  (void)owned;

  auto dataset = torch::data::datasets::TensorDataset(
      std::vector<torch::Tensor>{torch::randn({8, 4})});
  auto loader = torch::data::make_data_loader(
      std::move(dataset),
      torch::data::DataLoaderOptions(4).workers(2).max_jobs(4));
  (void)loader;

  for (int step = 0; step < 10; ++step) {
    sgd.zero_grad();
    sgd.zero_grad(/*set_to_none=*/false);
    adam.zero_grad(true);
    model->zero_grad();
    model->zero_grad(/*set_to_none=*/false);
    auto loss = model->forward(torch::randn({8, 4}, device)).sum();
    loss.backward();
    sgd.step();
    float value = loss.item<float>();
    (void)value;
  }
  at::autocast::clear_cache();
  at::autocast::set_autocast_enabled(at::kCUDA, false);

  // The 1.13 CUDA-only spellings remain, deprecated.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
  at::autocast::set_enabled(true);
  bool old_enabled = at::autocast::is_enabled();
  at::autocast::set_autocast_gpu_dtype(at::kHalf);
  at::ScalarType old_dtype = at::autocast::get_autocast_gpu_dtype();
  at::autocast::set_cpu_enabled(false);
  (void)old_enabled;
  (void)old_dtype;
#pragma clang diagnostic pop
  return 0;
}
