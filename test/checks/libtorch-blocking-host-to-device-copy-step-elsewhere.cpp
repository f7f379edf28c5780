// Batches copied in a loop whose training step another translation unit
// defines, read from the summaries that unit's analysis exported
// (libtorch-tidy.SummaryFile).
// RUN: rm -f %t.summaries.json
// RUN: %libtorch_tidy --quiet --no-cache --checks='-*,libtorch-blocking-host-to-device-copy' --export-summaries=%t.summaries.json %S/Inputs/step-elsewhere-trainer.cpp -- %mock_flags
// RUN: %check_libtorch_tidy %s libtorch-blocking-host-to-device-copy %t -- \
// RUN:   '--config={CheckOptions: {libtorch-tidy.SummaryFile: %t.summaries.json}}' -- -I%S/Inputs

#include <torch/torch.h>

#include "step-elsewhere.h"

#include <cstddef>
#include <vector>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

using Loader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));

void train(Loader &loader, torch::Device device, trainer::Trainer &trainer) {
  for (auto &batch : *loader) {
    auto data = batch.data.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'to(device)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
    // CHECK-MESSAGES: :[[@LINE+4]]:13: note: 'trainer::Trainer::train_step()', defined in another translation unit, runs a training step: it calls backward() and an optimizer's step(), so this loop trains
    // CHECK-MESSAGES: :[[@LINE-3]]:28: note: the copy overlaps with GPU work only from pinned memory
    // CHECK-FIXES: {{^}}    auto data = batch.data.to(device, /*non_blocking=*/true);{{$}}
    auto target = batch.target.to(device, /*non_blocking=*/true);
    trainer.train_step(data, target);
  }
}

// Negatives: an epoch's loop in another unit, an evaluation loop.
void epochs(Loader &loader, torch::Device device, trainer::Trainer &trainer,
            const std::vector<torch::Tensor> &xs,
            const std::vector<torch::Tensor> &ys) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto weights = torch::ones({4}).to(device);
    trainer.train_epoch(xs, ys);
    (void)weights;
  }
}

void evaluate(Loader &loader, torch::Device device, trainer::Trainer &trainer) {
  torch::NoGradGuard no_grad;
  for (auto &batch : *loader)
    trainer.evaluate(batch.data.to(device, /*non_blocking=*/true),
                     batch.target.to(device, /*non_blocking=*/true));
}
