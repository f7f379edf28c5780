// Batched: <torch/torch.h> first, then only #include <...> lines, and later
// only conditionals and macros of its own. It declares the same names as
// net_b.cpp, which the batch's namespaces keep apart, and a macro that
// net_b.cpp must not see.
#include <torch/torch.h>

#include <iostream>

#define SCALE 2

struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x) * SCALE; }
};

int main() {
  Net net;
  std::cout << net.forward(torch::ones({1, 4})) << "\n";
}
