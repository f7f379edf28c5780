// RUN: %check_libtorch_tidy %s libtorch-host-sync-in-loop %t

// What follows an early `continue` or `break` runs whenever the skip does
// not: after `if (i % N != 0) continue;` every N steps, but after an
// integer equality (an empty batch, the end token) on every step but one.

#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

void train(torch::nn::Linear &model, torch::optim::SGD &optimizer,
           std::vector<torch::Tensor> &batches, torch::Device device) {
  for (int64_t step = 0; step < 1000; ++step) {
    auto x = batches[step % batches.size()].to(device, /*non_blocking=*/true);
    // A batch with no rows is skipped: everything after runs on the others.
    if (x.size(0) == 0)
      continue;
    auto loss = model(x).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::cout << loss.item<float>() << '\n';
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    if (step % 100 != 0)
      continue;
    // Every 100 steps: fine.
    std::cout << "loss " << loss.item<float>() << '\n';
  }
}
