// Offline evaluation of a TorchScript checkpoint over a data loader, written
// without switching autograd off.
#include <torch/script.h>
#include <torch/torch.h>

#include <iostream>

struct Eval : torch::data::datasets::Dataset<Eval> {
  torch::data::Example<> get(size_t i) override {
    auto x = torch::randn({3, 64, 64});
    return {x, torch::tensor(static_cast<int64_t>(i % 5))};
  }
  torch::optional<size_t> size() const override { return 640; }
};

int main(int argc, char **argv) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto module = torch::jit::load(argc > 1 ? argv[1] : "classifier.pt");
  module.to(device);
  module.eval();
  auto loader = torch::data::make_data_loader(Eval().map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions(64).workers(2).enforce_ordering(false));
  int64_t correct = 0, total = 0;
  for (auto &batch : *loader) { // EXPECT: libtorch-eval-without-no-grad
    auto out = module.forward({batch.data.to(device)}).toTensor();
    correct += out.argmax(1).cpu().eq(batch.target).sum().item<int64_t>(); // EXPECT: libtorch-host-sync-in-loop
    total += batch.data.size(0);
  }
  std::cout << "accuracy " << static_cast<double>(correct) / total << '\n';
}
