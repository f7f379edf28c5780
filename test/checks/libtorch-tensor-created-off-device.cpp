// RUN: %check_libtorch_tidy %s libtorch-tensor-created-off-device %t

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#define ON_DEVICE(t, d) (t).to(d)

void train(torch::Device device, torch::Tensor host, std::vector<float> &raw,
           torch::nn::Linear model, torch::optim::SGD &optimizer) {
  for (int step = 0; step < 100; ++step) {
    auto noise = torch::randn({32, 10}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'torch::randn' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step; pass the device to 'torch::randn' to create it there [libtorch-tensor-created-off-device]
    // CHECK-FIXES: {{^}}    auto noise = torch::randn({32, 10}, device);{{$}}
    auto zeros = torch::zeros({4}, torch::kFloat).to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'torch::zeros' makes the tensor in host memory and '.to(device)' copies it
    // CHECK-FIXES: {{^}}    auto zeros = torch::zeros({4}, torch::TensorOptions(torch::kFloat).device(device));{{$}}
    auto ones = torch::ones({4}, torch::TensorOptions().dtype(torch::kFloat)).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:79: warning: 'torch::ones' makes the tensor in host memory and '.cuda()' copies it
    // CHECK-FIXES: {{^}}    auto ones = torch::ones({4}, torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA));{{$}}
    auto steps = torch::arange(10).to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'torch::arange' makes the tensor in host memory and '.to(torch::kCUDA)' copies it
    // CHECK-FIXES: {{^}}    auto steps = torch::arange(10, torch::kCUDA);{{$}}
    auto labels = torch::randint(10, {32}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'torch::randint' makes
    // CHECK-FIXES: {{^}}    auto labels = torch::randint(10, {32}, device);{{$}}
    auto filled = torch::full({2, 2}, 0.5).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'torch::full' makes
    // CHECK-FIXES: {{^}}    auto filled = torch::full({2, 2}, 0.5, device);{{$}}
    auto identity = at::eye(3).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'at::eye' makes
    // CHECK-FIXES: {{^}}    auto identity = at::eye(3, device);{{$}}
    auto grid = torch::linspace(0, 1, 5).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'torch::linspace' makes
    // CHECK-FIXES: {{^}}    auto grid = torch::linspace(0, 1, 5, device);{{$}}
    auto cpu_copy = host.cpu();
    auto like = torch::zeros_like(cpu_copy).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 'torch::zeros_like' makes
    // CHECK-FIXES: {{^}}    auto like = torch::zeros_like(cpu_copy, device);{{$}}
    const std::vector<int64_t> shape = {2, 3};
    auto shaped = torch::rand(shape).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'torch::rand' makes
    // CHECK-FIXES: {{^}}    auto shaped = torch::rand(shape, device);{{$}}

    // A dtype change in the same copy, a leaf with requires_grad, an
    // explicit CPU device: the same finding, a note instead of a fix-it.
    auto half = torch::randn({4}).to(device, torch::kHalf);
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'torch::randn' makes
    // CHECK-MESSAGES: :[[@LINE-2]]:17: note: pass the device in the factory's TensorOptions, e.g. 'torch::randn(..., torch::TensorOptions().device(device))', and drop the copy
    auto weight = torch::randn({4}, torch::TensorOptions().requires_grad(true)).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:81: warning: 'torch::randn' makes
    // CHECK-MESSAGES: :[[@LINE-2]]:19: note: pass the device
    auto explicit_cpu = torch::ones({4}, torch::kCPU).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:55: warning: 'torch::ones' makes
    // CHECK-MESSAGES: :[[@LINE-2]]:25: note: pass the device
    auto values = torch::tensor({1.0f, 2.0f}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'torch::tensor' rebuilds a tensor from the constant host data '{1.0f, 2.0f}' and 'to(device)' copies it
    // CHECK-MESSAGES: :[[@LINE-47]]:3: note: hoist it before this loop

    // Negatives.
    auto made_there = torch::randn({32, 10}, device);
    auto options = torch::zeros({4}, torch::TensorOptions().device(device));
    auto already = torch::zeros({4}, device).to(device);
    auto blob = torch::from_blob(raw.data(), {2}).to(device);
    auto back = torch::zeros({4}).to(torch::kCPU);
    auto converted = torch::zeros({4}).to(torch::kHalf);
    auto like_device = torch::zeros_like(host).to(device);
    // Written in a macro: the macro may serve other call sites.
    auto in_macro = ON_DEVICE(torch::ones({2}), device);
    auto later = torch::zeros({4});
    later = later.to(device);

    optimizer.zero_grad();
    model(host.to(device)).sum().backward();
    optimizer.step();
  }
}

// Through a helper and a lambda called from the step: reported where the
// tensor is made, with a note at the call that runs it on every step.
torch::Tensor keep_mask(int64_t n, torch::Device device) {
  return torch::ones({n}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'torch::ones' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step; pass the device to 'torch::ones' to create it there [libtorch-tensor-created-off-device]
  // CHECK-MESSAGES: :[[@LINE+13]]:17: note: called here on every training step
  // CHECK-FIXES: {{^}}  return torch::ones({n}, device);{{$}}
}

void with_helpers(torch::Device device, torch::nn::Linear model,
                  torch::optim::SGD &optimizer, const torch::Tensor &x) {
  auto targets_for = [&](int64_t n) {
    return torch::zeros({n}, torch::kLong).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'torch::zeros' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step
    // CHECK-MESSAGES: :[[@LINE+5]]:19: note: called here on every training step
    // CHECK-FIXES: {{^}}    return torch::zeros({n}, torch::TensorOptions(torch::kLong).device(device));{{$}}
  };
  for (auto step = 0; step < 100; ++step) {
    auto mask = keep_mask(8, device);
    auto target = targets_for(8);
    optimizer.zero_grad();
    torch::nll_loss(model(x.to(device, true) * mask), target).backward();
    optimizer.step();
  }
}

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

using Loader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));

// Evaluation batches: a loop over a data loader that runs the model, and a
// loop under a no-grad guard.
void evaluate(Loader &loader, torch::nn::Linear model, torch::Device device,
              std::vector<torch::Tensor> &held_out) {
  for (auto &batch : *loader) {
    auto weights = torch::ones({8}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'torch::ones' makes the tensor in host memory and '.to(device)' copies it to the GPU on every evaluation batch
    // CHECK-FIXES: {{^}}    auto weights = torch::ones({8}, device);{{$}}
    model(batch.data.to(device, true)).sum(0).mul(weights.sum());
  }
  torch::NoGradGuard no_grad;
  for (auto &x : held_out) {
    auto index = torch::arange(8).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'torch::arange' makes the tensor in host memory and '.to(device)' copies it to the GPU on every evaluation batch
    // CHECK-FIXES: {{^}}    auto index = torch::arange(8, device);{{$}}
    model(x.to(device, true).index_select(0, index));
  }
}
