// Compiled alone: a #pragma (here one that silences a warning) would reach
// the files after it in a batch.
#include <torch/torch.h>

#pragma GCC diagnostic ignored "-Wunused-variable"

int main() {
  torch::Tensor unused = torch::zeros({3});
  return 0;
}
