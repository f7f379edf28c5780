// One real-header variant: the plugin on the real headers runs in libtorch-tensor-created-off-device.cpp.
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-tensor-created-off-device %t
//
// Factories in the helpers, lambdas and loss functions a step calls: found
// as deep as the call chain goes (more than three calls), and where the
// helper returns the host tensor and the step copies it.

#include <torch/torch.h>

#include <cstdint>

// The step copies what the helper makes on the host: reported at the
// factory, with a note at the copy.
torch::Tensor make_targets(int64_t n) {
  return torch::zeros({n}, torch::kLong);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::zeros' makes the tensor in host memory and the caller of 'make_targets' copies it to the GPU on every training step; pass the device to 'make_targets' and on to 'torch::zeros' to create it there [libtorch-tensor-created-off-device]
  // CHECK-MESSAGES: :[[@LINE+47]]:51: note: 'to()' copies the result of 'make_targets' to the GPU here
}

// Four calls below the step: compute_loss -> weighted_loss ->
// class_weights -> smoothing.
torch::Tensor smoothing(int64_t n, torch::Device device) {
  return torch::full({n}, 0.1).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'torch::full' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step; pass the device to 'torch::full' to create it there [libtorch-tensor-created-off-device]
  // CHECK-MESSAGES: :[[@LINE+39]]:17: note: called here on every training step
  // CHECK-MESSAGES: :[[@LINE+17]]:10: note: called here on every training step
  // CHECK-MESSAGES: :[[@LINE+11]]:34: note: called here on every training step
  // CHECK-MESSAGES: :[[@LINE+5]]:10: note: called here on every training step
  // CHECK-FIXES: {{^}}  return torch::full({n}, 0.1, device);{{$}}
}

torch::Tensor class_weights(int64_t n, torch::Device device) {
  return smoothing(n, device) + 1;
}

torch::Tensor weighted_loss(const torch::Tensor &out, const torch::Tensor &y,
                            torch::Device device) {
  return torch::nll_loss(out, y, class_weights(out.size(1), device));
}

torch::Tensor compute_loss(const torch::Tensor &out, const torch::Tensor &y,
                           torch::Device device) {
  return weighted_loss(out, y, device);
}

// A loss function called from the step that makes its constant there.
torch::Tensor margin_loss(const torch::Tensor &scores, torch::Device device) {
  auto margin = torch::ones({scores.size(0)}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'torch::ones' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step
  // CHECK-MESSAGES: :[[@LINE+15]]:17: note: called here on every training step
  // CHECK-FIXES: {{^}}  auto margin = torch::ones({scores.size(0)}, device);{{$}}
  return (margin - scores).clamp(0).mean();
}

void train(torch::Device device, torch::nn::Linear model,
           torch::optim::SGD &optimizer, const torch::Tensor &x) {
  // A lambda defined before the loop and called in it.
  auto make_noise = [](int64_t n) { return torch::randn({n, 4}); };
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'torch::randn' makes the tensor in host memory and the caller of 'make_noise' copies it to the GPU on every training step; pass the device to 'make_noise' and on to 'torch::randn' to create it there
  // CHECK-MESSAGES: :[[@LINE+6]]:32: note: 'to()' copies the result of 'make_noise' to the GPU here
  for (int step = 0; step < 100; ++step) {
    auto input = x.to(device, true);
    auto out = model(input);
    auto loss = compute_loss(out, make_targets(8).to(device), device) +
                margin_loss(out.select(1, 0), device);
    auto noise = make_noise(8).to(device);
    optimizer.zero_grad();
    (loss + noise.sum()).backward();
    optimizer.step();
  }
}

// Negatives.

// A helper whose host tensor stays on the host (metrics), one whose tensor
// is filled on the host before it is returned, one that makes it on the
// device, one with two returns.
torch::Tensor confusion(int64_t n) { return torch::zeros({n, n}); }
torch::Tensor one_hot_host(int64_t n, int64_t k) {
  auto t = torch::zeros({n});
  t[k] = 1;
  return t;
}
torch::Tensor on_device(int64_t n, torch::Device device) {
  return torch::zeros({n}, device);
}
torch::Tensor either(int64_t n, bool big) {
  if (big)
    return torch::zeros({2 * n});
  return torch::zeros({n});
}
// Called once, before the loop.
torch::Tensor initial_state(int64_t n) { return torch::zeros({n, 4}); }

void train_negatives(torch::Device device, torch::nn::Linear model,
                     torch::optim::SGD &optimizer, const torch::Tensor &x) {
  auto options = torch::TensorOptions().dtype(torch::kFloat);
  auto state = initial_state(8).to(device);
  auto make_mask = [&](int64_t n) { return torch::ones({n}, device); };
  for (int step = 0; step < 100; ++step) {
    auto counts = confusion(2);
    auto hot = one_hot_host(8, step % 8).to(device);
    auto zeros = on_device(8, device).to(device);
    auto pick = either(4, step > 50).to(device);
    auto bias = torch::zeros({8}, options.device(device));
    auto mask = make_mask(8).to(device);
    if (step % 10 == 0) {
      auto probe = initial_state(4).to(device);
      model(probe);
    }
    optimizer.zero_grad();
    auto out = model(x.to(device, true) + state);
    (out.sum() * hot.sum() + zeros.sum() + pick.sum() + bias.sum() +
     mask.sum())
        .backward();
    optimizer.step();
    counts += 1;
  }
}
