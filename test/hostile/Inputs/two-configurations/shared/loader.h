// Included by a/unit.cpp and b/unit.cpp, whose .clang-tidy files ask for
// different worker counts: each unit's fix-it for this loader differs.
#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

inline void train() {
  auto loader = torch::data::make_data_loader(Points(), 64);
}
