// RUN: %clangxx_syntax_mock -DLIBTORCH_MOCK_VERSION_MAJOR=2 %s
//
// Conformance program for the LibTorch 2.x mode of the mock headers
// (-DLIBTORCH_MOCK_VERSION_MAJOR=2 models LibTorch 2.4.0). Mock-only: the
// installed real LibTorch is 1.13.

#include <ATen/autocast_mode.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <type_traits>

static_assert(TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR == 4 &&
                  TORCH_VERSION_PATCH == 0,
              "the 2.x mode models LibTorch 2.4.0");

// 2.x: Optimizer::zero_grad(bool set_to_none = true) and
// Module::zero_grad(bool set_to_none = true).
static_assert(std::is_same<decltype(&torch::optim::Optimizer::zero_grad),
                           void (torch::optim::Optimizer::*)(bool)>::value,
              "Optimizer::zero_grad takes set_to_none in 2.x");
static_assert(std::is_same<decltype(&torch::nn::Module::zero_grad),
                           void (torch::nn::Module::*)(bool)>::value,
              "Module::zero_grad takes set_to_none in 2.x");

// 2.4: c10::optional is std::optional.
static_assert(std::is_same<c10::optional<int>, std::optional<int>>::value,
              "c10::optional is an alias of std::optional in 2.4");

int main() {
  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Linear(4, 2);
  model->to(device);
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::Adam adam(model->parameters());

  at::autocast::set_autocast_enabled(at::kCUDA, true);
  at::autocast::set_autocast_dtype(at::kCUDA, at::kBFloat16);
  bool enabled = at::autocast::is_autocast_enabled(at::kCUDA);
  at::ScalarType dtype = at::autocast::get_autocast_dtype(at::kCUDA);
  (void)enabled;
  (void)dtype;

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
