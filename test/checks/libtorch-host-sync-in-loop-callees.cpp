// Syncs inside the functions a training step or an evaluation batch calls:
// reported at the sync, with a note at each call on the way.
// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop %t -- --header-filter=sync-callees '--config={CheckOptions: {libtorch-host-sync-in-loop.SyncFunctions: "metrics::log_scalar;flush;local_flush"}}' -- -I%S/Inputs

#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

#include "sync-callees.h"

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(8, 4))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

// A free loss function that logs its value.
torch::Tensor detection_loss(const torch::Tensor &out,
                             const torch::Tensor &target) {
  auto loss = torch::mse_loss(out, target);
  std::cout << "box loss " << loss.item<float>() << '\n';
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
  // CHECK-MESSAGES: :[[@LINE+23]]:19: note: called here on every training step
  // CHECK-MESSAGES: :[[@LINE+16]]:12: note: called here on every training step
  return loss;
}

class Trainer {
public:
  Trainer(std::shared_ptr<Net> model, torch::Device device)
      : model_(std::move(model)), device_(device),
        optimizer_(model_->parameters(), torch::optim::SGDOptions(0.1)) {}

  // A member loss that counts the foreground pixels.
  torch::Tensor compute_loss(const torch::Tensor &out,
                             const torch::Tensor &target) {
    auto foreground = target.nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'nonzero()' has a data-dependent output size: it waits for the GPU on every training step
    // CHECK-MESSAGES: :[[@LINE+7]]:19: note: called here on every training step
    return detection_loss(out, target) + foreground.size(0) * 0.0;
  }

  void fit(const torch::Tensor &x, const torch::Tensor &y, int steps) {
    for (int step = 0; step < steps; ++step) {
      optimizer_.zero_grad();
      auto loss = compute_loss(model_->forward(x.to(device_)), y.to(device_));
      loss.backward();
      optimizer_.step();
    }
  }

private:
  std::shared_ptr<Net> model_;
  torch::Device device_;
  torch::optim::SGD optimizer_;
};

