// RUN: %check_libtorch_tidy %s libtorch-dataloader-no-workers %t

#include <torch/torch.h>

#include <cstddef>
#include <utility>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

torch::data::DataLoaderOptions optionsFromConfig();

void bareBatchSize() {
  auto loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()), 64);
  // CHECK-MESSAGES: :[[@LINE-2]]:30: warning: data loader without worker threads loads every batch on the training thread while the GPU waits; add '.workers(4)' to its options [libtorch-dataloader-no-workers]
  // CHECK-FIXES: {{^}}      Points().map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions().batch_size(64).workers(4));{{$}}
}

void bareBatchSizeFromVariable(size_t batch) {
  auto loader = torch::data::make_data_loader(Points(), batch);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: data loader without worker
  // CHECK-FIXES: {{^}}  auto loader = torch::data::make_data_loader(Points(), torch::data::DataLoaderOptions().batch_size(batch).workers(4));{{$}}
}

void defaultedOptions() {
  auto loader = torch::data::make_data_loader(Points());
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: data loader without worker
  // CHECK-FIXES: {{^}}  auto loader = torch::data::make_data_loader(Points(), torch::data::DataLoaderOptions().workers(4));{{$}}
}

void chainWithoutWorkers() {
  auto loader = torch::data::make_data_loader<
      torch::data::samplers::SequentialSampler>(
      Points(), torch::data::DataLoaderOptions().batch_size(32).drop_last(true));
  // CHECK-MESSAGES: :[[@LINE-3]]:30: warning: data loader without worker
  // CHECK-FIXES: {{^}}      Points(), torch::data::DataLoaderOptions().batch_size(32).drop_last(true).workers(4));{{$}}
}

void explicitZeroWorkers() {
  auto loader = torch::data::make_data_loader(
      Points(), torch::data::DataLoaderOptions(16).workers(0));
  // CHECK-MESSAGES: :[[@LINE-2]]:30: warning: data loader set to '.workers(0)' loads every batch on the training thread while the GPU waits; use '.workers(4)' to prepare batches in worker threads [libtorch-dataloader-no-workers]
  // CHECK-FIXES: {{^}}      Points(), torch::data::DataLoaderOptions(16).workers(4));{{$}}
}

void optionsVariable() {
  auto options = torch::data::DataLoaderOptions().batch_size(8);
  // CHECK-FIXES: {{^}}  auto options = torch::data::DataLoaderOptions().batch_size(8).workers(4);{{$}}
  auto loader = torch::data::make_data_loader(Points(), options);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: data loader without worker
}

void optionsVariableSetToZeroLater() {
  torch::data::DataLoaderOptions options(8);
  options.workers(0);
  // CHECK-FIXES: {{^}}  options.workers(4);{{$}}
  auto loader = torch::data::make_data_loader(Points(), options);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: data loader set to '.workers(0)'
}

void directlyInitializedVariable() {
  torch::data::DataLoaderOptions options(8);
  auto loader = torch::data::make_data_loader(Points(), options);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: data loader without worker
  // CHECK-MESSAGES: :[[@LINE-3]]:34: note: set the worker threads after this declaration: 'options.workers(4);'
}

// A macro hides where the options are spelled: warn, but do not rewrite.
#define MAKE_LOADER(ds) torch::data::make_data_loader(ds, 64)
void inMacro() {
  auto loader = MAKE_LOADER(Points());
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: data loader without worker
  // CHECK-FIXES: {{^}}  auto loader = MAKE_LOADER(Points());{{$}}
}

// Leaving a pass early is fine without workers, but with workers the next
// pass throws: warn, and suggest instead of rewriting.
void breaksEarly() {
  auto loader = torch::data::make_data_loader(Points(), 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: data loader without worker
  // CHECK-FIXES: {{^}}  auto loader = torch::data::make_data_loader(Points(), 8);{{$}}
  for (int epoch = 0; epoch < 2; ++epoch) {
    int steps = 0;
    for (auto &batch : *loader) {
      for (int i = 0; i < 2; ++i)
        if (i == 1)
          break; // leaves the inner loop only
      if (++steps == 2)
        break;
      // CHECK-MESSAGES: :[[@LINE-1]]:9: note: no fix-it: this loop leaves the loader early, and with worker threads a new pass before the last one is exhausted throws
    }
  }
}

// Negative cases: the loader has workers, or we cannot know.

void workersFromVariable(size_t threads) {
  auto loader = torch::data::make_data_loader(
      Points(), torch::data::DataLoaderOptions().batch_size(8).workers(threads));
}

void workersSet() {
  auto loader = torch::data::make_data_loader(
      Points(), torch::data::DataLoaderOptions().batch_size(8).workers(2));
}

void workersSetLaterOnVariable() {
  auto options = torch::data::DataLoaderOptions().batch_size(8);
  options.workers(2);
  auto loader = torch::data::make_data_loader(Points(), options);
}

void optionsFromHelper() {
  auto loader = torch::data::make_data_loader(Points(), optionsFromConfig());
  auto again = torch::data::make_data_loader(
      Points(), optionsFromConfig().batch_size(16));
}

void optionsFromParameter(torch::data::DataLoaderOptions options) {
  auto loader = torch::data::make_data_loader(Points(), options);
}

void configure(torch::data::DataLoaderOptions &options);
void optionsEscapeByReference() {
  torch::data::DataLoaderOptions options(8);
  configure(options);
  auto loader = torch::data::make_data_loader(Points(), options);
}

void suppressed() {
  auto loader = torch::data::make_data_loader(Points(), 8); // NOLINT(libtorch-dataloader-no-workers)
}
