// RUN: %clangxx_syntax_mock %s && %clangxx_syntax_real_pch %s
// CONFORMANCE: 1.13 2.15
//
// Conformance program for the mock LibTorch headers: the torch::data API
// (custom datasets, transforms, samplers, DataLoaderOptions, both
// make_data_loader overloads, the batch types seen by range-for loops).

#include <torch/torch.h>

#include <chrono>
#include <cstddef>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

// A custom map-style dataset, as users write them.
class RandomDataset : public torch::data::datasets::Dataset<RandomDataset> {
public:
  explicit RandomDataset(size_t n) : n_(n) {}

  torch::data::Example<> get(size_t index) override {
    auto data = torch::randn({3, 32, 32});
    auto target = torch::full({1}, static_cast<int64_t>(index % 10),
                              torch::kLong);
    return {data.pin_memory(), target};
  }

  torch::optional<size_t> size() const override { return n_; }

private:
  size_t n_;
};

// A dataset of single tensors without targets.
struct Features
    : torch::data::datasets::Dataset<Features, torch::data::TensorExample> {
  torch::data::TensorExample get(size_t index) override {
    return torch::ones({4}) * static_cast<double>(index);
  }
  c10::optional<size_t> size() const override { return 100; }
};

// A batch dataset that produces whole batches itself.
struct Batched : torch::data::datasets::BatchDataset<Batched> {
  std::vector<torch::data::Example<>>
  get_batch(c10::ArrayRef<size_t> request) override {
    std::vector<torch::data::Example<>> out;
    for (size_t i : request)
      out.emplace_back(torch::zeros({2}), torch::tensor({static_cast<int64_t>(i)}));
    return out;
  }
  torch::optional<size_t> size() const override { return 10; }
};

// A stateful (chunk-style) dataset: make_data_loader's third overload.
struct Stream : torch::data::datasets::StatefulDataset<Stream> {
  torch::optional<std::vector<torch::data::Example<>>>
  get_batch(size_t batch_size) override {
    if (remaining_ == 0)
      return torch::nullopt;
    --remaining_;
    return std::vector<torch::data::Example<>>(
        batch_size, {torch::zeros({2}), torch::ones({1})});
  }
  torch::optional<size_t> size() const override { return torch::nullopt; }
  void reset() override { remaining_ = 8; }
  void save(torch::serialize::OutputArchive &archive) const override {}
  void load(torch::serialize::InputArchive &archive) override {}

private:
  size_t remaining_ = 8;
};

int main() {
  torch::Device device(torch::kCUDA);

  // Mapped with Stack<>: batches are Example<> with stacked data/target.
  auto dataset = RandomDataset(1000).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 64);
  for (auto &batch : *loader) {
    auto x = batch.data.to(device, /*non_blocking=*/true);
    auto y = batch.target.to(device);
    std::cout << x.sizes() << y.numel() << std::endl;
  }

  // Explicit sampler as template argument and options chain.
  auto dataset2 = RandomDataset(100)
                      .map(torch::data::transforms::Lambda<torch::data::Example<>>(
                          [](torch::data::Example<> e) {
                            e.data = e.data * 2;
                            return e;
                          }))
                      .map(torch::data::transforms::Stack<>());
  auto loader2 =
      torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
          std::move(dataset2), torch::data::DataLoaderOptions()
                                   .batch_size(64)
                                   .workers(2)
                                   .max_jobs(8)
                                   .timeout(std::chrono::milliseconds(500))
                                   .enforce_ordering(false)
                                   .drop_last(true));
  for (torch::data::Example<> &batch : *loader2) {
    (void)batch.data.sum();
  }

  // Unmapped dataset: a batch is a std::vector<Example<>>.
  auto loader3 = torch::data::make_data_loader(
      RandomDataset(10), torch::data::DataLoaderOptions(4));
  for (std::vector<torch::data::Example<>> &batch : *loader3) {
    for (auto &example : batch)
      (void)example.data.to(device);
  }
  for (auto it = loader3->begin(); it != loader3->end(); ++it) {
    std::vector<torch::data::Example<>> &b = *it;
    (void)b.size();
  }

  // Three-argument overload with an explicit sampler object.
  auto loader4 = torch::data::make_data_loader(
      RandomDataset(10).map(torch::data::transforms::Stack<>()),
      torch::data::samplers::RandomSampler(10),
      torch::data::DataLoaderOptions().batch_size(2).workers(0));
  (void)loader4->options().workers;

  auto loader5 = torch::data::make_data_loader(
      RandomDataset(10).map(torch::data::transforms::Stack<>()),
      torch::data::samplers::DistributedRandomSampler(10, /*num_replicas=*/2,
                                                      /*rank=*/0),
      /*options=*/8);
  loader5->join();

  torch::data::DataLoaderOptions opts(32);
  opts.workers(4).enforce_ordering(false);
  size_t w = opts.workers();
  (void)w;

  // TensorExample datasets stack into a TensorExample.
  auto loader6 = torch::data::make_data_loader(
      Features().map(torch::data::transforms::Stack<torch::data::TensorExample>()),
      16);
  for (auto &batch : *loader6)
    (void)batch.data.cuda();

  // A BatchDataset used directly.
  auto loader7 = torch::data::make_data_loader(Batched(), 5);
  for (auto &batch : *loader7)
    (void)batch.front().target;

  // Stateful dataset: StatefulDataLoader, batches are the vector inside the
  // optional.
  auto loader8 = torch::data::make_data_loader(
      Stream(), torch::data::DataLoaderOptions().batch_size(4).workers(1));
  for (std::vector<torch::data::Example<>> &batch : *loader8)
    (void)batch.size();

  // TensorDataset.
  auto loader9 = torch::data::make_data_loader(
      torch::data::datasets::TensorDataset(torch::randn({100, 3})), 10);
  for (auto &batch : *loader9)
    (void)batch.front().data.to(device, /*non_blocking=*/true);

  torch::data::samplers::SequentialSampler seq(100);
  seq.reset();
  auto idx = seq.next(10);
  (void)idx;

  torch::data::Example<torch::Tensor, torch::Tensor> ex(torch::ones({1}),
                                                        torch::zeros({1}));
  (void)ex.target;
  return 0;
}
