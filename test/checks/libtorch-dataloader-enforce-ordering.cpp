// RUN: %check_libtorch_tidy %s libtorch-dataloader-enforce-ordering %t

#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

void loaders(size_t threads, bool ordered) {
  auto a = torch::data::make_data_loader(
      Points(), torch::data::DataLoaderOptions().batch_size(8).workers(4));
  // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: data loader delivers batches in sampler order: one slow batch holds back the ready ones behind it; use '.enforce_ordering(false)' if batch order does not matter [libtorch-dataloader-enforce-ordering]
  // CHECK-FIXES: {{^}}      Points(), torch::data::DataLoaderOptions().batch_size(8).workers(4).enforce_ordering(false));{{$}}
  auto b = torch::data::make_data_loader(
      Points(),
      torch::data::DataLoaderOptions(8).workers(2).enforce_ordering(true));
  // CHECK-MESSAGES: :[[@LINE-3]]:25: warning: data loader delivers batches in sampler order
  // CHECK-FIXES: {{^}}      torch::data::DataLoaderOptions(8).workers(2).enforce_ordering(false));{{$}}
  auto c = torch::data::make_data_loader(
      Points(), torch::data::DataLoaderOptions(8).workers(threads));
  // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: data loader delivers batches in sampler order
  // CHECK-FIXES: {{^}}      Points(), torch::data::DataLoaderOptions(8).workers(threads).enforce_ordering(false));{{$}}

  // Not flagged: ordering already off or decided elsewhere, or no workers
  // (that is libtorch-dataloader-no-workers' finding).
  auto d = torch::data::make_data_loader(
      Points(),
      torch::data::DataLoaderOptions(8).workers(2).enforce_ordering(false));
  auto e = torch::data::make_data_loader(
      Points(),
      torch::data::DataLoaderOptions(8).workers(2).enforce_ordering(ordered));
  auto f = torch::data::make_data_loader(Points(), 8);
  auto g = torch::data::make_data_loader(
      Points(), torch::data::DataLoaderOptions(8).workers(0));
}
