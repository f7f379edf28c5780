#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

void train() {
  // NOLINTNEXTLINE(libtorch-dataloader-no-workers)
  auto a = torch::data::make_data_loader(Points(), 64);
  auto b = torch::data::make_data_loader(Points(), 64); // NOLINT
  // NOLINTBEGIN(libtorch-*)
  auto c = torch::data::make_data_loader(Points(), 64);
  // NOLINTEND(libtorch-*)
  // NOLINTNEXTLINE(some-other-check)
  auto d = torch::data::make_data_loader(Points(), 64);
}
