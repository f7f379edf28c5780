// Batched, and it does not compile: the batch fails and names this file,
// which is compiled alone for its verdict; the others are batched again.
#include <torch/torch.h>

int main() {
  torch::Tensor x = torch::ones({2});
  return step_that_does_not_exist(x);
}
