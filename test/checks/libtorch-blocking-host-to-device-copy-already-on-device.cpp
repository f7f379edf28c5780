// RUN: %check_libtorch_tidy %s libtorch-blocking-host-to-device-copy %t -- --header-filter=image-utils -- -I%S/Inputs

// `.to(device)` of a tensor that is on the device already moves nothing: a
// header helper that stacks the step's device tensors and moves the stack
// "to be sure", a module's own output. The same shapes given host tensors,
// or tensors the code may have moved back, are copies.

#include <torch/torch.h>

#include "image-utils.h"

#include <cstdint>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

// A helper of this file, given rows that may be on the host: it copies.
torch::Tensor gather_on(const std::vector<torch::Tensor> &rows,
                        torch::Device device) {
  return torch::stack(rows).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'to(device)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
  // CHECK-FIXES: {{^}}  return torch::stack(rows).to(device, /*non_blocking=*/true);{{$}}
}

void train(Net &model, torch::optim::SGD &optimizer, torch::Device device,
           const std::vector<torch::Tensor> &images, torch::Tensor targets) {
  model->to(device);
  for (int64_t step = 0; step < 1000; ++step) {
    // The crops are on the device: the helpers' copies move nothing.
    std::vector<torch::Tensor> crops;
    crops.reserve(4);
    for (int64_t i = 0; i < 4; ++i)
      crops.push_back(
          images[i].to(device, /*non_blocking=*/true).slice(1, 0, 8));
    auto batch = image_utils::stack_on(crops, device);
    auto image = images[0].to(device, /*non_blocking=*/true);
    auto first = image_utils::normalized_on(image, device);

    // The model's output on a device input is on the device.
    auto inputs = torch::stack(crops);
    auto logits = model(inputs);
    auto probs = logits.softmax(1).to(device);
    auto features = model->forward(inputs).detach().to(device);

    // Rows that may be on the host: copies.
    std::vector<torch::Tensor> rows;
    for (int64_t i = 0; i < 4; ++i)
      rows.push_back(images[i].slice(1, 0, 8));
    auto extra = gather_on(rows, device);
    auto raw = model(images[0]).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-FIXES: {{^}}    auto raw = model(images[0]).to(device, /*non_blocking=*/true);{{$}}
    // Views that a loop changes in place (here: back to the host).
    std::vector<torch::Tensor> views;
    views.push_back(inputs.slice(0, 0, 2));
    for (auto &view : views)
      view = view.cpu();
    auto back = torch::stack(views).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-FIXES: {{^}}    auto back = torch::stack(views).to(device, /*non_blocking=*/true);{{$}}

    auto loss = (logits - targets).pow(2).mean() + batch.sum() + first.sum() +
                probs.sum() + features.sum() + extra.sum() + raw.sum() +
                back.sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}
