// RUN: %check_libtorch_tidy %s libtorch-blocking-host-to-device-copy %t

#include <torch/torch.h>

#include <cstddef>
#include <memory>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

using Loader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));

void train(Loader &loader, torch::Device device, torch::nn::Linear model,
           torch::optim::SGD &optimizer, torch::Tensor other) {
  model->to(device);
  auto constant = torch::ones({4}).to(device); // one-off setup: fine
  for (auto &batch : *loader) {
    auto data = batch.data.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'to(device)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
    // CHECK-MESSAGES: :[[@LINE-2]]:28: note: the copy overlaps with GPU work only from pinned memory
    // CHECK-FIXES: {{^}}    auto data = batch.data.to(device, /*non_blocking=*/true);{{$}}
    auto target = batch.target.to(device, false);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-FIXES: {{^}}    auto target = batch.target.to(device, true);{{$}}
    auto viaCuda = batch.data.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'cuda()' copies to the GPU synchronously
    // CHECK-FIXES: {{^}}    auto viaCuda = batch.data.to(torch::kCUDA, /*non_blocking=*/true);{{$}}
    auto typed = batch.data.to(device, torch::kFloat);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-FIXES: {{^}}    auto typed = batch.data.to(device, torch::kFloat, /*non_blocking=*/true);{{$}}
    auto literal = batch.target.to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'to(torch::kCUDA)' copies to the GPU synchronously
    // CHECK-FIXES: {{^}}    auto literal = batch.target.to(torch::kCUDA, /*non_blocking=*/true);{{$}}

    // Not flagged: already non-blocking, to the host, dtype only, already
    // on the device, following another tensor, made on the host only to be
    // copied (libtorch-tensor-created-off-device: make it on the device).
    auto async = batch.data.to(device, /*non_blocking=*/true);
    auto host = data.to(torch::kCPU);
    auto asFloat = batch.data.to(torch::kFloat);
    auto noise = torch::randn({8, 4}, device).to(device);
    auto fresh = torch::randn({8, 4}).to(device);
    auto freshLike = torch::zeros_like(data.cpu()).to(device);
    auto again = data.cuda().to(device);
    auto like = batch.data.to(other);
    // Made from tensors already on the device (`data` was copied above):
    // they live there too, and the copy copies nothing.
    auto zerosLikeDevice = torch::zeros_like(data).to(device);
    auto stacked = torch::stack({data, noise}).to(device);
    auto scaled = (data * 2 + noise).to(device);
    auto activated = torch::relu(data).to(device);

    optimizer.zero_grad();
    auto loss = model(data).sum() + target.sum() + viaCuda.sum() +
                typed.sum() + literal.sum() + async.sum() + host.sum() +
                asFloat.sum() + noise.sum() + again.sum() + like.sum() +
                constant.sum() + fresh.sum() + freshLike.sum() +
                zerosLikeDevice.sum() + stacked.sum() + scaled.sum() +
                activated.sum();
    loss.backward();
    optimizer.step();
  }
}

// A CPU destination never gets non_blocking: a non-blocking device-to-host
// copy reads memory before it is written.
void cpuTarget(Loader &loader, torch::nn::Linear model,
               torch::optim::SGD &optimizer) {
  torch::Device cpu(torch::kCPU);
  for (auto &batch : *loader) {
    auto loss = model(batch.data.to(cpu)).sum();
    loss.backward();
    optimizer.step();
  }
}

// Evaluation is not a training step: out of scope (see the docs).
void evaluate(Loader &loader, torch::Device device, torch::nn::Linear model) {
  torch::NoGradGuard no_grad;
  for (auto &batch : *loader)
    model(batch.data.to(device));
}

#define TO_DEVICE(t) (t).to(device)
void inMacro(Loader &loader, torch::Device device, torch::nn::Linear model,
             torch::optim::SGD &optimizer) {
  for (auto &batch : *loader) {
    auto loss = model(TO_DEVICE(batch.data)).sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-FIXES: {{^}}    auto loss = model(TO_DEVICE(batch.data)).sum();{{$}}
    loss.backward();
    optimizer.step();
  }
}
