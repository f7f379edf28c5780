// LibTorch's hidden syncs: operations that read device values back to the
// host to size their output (bincount, histc without a range,
// repeat_interleave without output_size) or select with a boolean mask.
// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop %t

#include <torch/torch.h>

#include <cstdint>

using torch::indexing::Slice;

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor x, torch::Tensor labels, torch::Tensor counts,
           torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    auto out = model(x.to(device));
    auto per_class = labels.bincount();
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'bincount()' reads values back to the host to size its output: it waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-2]]:29: note: count on the device with a known size: 'torch::zeros({num_bins}, options).index_add_(0, values, torch::ones_like(values))'
    auto sized = torch::bincount(labels, {}, 10);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'at::bincount()' reads values back to the host to size its output
    auto spread = out.histc(20);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'histc()' reads values back to the host to size its output
    // CHECK-MESSAGES: :[[@LINE-2]]:23: note: give 'min' and 'max'
    auto expanded = out.repeat_interleave(counts);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'repeat_interleave()' reads values back to the host to size its output
    // CHECK-MESSAGES: :[[@LINE-2]]:25: note: give 'output_size'
    auto offsets = torch::repeat_interleave(counts);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'at::repeat_interleave()' reads values back to the host to size its output
    auto valid = labels != -1;
    auto kept = out.index({valid});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index()' has a data-dependent output size: it waits for the GPU on every training step [libtorch-host-sync-in-loop]
    auto positive = out.index({Slice(), labels > 0});
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'index()' has a data-dependent output size
    auto finite = out.index({out.gt(0) & ~labels.eq(3)});
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'index()' has a data-dependent output size

    // Negatives: the size is known on the host.
    auto ranged = out.histc(20, 0, 1);
    auto repeated = out.repeat_interleave(2);
    auto given = out.repeat_interleave(counts, 0, 64);
    // Integer indices, slices and numbers select without a mask.
    auto picked = out.index({labels});
    auto rows = out.index({Slice(0, 4), 1});
    auto best = out.index({out.argmax(1)});
    (void)per_class, (void)sized, (void)spread, (void)expanded, (void)offsets;
    (void)kept, (void)positive, (void)finite, (void)ranged, (void)repeated;
    (void)given, (void)picked, (void)rows, (void)best;

    auto loss = out.sum();
    loss.backward();
    optimizer.step();
  }
}

// Negative: a mask selection once, after training.
void report(torch::nn::Linear model, torch::Tensor x) {
  auto out = model(x);
  auto wrong = out.index({out < 0});
  (void)wrong;
}
