// RUN: %check_libtorch_tidy %s libtorch-host-sync-in-loop %t

// A copy from a GPU tensor into host memory waits for the GPU as cpu()
// does: an element of a host tensor assigned a device tensor (Tensor's
// assignment to a view copies into it), copy_() into a host tensor,
// index_put_() of device values into one.

#include <torch/torch.h>

#include <cstdint>

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor x, torch::Device device) {
  model->to(device);
  auto history = torch::zeros({100});
  auto last = torch::zeros({4, 2});
  auto pinned =
      torch::empty({4, 2}, torch::TensorOptions().pinned_memory(true));
  auto on_device = torch::zeros({100}, device);
  for (int64_t step = 0; step < 100; ++step) {
    auto out = model(x.to(device, /*non_blocking=*/true));
    auto loss = out.pow(2).mean();
    history[step] = loss.detach();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'history[step] = loss.detach()' copies the tensor to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-2]]:19: note: accumulate on the device ('running_loss += loss.detach();') and read it every N steps under 'if (step % N == 0)'
    last.copy_(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'copy_()' copies the tensor to the host and waits for the GPU on every training step
    history.index_put_({step}, loss.detach());
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'index_put_()' copies the tensor to the host and waits for the GPU on every training step

    // Negatives: an asynchronous copy into pinned memory, a copy between
    // device tensors, a variable rebound (no copy), a scalar written (a
    // launch, not a wait), a destination that may be on the device.
    pinned.copy_(out, /*non_blocking=*/true);
    on_device[step] = loss.detach();
    auto row = history[step];
    row = loss.detach();
    history[step] = 0.5;
    x[0] = out.sum();

    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  // Once, after training: not per step.
  last.copy_(model(x.to(device, /*non_blocking=*/true)));
}
