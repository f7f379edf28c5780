/* Batched too: a block comment before the includes is part of the
   prologue. */
#include <torch/torch.h>

#include <iomanip>

#ifdef SCALE
#error SCALE is net_a.cpp's: the batch let it through
#endif
#define SCALE 3

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * SCALE; }
};

int main() {
  Net net;
  float sum = net.forward(torch::ones({2})).sum().item<float>();
  std::cout << std::setw(4) << sum << "\n";
  return 0;
}
