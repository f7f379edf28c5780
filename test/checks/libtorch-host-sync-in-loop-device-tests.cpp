// Code that asks where a tensor is and takes another path for each answer:
// on the path a test keeps for host tensors, reading one waits for nothing.
// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop %t

#include <torch/torch.h>

#include <cstring>
#include <iostream>
#include <vector>

// A collective that takes device memory, and one that reduces host memory.
void device_all_reduce(void *data, int64_t count);
void host_all_reduce(float *data, int64_t count);

// Averages gradients across workers: CUDA tensors go to the collective as
// they are, host tensors through a host buffer.
void average_gradients(std::vector<torch::Tensor> &grads,
                       std::vector<float> &buffer) {
  for (auto &grad : grads) {
    if (grad.is_cuda()) {
      device_all_reduce(grad.data_ptr(), grad.numel());
      continue;
    }
    std::memcpy(buffer.data(), grad.data_ptr<float>(),
                sizeof(float) * grad.numel());
    host_all_reduce(buffer.data(), grad.numel());
  }
}

// The same choice as an early return, and as an else branch.
float host_total(const torch::Tensor &values) {
  if (values.device().is_cuda())
    return 0.0f;
  return values.sum().item<float>();
}

float either(const torch::Tensor &values) {
  if (values.is_cuda())
    return values.mean().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
  else
    return values.sum().item<float>();
}

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor x, torch::Device device) {
  std::vector<float> buffer(1024);
  for (int step = 0; step < 100; ++step) {
    auto out = model(x.to(device));
    auto loss = out.sum();
    optimizer.zero_grad();
    loss.backward();
    std::vector<torch::Tensor> grads;
    for (auto &p : model->parameters())
      grads.push_back(p.grad());
    average_gradients(grads, buffer);
    optimizer.step();
    float total = host_total(loss) + either(loss);
    if (!loss.is_cuda())
      total += loss.item<float>();
    if (loss.is_cpu()) {
      std::cout << loss << "\n";
    }
    // On the device: each of these waits.
    if (loss.is_cuda())
      total += loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    if (!loss.is_cpu() || step > 10)
      total += loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    (void)total;
  }
}
