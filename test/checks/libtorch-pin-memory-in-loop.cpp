// RUN: %check_libtorch_tidy %s libtorch-pin-memory-in-loop %t

#include <torch/torch.h>

#include <cstddef>

// Pinning in the dataset runs on the loader's worker threads: the remedy.
struct PinnedPoints : torch::data::datasets::Dataset<PinnedPoints> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}).pin_memory(), torch::zeros({1}).pin_memory()};
  }
  c10::optional<size_t> size() const override { return 64; }
};

using Loader = decltype(torch::data::make_data_loader(
    PinnedPoints().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));

void train(Loader &loader, torch::Device device, torch::nn::Linear model,
           torch::optim::SGD &optimizer, bool use_pinned) {
  // A reused pinned staging buffer, made once: fine.
  auto staging = torch::empty({8, 4}).pin_memory();
  for (auto &batch : *loader) {
    auto data = batch.data.pin_memory().to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'pin_memory()' on the training thread copies the batch into pinned memory right before the device copy, which is slower than copying it directly; remove it [libtorch-pin-memory-in-loop]
    // CHECK-MESSAGES: :[[@LINE-2]]:28: note: to overlap copies with GPU work, pin in the dataset's get() or a transform
    // CHECK-FIXES: {{^}}    auto data = batch.data.to(device, /*non_blocking=*/true);{{$}}
    auto pinned = batch.target.pin_memory();
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'pin_memory()' on the training thread
    // CHECK-FIXES: {{^}}    auto pinned = batch.target;{{$}}
    auto target = pinned.to(device, /*non_blocking=*/true);
    auto maybe = use_pinned ? batch.data.pin_memory() : batch.data;
    // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'pin_memory()' on the training thread
    // CHECK-FIXES: {{^}}    auto maybe = use_pinned ? batch.data : batch.data;{{$}}
    auto copied = maybe.to(device);

    // Pinned but never copied here: not this check's business.
    auto kept = batch.data.pin_memory();
    staging.copy_(batch.data);

    optimizer.zero_grad();
    auto loss = model(data).sum() + target.sum() + kept.sum() + copied.sum();
    loss.backward();
    optimizer.step();
  }
}
