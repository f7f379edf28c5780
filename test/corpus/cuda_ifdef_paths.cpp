// A program with a CUDA build path behind #ifdef, as projects do when the same
// source builds against CPU-only and CUDA LibTorch. This corpus builds it
// without WITH_CUDA: the inactive branch is not analyzed.
#include <torch/torch.h>

#ifdef WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <iostream>

static torch::Device select_device() {
#ifdef WITH_CUDA
  if (torch::cuda::is_available())
    return torch::Device(torch::kCUDA, 0);
#endif
  return torch::Device(torch::kCPU); // OK: the CUDA path is compiled out here, not absent
}

static void release_cached_memory() {
#ifdef WITH_CUDA
  c10::cuda::CUDACachingAllocator::emptyCache();
#endif
}

int main() {
#ifdef WITH_CUDA
  at::globalContext().setBenchmarkCuDNN(true);
  at::globalContext().setAllowTF32CuBLAS(true);
#endif
  const torch::Device device = select_device();
  torch::nn::Sequential model(torch::nn::Linear(32, 64), torch::nn::ReLU(), torch::nn::Linear(64, 32));
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  auto inputs = torch::randn({4096, 32}, device); // OK: made on the device
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (int64_t i = 0; i < inputs.size(0); i += 256) { // OK: as built here the program names no CUDA device
      auto x = inputs.slice(0, i, i + 256);
      auto loss = (model->forward(x) - x).pow(2).mean();
      opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      opt.step();
    }
    release_cached_memory(); // OK: once per epoch
  }
  std::cout << "done on " << device << '\n';
}
