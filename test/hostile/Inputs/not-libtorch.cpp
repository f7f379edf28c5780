// Ordinary C++ that shares LibTorch's vocabulary (step, zero_grad, backward,
// item, to, cpu, workers) without using LibTorch: no check may fire.
#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

namespace sim {

struct Tensor {
  std::vector<double> values;
  double item() const { return values.empty() ? 0.0 : values.front(); }
  Tensor cpu() const { return *this; }
  Tensor to(int device, bool non_blocking = false) const { return *this; }
  void backward() {}
  bool defined() const { return !values.empty(); }
};

struct Optimizer {
  void zero_grad() {}
  void step() {}
};

struct Loader {
  int workers = 0;
  std::vector<Tensor> batches;
  std::vector<Tensor>::iterator begin() { return batches.begin(); }
  std::vector<Tensor>::iterator end() { return batches.end(); }
};

Loader make_data_loader(std::size_t batch_size) { return Loader{}; }

} // namespace sim

int main() {
  sim::Optimizer optimizer;
  sim::Loader loader = sim::make_data_loader(64);
  double total = 0;
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (sim::Tensor &batch : loader) {
      optimizer.zero_grad();
      sim::Tensor loss = batch.to(0).cpu();
      loss.backward();
      optimizer.step();
      total += loss.item();
      if (loss.item() < 1e-3)
        break;
      std::cout << "loss " << loss.item() << "\n";
    }
  }
  std::cout << total << std::endl;
  return 0;
}
