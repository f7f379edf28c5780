#include "util.h"

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

void train() {
  auto loader = torch::data::make_data_loader(Points(), 64);
  int *unused = 0;
  (void)unused;
}
