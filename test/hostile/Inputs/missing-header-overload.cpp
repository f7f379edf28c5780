#include <torch/torch.h>
#include <project/loaders.h>

#include <cstddef>

// The project's header declares its own make_data_loader, which wins the
// unqualified call in train(). Where the header is not found, that call
// resolves to LibTorch's instead: a finding the complete program does not
// have, and a fix-it that would bypass the project's wrapper.
using namespace torch::data;

struct Points : datasets::Dataset<Points> {
  Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

void train() {
  auto loader = make_data_loader(Points(), 64);
  for (auto &batch : *loader)
    (void)batch;
}

// Named with its namespace: LibTorch's, with or without the header.
void evaluate() {
  auto loader = torch::data::make_data_loader(Points(), 64);
  for (auto &batch : *loader)
    (void)batch;
}