// A lambda stored in a local and called in the step.
void lambdaLoss(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
                const torch::Tensor &x, torch::Device device) {
  std::vector<float> history;
  auto criterion = [&](const torch::Tensor &out) {
    auto loss = out.pow(2).mean();
    history.push_back(loss.to(torch::kCPU).item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'to(torch::kCPU)' copies the tensor to the host and waits for the GPU on every training step
    return loss;
  };
  for (int i = 0; i < 10; ++i) {
    auto loss = criterion(model->forward(x.to(device)));
    // CHECK-MESSAGES: :[[@LINE-1]]:17: note: called here on every training step
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// Five calls deep: the step calls a loss, the loss its parts, down to the
// logger.
void logValue(const torch::Tensor &t) { std::cout << t.item<double>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'item<double>()' copies the value to the host and waits for the GPU on every training step
// CHECK-MESSAGES: :[[@LINE+27]]:17: note: called here on every training step
// CHECK-MESSAGES: :[[@LINE+10]]:55: note: called here on every training step
// CHECK-MESSAGES: :[[@LINE+8]]:55: note: called here on every training step
// CHECK-MESSAGES: :[[@LINE+6]]:55: note: called here on every training step
// CHECK-MESSAGES: :[[@LINE+2]]:3: note: called here on every training step
torch::Tensor level4(const torch::Tensor &t) {
  logValue(t);
  return t;
}
torch::Tensor level3(const torch::Tensor &t) { return level4(t) * 2; }
torch::Tensor level2(const torch::Tensor &t) { return level3(t) + 1; }
torch::Tensor level1(const torch::Tensor &t) { return level2(t).mean(); }

// Recursion: followed once, and the walk ends.
torch::Tensor pyramid(const torch::Tensor &t, int levels) {
  if (levels > 0 && t.sum().item<float>() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: branching on 'item<float>()' copies the value to the host and waits for the GPU on every training step
    // CHECK-MESSAGES: :[[@LINE+10]]:31: note: called here on every training step
    return t + pyramid(t / 2, levels - 1);
  return t;
}

void deepAndRecursive(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
                      std::shared_ptr<Detector> detector,
                      const torch::Tensor &x, torch::Device device) {
  for (int i = 0; i < 10; ++i) {
    auto out = model->forward(x.to(device));
    auto loss = level1(out) + pyramid(out, 3).mean() +
                detector->compute_loss(detector->forward(x), out);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// The same loss in a second training loop: still one finding per sync.
void secondLoop(Trainer &trainer, const torch::Tensor &x,
                const torch::Tensor &y) {
  for (int epoch = 0; epoch < 3; ++epoch)
    trainer.fit(x, y, 100);
}

// An evaluation batch that calls a metric helper.
int64_t correctOf(const torch::Tensor &out, const torch::Tensor &target) {
  return out.argmax(1).eq(target).sum().item<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'item<{{.*}}>()' copies the value to the host and waits for the GPU on every evaluation batch
}
int64_t evaluate(std::shared_ptr<Net> model, const torch::Tensor &x,
                 const torch::Tensor &y, torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  int64_t correct = 0;
  for (int b = 0; b < 10; ++b)
    correct += correctOf(model->forward(x.to(device)), y.to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: note: called here on every evaluation batch
  return correct;
}

// Negatives.

// Only before the loop and once per epoch.
float datasetScale(const torch::Tensor &x) { return x.abs().max().item<float>(); }
void calledOutsideTheStep(std::shared_ptr<Net> model,
                          torch::optim::SGD &optimizer, const torch::Tensor &x,
                          torch::Device device) {
  float scale = datasetScale(x.to(device));
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int i = 0; i < 100; ++i) {
      auto loss = model->forward(x.to(device) / scale).sum();
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
    scale = datasetScale(x.to(device));
  }
}

// Under a periodic guard inside the callee, or at the call.
void maybeLog(const torch::Tensor &loss, int step) {
  if (step % 100 == 0)
    std::cout << loss.item<float>() << '\n';
}
void printLoss(const torch::Tensor &loss) {
  std::cout << loss.item<float>() << '\n';
}
torch::Tensor guardedDeep(const torch::Tensor &t, int step) {
  if (step % 50 == 0)
    return level1(t);
  return t;
}
void guarded(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
             const torch::Tensor &x, torch::Device device) {
  for (int step = 0; step < 1000; ++step) {
    auto loss = model->forward(x.to(device)).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    maybeLog(loss, step);
    if (step % 100 == 0)
      printLoss(loss);
    guardedDeep(loss, step);
  }
}

// A callee that works on host tensors only.
float meanOfHistory(const std::vector<float> &values) {
  auto history = torch::tensor(values);
  return history.mean().item<float>();
}

// Functions whose bodies are elsewhere: only the listed ones are reported,
// at the call. A listed function whose body is here is followed instead.
void local_flush(const torch::Tensor &value) { value.sum(); }
void external(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
              metrics::Board &board, const torch::Tensor &x,
              torch::Device device) {
  std::vector<float> history;
  for (int step = 0; step < 100; ++step) {
    auto loss = model->forward(x.to(device)).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    metrics::log_scalar("loss", loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'metrics::log_scalar()' is listed in SyncFunctions: it waits for the GPU on every training step [libtorch-host-sync-in-loop]
    board.flush(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'flush()' is listed in SyncFunctions: it waits for the GPU on every training step
    metrics::record(loss);
    local_flush(loss);
    meanOfHistory(history);
  }
}

// The finding in the header comes last: clang-tidy sorts by file, and the
// copy of this file that the test analyzes is in the build tree.
// CHECK-MESSAGES: sync-callees.h:15:35: warning: 'nonzero()' has a data-dependent output size: it waits for the GPU on every training step [libtorch-host-sync-in-loop]
// CHECK-MESSAGES: :[[@LINE-107]]:17: note: called here on every training step
