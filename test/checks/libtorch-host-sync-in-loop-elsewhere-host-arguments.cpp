// A function of another unit that reads a value of a tensor it is given
// waits for the GPU only when the call gives it a tensor on the GPU: sequence
// lengths kept on the host (pack_padded_sequence requires them there), a
// tensor just copied with `.cpu()`, are read without a wait.
// RUN: rm -f %t.summaries.json
// RUN: %libtorch_tidy --quiet --no-cache --checks='-*,libtorch-host-sync-in-loop' --export-summaries=%t.summaries.json %S/Inputs/sync-elsewhere-lengths.cpp -- %mock_flags
// RUN: %check_libtorch_tidy %s libtorch-host-sync-in-loop %t -- \
// RUN:   '--config={CheckOptions: {libtorch-tidy.SummaryFile: %t.summaries.json}}' -- -I%S/Inputs

#include <torch/torch.h>

#include "sync-elsewhere-lengths.h"

namespace rnn = torch::nn::utils::rnn;

void train(text::Decoder &decoder, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &tokens,
           const std::vector<torch::Tensor> &lengths_of,
           const torch::Tensor &target) {
  torch::Device device(torch::kCUDA);
  decoder.to(device);
  for (size_t i = 0; i < tokens.size(); ++i) {
    auto x = tokens[i].to(device);
    // The lengths stay on the host: packing throws on any other device.
    auto lengths = lengths_of[i].sub(1);
    auto packed = rnn::pack_padded_sequence(x, lengths, /*batch_first=*/true);
    auto out = decoder.forward(packed.data(), lengths);
    // Negatives: the lengths read where they live, given directly or
    // handed on.
    int64_t width = text::longest(lengths);
    width += text::padded_size(lengths, 8);
    // Positives: the same functions given tensors on the GPU.
    auto on_gpu = lengths.to(device);
    // Copied to the host first: the copy waits, the read does not.
    width += text::longest(on_gpu.cpu());
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'cpu()' copies the tensor to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    width += text::longest(on_gpu);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'text::longest()', defined in another translation unit, waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: sync-elsewhere-lengths.cpp:9:24: note: 'item<long>()' waits for the GPU on each call here
    width += text::padded_size(on_gpu, 8);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'text::padded_size()', defined in another translation unit, waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: sync-elsewhere-lengths.cpp:13:24: note: 'text::padded_size' calls 'text::longest' here
    // CHECK-MESSAGES: sync-elsewhere-lengths.cpp:9:24: note: 'item<long>()' waits for the GPU on each call here
    // A value computed from two tensors lives where either may: still a wait.
    width += text::shifted_first(lengths, on_gpu);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'text::shifted_first()', defined in another translation unit, waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: sync-elsewhere-lengths.cpp:19:33: note: 'item<long>()' waits for the GPU on each call here
    // The host argument is not the one read.
    float score = text::mean_score(out, lengths);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'text::mean_score()', defined in another translation unit, waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: sync-elsewhere-lengths.cpp:24:16: note: 'item<float>()' waits for the GPU on each call here
    auto loss = torch::mse_loss(out, target) * (width + score);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// Lengths that may live anywhere: the decoder's read is a wait.
void train_unpacked(text::Decoder &decoder, torch::optim::SGD &optimizer,
                    const torch::Tensor &x, const torch::Tensor &lengths,
                    const torch::Tensor &target) {
  for (int step = 0; step < 100; ++step) {
    auto out = decoder.forward(x, lengths);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'forward()', defined in another translation unit, waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: sync-elsewhere-lengths.cpp:31:33: note: 'item<long>()' waits for the GPU on each call here
    auto loss = torch::mse_loss(out, target);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}
