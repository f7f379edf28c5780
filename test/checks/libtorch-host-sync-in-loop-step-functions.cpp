// A training step with no loop in this translation unit: a library's
// train_step() / update() / learn() runs backward() and an optimizer's
// step(), and its callers are elsewhere (another unit, Python bindings, a
// callback). What it runs, it runs once per step.
// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop,libtorch-blocking-host-to-device-copy,libtorch-tensor-created-off-device %t

#include <torch/torch.h>

#include <functional>
#include <iostream>
#include <memory>
#include <vector>

struct Policy : torch::nn::Module {
  Policy() : fc(register_module("fc", torch::nn::Linear(8, 4))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

// Exported to Python: each call from the bindings is one step.
float train_step(Policy &model, torch::optim::Adam &optimizer,
                 const torch::Tensor &inputs, const torch::Tensor &targets,
                 torch::Device device) {
  auto x = inputs.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'to(device)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'train_step' runs a training step: it calls backward() and an optimizer's step(), with no loop around them, and nothing in this translation unit calls it, so each call from outside is one step
  // CHECK-FIXES: {{^}}  auto x = inputs.to(device, /*non_blocking=*/true);{{$}}
  auto weights = torch::ones({4}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'torch::ones' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step; pass the device to 'torch::ones' to create it there [libtorch-tensor-created-off-device]
  optimizer.zero_grad();
  auto loss = (model.forward(x) - targets.to(device, /*non_blocking=*/true))
                  .pow(2)
                  .mul(weights)
                  .mean();
  loss.backward();
  optimizer.step();
  return loss.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
}

// A reinforcement-learning agent: learn() is called by the environment
// loop of another unit; update() is the gradient step it runs.
class Agent {
public:
  explicit Agent(torch::Device device)
      : device_(device), policy_(std::make_shared<Policy>()),
        optimizer_(policy_->parameters(), torch::optim::SGDOptions(0.01)) {
    policy_->to(device_);
  }

  void learn(const torch::Tensor &states, const torch::Tensor &returns) {
    auto loss = update(states.to(device_, /*non_blocking=*/true),
                       returns.to(device_, /*non_blocking=*/true));
    if (loss.item<double>() > best_)
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: branching on 'item<double>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
      // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'learn' runs a training step
      best_ = 0.0;
  }

private:
  torch::Tensor update(const torch::Tensor &states,
                       const torch::Tensor &returns) {
    optimizer_.zero_grad();
    auto loss = (policy_->forward(states) - returns).abs().mean();
    loss.backward();
    auto norm = torch::nn::utils::clip_grad_norm_(policy_->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::nn::utils::clip_grad_norm_()' reads the total gradient norm back to the host (it returns a double) and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-16]]:17: note: called here on every training step
    (void)norm;
    optimizer_.step();
    return loss.detach();
  }

  torch::Device device_;
  std::shared_ptr<Policy> policy_;
  torch::optim::SGD optimizer_;
  double best_ = 1e9;
};

// The framework calls the lambda on every batch; its own loop is elsewhere.
void register_step(std::function<void(const torch::Tensor &)> step);

void fit(Policy &model, torch::optim::SGD &optimizer, torch::Device device) {
  register_step([&](const torch::Tensor &batch) {
    optimizer.zero_grad();
    auto loss = model.forward(batch.to(device, /*non_blocking=*/true)).mean();
    loss.backward();
    optimizer.step();
    std::cout << loss << '\n';
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: printing a tensor copies it to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-7]]:17: note: this lambda runs a training step
  });
}

// Negative: one step from main() is one step, not every step.
float warmup_step(Policy &model, torch::optim::SGD &optimizer,
                  const torch::Tensor &x, torch::Device device) {
  optimizer.zero_grad();
  auto loss = model.forward(x.to(device)).mean();
  loss.backward();
  optimizer.step();
  return loss.item<float>();
}

// Negative: only the backward half; the step() of the window may run
// every N calls, wherever the caller decides.
float accumulate(Policy &model, const torch::Tensor &x, torch::Device device) {
  auto loss = model.forward(x.to(device)).mean();
  loss.backward();
  return loss.item<float>();
}

// Negative: only the optimizer's half.
double apply_gradients(Policy &model, torch::optim::SGD &optimizer) {
  double norm = torch::nn::utils::clip_grad_norm_(model.parameters(), 1.0);
  optimizer.step();
  optimizer.zero_grad();
  return norm;
}

// Negative: the whole step loop inside; what follows it runs once per
// epoch.
float train_epoch(Policy &model, torch::optim::SGD &optimizer,
                  const std::vector<torch::Tensor> &batches,
                  torch::Device device) {
  auto total = torch::zeros({}, device);
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    auto loss = model.forward(batch.to(device, /*non_blocking=*/true)).mean();
    loss.backward();
    optimizer.step();
    total += loss.detach();
  }
  return total.item<float>();
}

// Negative: a step function that logs under a periodic guard.
class Learner {
public:
  void update(Policy &model, torch::optim::SGD &optimizer,
              const torch::Tensor &x) {
    optimizer.zero_grad();
    auto loss = model.forward(x).mean();
    loss.backward();
    optimizer.step();
    if (++updates_ % 100 == 0)
      std::cout << loss.item<float>() << '\n';
  }

private:
  long updates_ = 0;
};

// Negative: a template step called once, below; its pattern is not an
// entry point of its own.
template <typename Optimizer>
float probe_step(Policy &model, Optimizer &optimizer, const torch::Tensor &x) {
  optimizer.zero_grad();
  auto loss = model.forward(x).mean();
  loss.backward();
  optimizer.step();
  return loss.item<float>();
}

// Negative: a factory that builds the optimizer (inside the trainer it
// makes) and runs one warm-up step sets training up; it is not a step.
struct OwnTrainer {
  OwnTrainer()
      : model(std::make_shared<Policy>()),
        optimizer(model->parameters(), torch::optim::SGDOptions(0.1)) {}
  std::shared_ptr<Policy> model;
  torch::optim::SGD optimizer;
};

OwnTrainer *create_trainer(const torch::Tensor &x, torch::Device device) {
  auto *trainer = new OwnTrainer();
  trainer->model->to(device);
  trainer->optimizer.zero_grad();
  auto loss = trainer->model->forward(x.to(device)).mean();
  loss.backward();
  trainer->optimizer.step();
  std::cout << loss.item<float>() << '\n';
  return trainer;
}

int main() {
  torch::Device device(torch::kCUDA);
  Policy model;
  model.to(device);
  torch::optim::SGD optimizer(model.parameters(), 0.1);
  auto x = torch::randn({4, 8});
  std::cout << warmup_step(model, optimizer, x, device) << '\n';
  std::cout << probe_step(model, optimizer, x.to(device)) << '\n';
  // Negative: main() runs one step once.
  optimizer.zero_grad();
  auto loss = model.forward(x.to(device)).mean();
  loss.backward();
  optimizer.step();
  std::cout << loss.item<float>() << '\n';
}
