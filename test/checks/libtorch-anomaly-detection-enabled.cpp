// RUN: %check_libtorch_tidy %s libtorch-anomaly-detection-enabled %t

#include <torch/torch.h>

struct Options {
  bool debug = false;
};

void train(torch::nn::Linear &model, torch::optim::SGD &optimizer,
           const torch::Tensor &x, const Options &options) {
  // Left on after debugging: the statement is deleted.
  torch::autograd::AnomalyMode::set_enabled(true);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'AnomalyMode::set_enabled(true)' enables autograd anomaly detection in training code: every forward op records a stack trace and every backward checks for NaNs, which slows each step; remove it once debugging is done [libtorch-anomaly-detection-enabled]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: enable it only behind a debug flag, e.g. 'torch::autograd::AnomalyMode::set_enabled(options.debug);'
  // CHECK-FIXES: {{^}}  // Left on after debugging: the statement is deleted.{{$}}
  // CHECK-FIXES-NEXT: {{^}}  //{{$}}
  for (int step = 0; step < 100; ++step) {
    torch::autograd::DetectAnomalyGuard guard;
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'DetectAnomalyGuard' enables autograd anomaly detection in training code
    optimizer.zero_grad();
    auto loss = model(x).sum();
    loss.backward();
    optimizer.step();
  }

  // Not flagged: switched off, or behind a flag the user controls.
  torch::autograd::AnomalyMode::set_enabled(false);
  torch::autograd::AnomalyMode::set_enabled(options.debug);
}

// Reached from the training loop: it trains too.
void one_step(torch::nn::Linear &model, torch::optim::SGD &optimizer,
              const torch::Tensor &x) {
  torch::autograd::DetectAnomalyGuard guard(/*check_nan=*/false);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'DetectAnomalyGuard' enables autograd anomaly detection in training code
  // A guard is a declaration: no fix-it.
  // CHECK-FIXES: {{^}}  torch::autograd::DetectAnomalyGuard guard(/*check_nan=*/false);{{$}}
  optimizer.zero_grad();
  auto loss = model(x).sum();
  loss.backward();
  optimizer.step();
}

void train_with_helper(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                       const torch::Tensor &x) {
  for (int step = 0; step < 100; ++step)
    one_step(model, optimizer, x);
}

// Calls a function that holds the training loop: the global mode stays on
// for all of it.
void run(torch::nn::Linear &model, torch::optim::SGD &optimizer,
         const torch::Tensor &x) {
  torch::autograd::AnomalyMode::set_enabled(true);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'AnomalyMode::set_enabled(true)' enables autograd anomaly detection in training code
  train_with_helper(model, optimizer, x);
}

// The sole body of an if: an empty block keeps the if valid.
void run_verbose(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                 const torch::Tensor &x, bool verbose) {
  if (verbose)
    torch::autograd::AnomalyMode::set_enabled(true);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'AnomalyMode::set_enabled(true)' enables autograd anomaly detection in training code
  // CHECK-FIXES: {{^}}    {}{{$}}
  train_with_helper(model, optimizer, x);
}

// Inside a larger expression or a macro: reported, not rewritten.
#define DEBUG_AUTOGRAD() torch::autograd::AnomalyMode::set_enabled(true)
void run_in_expression(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                       const torch::Tensor &x) {
  (torch::autograd::AnomalyMode::set_enabled(true), train_with_helper(model, optimizer, x));
  // CHECK-MESSAGES: :[[@LINE-1]]:4: warning: 'AnomalyMode::set_enabled(true)' enables autograd anomaly detection in training code
  // CHECK-FIXES: {{^}}  (torch::autograd::AnomalyMode::set_enabled(true), train_with_helper(model, optimizer, x));{{$}}
  DEBUG_AUTOGRAD();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'AnomalyMode::set_enabled(true)' enables autograd anomaly detection in training code
  // CHECK-FIXES: {{^}}  DEBUG_AUTOGRAD();{{$}}
}

// Not flagged: a gradient check that runs one backward pass and is never
// reached from a training loop.
bool gradients_are_finite(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::autograd::DetectAnomalyGuard guard;
  auto loss = model(x).sum();
  loss.backward();
  return true;
}

// Not flagged: a debug helper with no training in reach.
void debug_forward(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::autograd::AnomalyMode::set_enabled(true);
  model(x);
}

// Not flagged: an evaluation loop (no backward, no step).
void evaluate(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    torch::autograd::DetectAnomalyGuard guard;
    model(x);
  }
}
