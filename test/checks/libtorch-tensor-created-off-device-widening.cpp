// One real-header variant: the plugin on the real headers runs in libtorch-tensor-created-off-device.cpp.
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-tensor-created-off-device %t
//
// A narrow host tensor (uint8 images, int16 audio) converted to a wider
// element type on the host and then copied: the host converts, and the
// copy moves the wide tensor. Copied first and converted on the device,
// the narrow bytes cross the bus.

#include <torch/torch.h>

#include <cstdint>
#include <vector>

void train(torch::Device device, torch::nn::Linear model,
           torch::optim::SGD &optimizer, std::vector<uint8_t> &pixels,
           std::vector<int16_t> &samples) {
  for (int step = 0; step < 100; ++step) {
    auto images = torch::from_blob(pixels.data(), {8, 4}, torch::kUInt8);
    auto input = images.to(torch::kFloat).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'to(torch::kFloat)' converts the uint8 tensor to float32 in host memory and 'to(device)' copies 4x the bytes to the GPU on every training step; copy the uint8 tensor and convert it on the device [libtorch-tensor-created-off-device]
    // CHECK-FIXES: {{^}}    auto input = images.to(device).to(torch::kFloat);{{$}}
    auto audio = torch::from_blob(samples.data(), {8, 4},
                                  torch::TensorOptions().dtype(torch::kInt16));
    auto wave = audio.toType(torch::kFloat).to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 'toType(torch::kFloat)' converts the int16 tensor to float32 in host memory and 'to(device, /*non_blocking=*/true)' copies 2x the bytes
    // CHECK-FIXES: {{^}}    auto wave = audio.to(device, /*non_blocking=*/true).toType(torch::kFloat);{{$}}
    auto flipped = images.permute({1, 0}).to(torch::kFloat32).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: 'to(torch::kFloat32)' converts the uint8 tensor to float32 in host memory and 'cuda()' copies 4x the bytes
    // CHECK-FIXES: {{^}}    auto flipped = images.permute({1, 0}).cuda().to(torch::kFloat32);{{$}}
    // Arithmetic in between: a note with the order to write.
    auto scaled = images.to(torch::kFloat).div(255).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: 'to(torch::kFloat)' converts the uint8 tensor to float32 in host memory and 'to(device)' copies 4x the bytes
    // CHECK-MESSAGES: :[[@LINE-2]]:26: note: copy first, then convert on the device: 'images.to(device).to(torch::kFloat)', and the arithmetic after it
    auto half = torch::from_blob(samples.data(), {8, 4}, torch::kHalf);
    auto widened = half.unsqueeze(0).to(torch::kFloat).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'to(torch::kFloat)' converts the float16 tensor to float32 in host memory and 'to(device)' copies 2x the bytes
    // CHECK-FIXES: {{^}}    auto widened = half.unsqueeze(0).to(device).to(torch::kFloat);{{$}}
    optimizer.zero_grad();
    model(input + wave + flipped + scaled + widened).sum().backward();
    optimizer.step();
  }
}

// Negatives: the source's element type is unknown, or not narrower; the
// order is already right; the tensor stays on the host; the copy runs once;
// the narrow tensor is already on the device.
void negatives(torch::Device device, torch::nn::Linear model,
               torch::optim::SGD &optimizer, const torch::Tensor &batch,
               std::vector<float> &values, std::vector<uint8_t> &pixels) {
  auto once = torch::from_blob(pixels.data(), {8, 4}, torch::kUInt8)
                  .to(torch::kFloat)
                  .to(device);
  for (int step = 0; step < 100; ++step) {
    auto unknown = batch.to(torch::kFloat).to(device);
    auto floats = torch::from_blob(values.data(), {8, 4});
    auto default_type = floats.to(torch::kDouble).to(device);
    auto explicit_float =
        torch::from_blob(values.data(), {8, 4}, torch::kFloat);
    auto narrowed = explicit_float.to(torch::kHalf).to(device);
    auto images = torch::from_blob(pixels.data(), {8, 4}, torch::kUInt8);
    auto right_order = images.to(device).to(torch::kFloat);
    // The copy converts as well: not this finding.
    auto twice = images.to(torch::kFloat).to(device, torch::kFloat);
    auto host_mean = images.to(torch::kFloat).mean();
    auto on_gpu = torch::zeros({8, 4}, torch::TensorOptions(torch::kUInt8)
                                           .device(device))
                      .to(torch::kFloat)
                      .to(device);
    optimizer.zero_grad();
    model(unknown + default_type + narrowed + right_order + twice + on_gpu +
          once)
        .sum()
        .mul(host_mean)
        .backward();
    optimizer.step();
  }
}
