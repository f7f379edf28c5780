// One real-header variant: the plugin on the real headers runs in libtorch-tensor-created-off-device.cpp.
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-tensor-created-off-device %t
//
// A tensor rebuilt from host data that does not change, and copied to the
// device on every step: a constant table crossing the bus each time.

#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <vector>

static const float kMean[3] = {0.485f, 0.456f, 0.406f};
constexpr float kStd[3] = {0.229f, 0.224f, 0.225f};

void train(torch::Device device, torch::nn::Linear model,
           torch::optim::SGD &optimizer, const torch::Tensor &x,
           const torch::Tensor &y) {
  std::vector<float> class_weights = {1.0f, 2.0f, 0.5f};
  std::vector<float> anchors;
  for (int i = 0; i < 4; ++i)
    anchors.push_back(0.5f * i);
  const std::vector<int64_t> keep = {0, 2};
  for (int step = 0; step < 100; ++step) {
    auto w = torch::tensor(class_weights).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'torch::tensor' rebuilds a tensor from the constant host data 'class_weights' and 'to(device)' copies it to the GPU on every training step; make it on the device once, before the loop [libtorch-tensor-created-off-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: hoist it before this loop, e.g. 'const auto class_weights_on_device = torch::tensor(class_weights).to(device);', and use that tensor in the loop
    auto a = torch::from_blob(anchors.data(), {4}).clone().to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:60: warning: 'torch::from_blob' rebuilds a tensor from the constant host data 'anchors' and 'to(device)' copies it
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: hoist it before this loop, e.g. 'const auto anchors_on_device = torch::from_blob(anchors.data(), {4}).clone().to(device);'
    auto mean =
        torch::from_blob(const_cast<float *>(kMean), {3}).to(device, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: 'torch::from_blob' rebuilds a tensor from the constant host data 'kMean' and 'to(device, true)' copies it
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: hoist it
    auto std = torch::from_blob(const_cast<float *>(kStd), {3}).clone().cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: 'torch::from_blob' rebuilds a tensor from the constant host data 'kStd' and 'cuda()' copies it
    // CHECK-MESSAGES: :[[@LINE-13]]:3: note: hoist it
    auto picked = torch::tensor(keep).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'torch::tensor' rebuilds a tensor from the constant host data 'keep' and 'to(device)' copies it
    // CHECK-MESSAGES: :[[@LINE-16]]:3: note: hoist it
    // Read in the loop, not changed: still constant.
    float total = class_weights[0] + class_weights.size() + anchors.at(1);
    optimizer.zero_grad();
    auto out = model(x.to(device, true).index_select(1, picked));
    torch::nll_loss((out - mean.sum()) / std.sum() * total, y.to(device, true),
                    w)
        .backward();
    optimizer.step();
    (void)a;
  }
}

// A constant table in a helper the step calls: a static tensor would do.
torch::Tensor normalize(const torch::Tensor &x, torch::Device device) {
  static const std::vector<float> mean = {0.5f, 0.5f, 0.5f};
  return x - torch::tensor(mean).to(device).view({1, 3});
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'torch::tensor' rebuilds a tensor from the constant host data 'mean' and 'to(device)' copies it to the GPU on every evaluation batch
  // CHECK-MESSAGES: :[[@LINE+8]]:11: note: called here on every evaluation batch
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: make it once, e.g. 'static const auto mean_on_device = torch::tensor(mean).to(device);' or a member set up before training, and use that tensor here
}

void evaluate(torch::Device device, torch::nn::Linear model,
              std::vector<torch::Tensor> &held_out) {
  torch::NoGradGuard no_grad;
  for (auto &batch : held_out)
    model(normalize(batch.to(device, true), device));
}

// Negatives: the data changes per step, or may.
void train_negatives(torch::Device device, torch::nn::Linear model,
                     torch::optim::SGD &optimizer, const torch::Tensor &x,
                     const std::vector<float> &given) {
  std::vector<float> scales = {1.0f, 1.0f};
  std::vector<float> buffer(4);
  std::vector<float> aliased = {1.0f, 2.0f};
  float *cursor = aliased.data();
  std::vector<float> lambda_written = {0.0f};
  auto bump = [&] { lambda_written[0] += 1.0f; };
  std::vector<float> written_in_place = {1.0f, 2.0f};
  // Made once before the loop: the fix, not a finding.
  auto hoisted = torch::tensor(scales).to(device);
  for (int step = 0; step < 100; ++step) {
    std::vector<float> per_batch;
    for (int i = 0; i < 4; ++i)
      per_batch.push_back(step * 0.1f + i);
    auto fresh = torch::tensor(per_batch).to(device);
    const std::vector<float> computed = {step * 1.0f};
    auto c = torch::tensor(computed).to(device);
    scales[0] = step;
    auto s = torch::tensor(scales).to(device);
    std::fill(buffer.begin(), buffer.end(), step * 0.5f);
    auto b = torch::from_blob(buffer.data(), {4}).clone().to(device);
    cursor[0] = step;
    auto al = torch::tensor(aliased).to(device);
    bump();
    auto lw = torch::tensor(lambda_written).to(device);
    torch::from_blob(written_in_place.data(), {2}).mul_(2);
    auto wp = torch::tensor(written_in_place).to(device);
    auto g = torch::tensor(given).to(device);
    // Host data used on the host: nothing is copied.
    auto metrics = torch::tensor(scales).sum();
    optimizer.zero_grad();
    model(x.to(device, true)).sum().mul(fresh.sum() + c.sum() + s.sum() +
                                        b.sum() + al.sum() + lw.sum() +
                                        wp.sum() + g.sum() + hoisted.sum())
        .backward();
    optimizer.step();
    (void)metrics;
  }
}

// Values written in the call: tables in a loss that the step calls, rebuilt
// and copied on every step.
torch::Tensor weighted_loss(const torch::Tensor &logits, const torch::Tensor &y) {
  constexpr double kScale = 2.0;
  auto weights = torch::tensor({1.0, 2.0, 0.5}).to(logits.device());
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: 'torch::tensor' rebuilds a tensor from the constant host data '{1.0, 2.0, 0.5}' and 'to(logits.device())' copies it to the GPU on every training step; make it on the device once, before the loop [libtorch-tensor-created-off-device]
  // CHECK-MESSAGES: :[[@LINE+18]]:5: note: called here on every training step
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: make it once, e.g. 'static const auto table_on_device = torch::tensor({1.0, 2.0, 0.5}).to(logits.device());' or a member set up before training, and use that tensor here
  auto grid = torch::tensor({{-kScale, 0.0}, {0.0, kScale}}).to(logits.device());
  // CHECK-MESSAGES: :[[@LINE-1]]:62: warning: 'torch::tensor' rebuilds a tensor from the constant host data '{{.*}}-kScale, 0.0}, {0.0, kScale}}' and 'to(logits.device())' copies it
  // CHECK-MESSAGES: :[[@LINE+14]]:5: note: called here on every training step
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: make it once, e.g. 'static const auto table_on_device = torch::tensor({{.*}}-kScale, 0.0}, {0.0, kScale}}).to(logits.device());'
  // Negatives: a value computed per call, a scalar (no table).
  double margin = y.numel() * 0.1;
  auto shifted = torch::tensor({margin, 1.0}).to(logits.device());
  auto scale = torch::tensor(3.0).to(logits.device());
  return torch::nll_loss(logits * grid.sum() * shifted.sum() * scale, y, weights);
}

void train_literal_tables(torch::Device device, torch::nn::Linear model,
                          torch::optim::SGD &optimizer, const torch::Tensor &x,
                          const torch::Tensor &y) {
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    weighted_loss(model(x.to(device, true)), y.to(device, true)).backward();
    optimizer.step();
  }
}
