// RUN: %check_libtorch_tidy %s libtorch-per-element-device-write %t

#include <torch/torch.h>

#include <vector>

// A causal mask filled element by element on the GPU.
torch::Tensor causal_mask(int64_t n) {
  torch::Device device(torch::kCUDA);
  auto mask = torch::zeros({n, n}, torch::TensorOptions().device(device));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j <= i; ++j)
      mask[i][j] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: one scalar is written into a GPU tensor per iteration of a host loop: each write is a separate kernel launch (and the host-side indexing that makes its view), so filling N elements costs N launches [libtorch-per-element-device-write]
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: build the values on the host (a std::vector, then 'torch::from_blob(values.data(), sizes)' or 'torch::tensor(values)') and copy them once with '.to(device)', or compute them with one tensor operation
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: the host loop over the index
  return mask;
}

// Labels copied one by one into a tensor moved to the device, with
// index_put_, a compound assignment and fill_().
void labels(const std::vector<int64_t> &targets, torch::Device device) {
  const int64_t n = static_cast<int64_t>(targets.size());
  auto out = torch::empty({n}).to(device);
  for (int64_t i = 0; i < n; ++i) {
    out.index_put_({i}, targets[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: one scalar is written into a GPU tensor per iteration of a host loop
    out[i] += 0.5;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: one scalar is written into a GPU tensor per iteration of a host loop
    out[i].fill_(targets[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: one scalar is written into a GPU tensor per iteration of a host loop
  }
}

// A while loop over a counter, and a range-for that advances one.
void counters(const std::vector<float> &values) {
  auto out = torch::empty({8, 8}, torch::kCUDA);
  int k = 0;
  while (k < 64) {
    out[k / 8][k % 8] = values[k];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: one scalar is written into a GPU tensor per iteration of a host loop
    ++k;
  }
  int64_t n = 0;
  for (float v : values)
    out[0][n++] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: one scalar is written into a GPU tensor per iteration of a host loop
}

// ---- Not flagged ----------------------------------------------------------

// A host buffer, copied once.
torch::Tensor host_buffer(const std::vector<float> &values) {
  const int64_t n = static_cast<int64_t>(values.size());
  auto host = torch::empty({n});
  for (int64_t i = 0; i < n; ++i)
    host[i] = values[i];
  return host.to(torch::kCUDA);
}

// A single write, outside any loop.
void single_write(torch::Device device) {
  auto out = torch::zeros({4}, device);
  out[0] = 1;
}

// A whole row from a tensor: one copy per row, not per element.
void rows(const std::vector<torch::Tensor> &batch, torch::Device device) {
  const int64_t n = static_cast<int64_t>(batch.size());
  auto out = torch::empty({n, 16}, device);
  for (int64_t i = 0; i < n; ++i)
    out[i] = batch[i];
}

// The three channels of a colour: a constant trip count of at most 4.
void channels(torch::Device device) {
  const float mean[3] = {0.485f, 0.456f, 0.406f};
  auto pixel = torch::empty({3}, device);
  for (int c = 0; c < 3; ++c)
    pixel[c] = mean[c];
}

// A tensor we cannot place: a parameter.
void unknown_placement(torch::Tensor out, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = 0;
}

// One write per training step: one launch among the step's many.
struct Net {
  torch::nn::Linear model{4, 2};
  torch::optim::SGD optimizer{model->parameters(), 0.1};
};
void per_step(Net &net, torch::Device device, int steps) {
  auto history = torch::zeros({steps}, device);
  auto x = torch::randn({8, 4}, device);
  for (int step = 0; step < steps; ++step) {
    net.optimizer.zero_grad();
    auto loss = net.model(x).sum();
    loss.backward();
    net.optimizer.step();
    history[step] = 1.0;
  }
}
