// Data-parallel training by hand: each worker averages its gradients with
// the others' through a small communicator with two backends. CUDA tensors
// go to a device collective by pointer, host tensors through a host buffer;
// neither waits for the GPU on the CUDA path. The loss is read back once
// per logging interval.
#include <torch/torch.h>

#include <cstring>
#include <iostream>
#include <vector>

namespace comm {
// As a collective library declares them: device memory in, device memory
// out, queued on the current stream.
void device_all_reduce(void *data, int64_t count);
// Sums host memory across workers.
void host_all_reduce(float *data, int64_t count);

class Communicator {
public:
  explicit Communicator(int world) : world_(world) {}

  void average(std::vector<torch::Tensor> &tensors) {
    for (auto &t : tensors) {
      if (t.is_cuda()) {
        device_all_reduce(t.data_ptr(), t.numel()); // OK: a pointer handed to the device
        t.div_(world_);
        continue;
      }
      buffer_.resize(t.numel());
      std::memcpy(buffer_.data(), t.data_ptr<float>(), sizeof(float) * t.numel()); // OK: a host tensor on this path
      host_all_reduce(buffer_.data(), t.numel());
      std::memcpy(t.data_ptr<float>(), buffer_.data(), sizeof(float) * t.numel()); // OK: written, not read
      t.div_(world_);
    }
  }

private:
  int world_;
  std::vector<float> buffer_;
};
} // namespace comm

float host_norm(const torch::Tensor &grad) {
  if (!grad.is_cpu())
    return 0.f;
  return grad.norm().item<float>(); // OK: only host tensors get here
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential net(torch::nn::Linear(32, 64), torch::nn::ReLU(), torch::nn::Linear(64, 1));
  net->to(device);
  torch::optim::SGD optimizer(net->parameters(), 0.01);
  comm::Communicator communicator(4);
  auto inputs = torch::randn({256, 32}, device);
  auto targets = torch::randn({256, 1}, device);

  for (int step = 0; step < 1000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto idx = torch::randint(0, 256, {32}, torch::TensorOptions().device(device).dtype(torch::kLong));
    auto loss = torch::mse_loss(net->forward(inputs.index_select(0, idx)), targets.index_select(0, idx));
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    std::vector<torch::Tensor> grads;
    for (auto &p : net->parameters())
      grads.push_back(p.grad());
    communicator.average(grads);
    optimizer.step();
    float first = host_norm(grads[0]);
    if (step % 100 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << " norm " << first << '\n'; // OK: every 100 steps
  }
}
