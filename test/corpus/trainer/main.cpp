#include "trainer.h"

#include <cmath>

// y = sum(sin(x)) + noise, 16 features.
struct Teacher : torch::data::datasets::Dataset<Teacher> {
  torch::Tensor x, y;
  explicit Teacher(int64_t n) : x(torch::randn({n, 16})), y(torch::sin(x).sum(1, true) + 0.1 * torch::randn({n, 1})) {}
  torch::data::Example<> get(size_t i) override { return {x[i], y[i]}; }
  torch::optional<size_t> size() const override { return x.size(0); }
};

int main(int argc, char **argv) {
  proj::TrainerConfig config;
  if (argc > 1)
    config.epochs = std::stoll(argv[1]);
  auto options = torch::data::DataLoaderOptions().batch_size(config.batch_size).workers(2).enforce_ordering(false);
  auto train = torch::data::make_data_loader(Teacher(20000).map(torch::data::transforms::Stack<>()), options);
  auto val = torch::data::make_data_loader(Teacher(2000).map(torch::data::transforms::Stack<>()), options);
  proj::Trainer trainer(proj::RegressionNet(16, 128), config); // OK: moved in Trainer's constructor
  const double mse = trainer.fit(train, val);
  std::cout << "final validation mse " << mse << " rmse " << std::sqrt(mse) << '\n';
  return mse < 1.0 ? 0 : 1;
}
