// RUN: %check_libtorch_tidy %s libtorch-blocking-host-to-device-copy %t

// A sampler that converts on the host before it copies: the 64-bit
// elements cross the bus. The note suggests copying first and converting
// on the device.

#include <torch/torch.h>

#include <cstdint>

struct Rollouts {
  torch::Tensor observations = torch::zeros({256, 4});
  torch::Tensor masks = torch::zeros({256}, torch::kBool);
  torch::Tensor actions = torch::zeros({256}, torch::kInt);
  torch::Device device{torch::kCUDA};

  torch::Tensor sample_masks(const torch::Tensor &idx) {
    return masks.index_select(0, idx).to(torch::kLong).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'to(device)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
    // CHECK-MESSAGES: :[[@LINE-2]]:39: note: the tensor is converted to 'Long' on the host before the copy, so 8 bytes per element cross the bus (unless it already is 'Long'); copy it first and convert on the device: 'masks.index_select(0, idx).to(device, /*non_blocking=*/true).to(torch::kLong)'
    // CHECK-FIXES: {{^}}    return masks.index_select(0, idx).to(torch::kLong).to(device, /*non_blocking=*/true);{{$}}
  }

  torch::Tensor sample_actions(const torch::Tensor &idx) {
    return actions.index_select(0, idx).toType(torch::kLong).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:62: warning: 'cuda()' copies to the GPU synchronously
    // CHECK-MESSAGES: :[[@LINE-2]]:41: note: the tensor is converted to 'Long' on the host before the copy, so 8 bytes per element cross the bus (unless it already is 'Long'); copy it first and convert on the device: 'actions.index_select(0, idx).to(torch::kCUDA, /*non_blocking=*/true).to(torch::kLong)'
    // CHECK-FIXES: {{^}}    return actions.index_select(0, idx).toType(torch::kLong).to(torch::kCUDA, /*non_blocking=*/true);{{$}}
  }

  // A 4-byte target: from a wider source it would narrow the copy; no note.
  torch::Tensor sample_float_masks(const torch::Tensor &idx) {
    return masks.index_select(0, idx).to(torch::kFloat).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-MESSAGES-NOT: :[[@LINE-2]]:{{[0-9]+}}: note: the tensor is converted
  }
};

void train(Rollouts &rollouts, torch::nn::Linear &policy,
           torch::optim::SGD &optimizer) {
  for (int step = 0; step < 1000; ++step) {
    auto idx = torch::randint(256, {32}, torch::kLong);
    auto masks = rollouts.sample_masks(idx);
    auto actions = rollouts.sample_actions(idx);
    auto float_masks = rollouts.sample_float_masks(idx);
    // Already 64-bit: the conversion does nothing, no note.
    auto ids = torch::zeros({32}, torch::kLong);
    auto on_device = ids.to(torch::kLong).to(rollouts.device);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'to(rollouts.device)' copies to the GPU synchronously
    // CHECK-MESSAGES-NOT: :[[@LINE-2]]:{{[0-9]+}}: note: the tensor is converted
    auto logits = policy(rollouts.observations.index_select(0, idx).to(
        rollouts.device, /*non_blocking=*/true));
    auto loss = (logits.sum(1) * masks * float_masks).sum() +
                actions.sum() + on_device.sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}
