// Uses what the precompiled header brings (torch, project.h) without
// including it: the header's text must be analyzed.
struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

void train() {
  auto loader = torch::data::make_data_loader(Points(), batchSize());
}
