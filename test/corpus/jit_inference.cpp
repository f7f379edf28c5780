// Batch inference with a TorchScript model exported from Python: load, move
// to the device once, run under InferenceMode, write top-1 classes.
#include <torch/script.h>

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " model.pt [cuda]\n";
    return 2;
  }
  const torch::Device device = (argc > 2 && std::string(argv[2]) == "cuda") ? torch::kCUDA : torch::kCPU;
  torch::jit::script::Module module;
  try {
    module = torch::jit::load(argv[1], device); // OK: loaded once, onto the device
  } catch (const c10::Error &e) {
    std::cerr << "cannot load " << argv[1] << ": " << e.what_without_backtrace() << '\n';
    return 1;
  }
  module.eval();
  c10::InferenceMode guard; // OK: no autograd during inference
  std::vector<int64_t> classes;
  for (int i = 0; i < 100; ++i) { // OK: guarded inference loop
    auto images = torch::rand({8, 3, 224, 224}, device); // OK: made on the device
    auto logits = module.forward({images}).toTensor();
    auto top1 = logits.argmax(1).cpu(); // EXPECT: libtorch-host-sync-in-loop
    for (int64_t j = 0; j < top1.size(0); ++j)
      classes.push_back(top1[j].item<int64_t>()); // OK: a host tensor
  }
  std::cout << classes.size() << " images classified\n";
}
