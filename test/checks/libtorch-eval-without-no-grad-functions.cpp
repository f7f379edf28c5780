// RUN: %check_libtorch_tidy %s libtorch-eval-without-no-grad %t

// Evaluation functions without a loop of their own: the held-out set goes
// through the model in one forward pass, and the epoch loop of another
// function calls the evaluation. Whether autograd is off depends on the
// calls from that loop down to the forward pass.

#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

void train_epoch(Net &model, const std::vector<torch::Tensor> &batches,
                 torch::optim::SGD &optimizer) {
  model->train();
  for (const auto &x : batches) {
    optimizer.zero_grad();
    model->forward(x).pow(2).mean().backward();
    optimizer.step();
  }
}

// Called from the epoch loop with nothing around it.
void evaluate(Net &model, const torch::Tensor &x, const torch::Tensor &y) {
  model->eval();
  auto output = model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'evaluate' evaluates: it puts the model in eval mode and runs its forward pass with autograd on, and no caller on the path from the training loop turns gradients off; each call records a graph for a backward that never comes; declare 'torch::NoGradGuard no_grad;' at the top of the function [libtorch-eval-without-no-grad]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'eval()' switches dropout and batch norm to inference behaviour; it does not turn autograd off
  // CHECK-MESSAGES: :{{[0-9]+}}:5: note: the evaluation runs from this call in a training loop, with no guard around it
  std::printf("val loss %f\n", torch::mse_loss(output, y).item<double>());
}
// CHECK-FIXES: {{^}}void evaluate(Net &model, const torch::Tensor &x, const torch::Tensor &y) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}
// CHECK-FIXES-NEXT: {{^}}  model->eval();{{$}}

// Two calls down from the epoch loop, no guard on the way: every call of
// the chain is shown.
void score(Net &model, const torch::Tensor &x) {
  model->eval();
  double mean = model(x).mean().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'score' evaluates: {{.*}}
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'eval()' switches dropout
  // CHECK-MESSAGES: :{{[0-9]+}}:5: note: the evaluation runs from this call in a training loop, with no guard around it
  // CHECK-MESSAGES: :[[@LINE+4]]:3: note: called here, with no guard around the call
  std::printf("score %f\n", mean);
}
void report(Net &model, const torch::Tensor &x) {
  score(model, x);
  model->train();
}

// The same shape with a guard at its top: fine.
void evaluate_guarded(Net &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  model->eval();
  std::printf("%f\n", model->forward(x).mean().item<double>());
}

// Under InferenceMode: fine.
void evaluate_inference(Net &model, const torch::Tensor &x) {
  c10::InferenceMode guard;
  model->eval();
  std::printf("%f\n", model->forward(x).mean().item<double>());
}

// Guarded by its caller, around the call: fine.
void evaluate_in_caller(Net &model, const torch::Tensor &x) {
  model->eval();
  std::printf("%f\n", model->forward(x).mean().item<double>());
}

// Guarded two calls up: fine.
void evaluate_deep(Net &model, const torch::Tensor &x) {
  model->eval();
  std::printf("%f\n", model->forward(x).mean().item<double>());
}
void validate(Net &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  evaluate_deep(model, x);
}

// Called under a guard after training, and without one from the epoch
// loop: the call from the epoch loop records a graph on every epoch.
void evaluate_twice(Net &model, const torch::Tensor &x) {
  model->eval();
  std::printf("%f\n", model->forward(x).mean().item<double>());
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'evaluate_twice' evaluates: {{.*}}
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'eval()' switches dropout
  // CHECK-MESSAGES: :{{[0-9]+}}:5: note: the evaluation runs from this call in a training loop, with no guard around it
}

// Puts the model in eval mode only: no forward pass, nothing to report.
void set_eval(Net &model) { model->eval(); }

// Returns the output: a caller that trains may use it in its loss.
torch::Tensor predict(Net &model, const torch::Tensor &x) {
  model->eval();
  return model->forward(x);
}

// Writes the output into what its caller passed: the same.
void predict_into(Net &model, const torch::Tensor &x, torch::Tensor &out) {
  model->eval();
  out = model->forward(x);
}

// Switches back to train mode before the forward pass: not evaluation.
void warm_up(Net &model, const torch::Tensor &x) {
  model->eval();
  model->train();
  std::printf("%f\n", model->forward(x).mean().item<double>());
}

// Forward before eval(): the pass runs in train mode.
void forward_then_eval(Net &model, const torch::Tensor &x) {
  std::printf("%f\n", model->forward(x).mean().item<double>());
  model->eval();
}

// Sets the grad mode itself.
void evaluate_grad_mode(Net &model, const torch::Tensor &x) {
  torch::autograd::GradMode::set_enabled(false);
  model->eval();
  std::printf("%f\n", model->forward(x).mean().item<double>());
  torch::autograd::GradMode::set_enabled(true);
}

// Evaluates after training, called from main only once: not from a
// training loop.
void final_test(Net &model, const torch::Tensor &x) {
  model->eval();
  std::printf("%f\n", model->forward(x).mean().item<double>());
}

// A loop of its own: an evaluation loop, reported as such, once.
double evaluate_batches(Net &model, const std::vector<torch::Tensor> &xs) {
  model->eval();
  double total = 0;
  for (const auto &x : xs)
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on
    // CHECK-MESSAGES: :[[@LINE-4]]:10: note: 'eval()' switches dropout
    // CHECK-MESSAGES: :{{[0-9]+}}:5: note: the evaluation runs from this call in a training loop{{$}}
    total += model->forward(x).sum().item<double>();
  return total;
}

void fit(Net &model, const std::vector<torch::Tensor> &batches,
         const torch::Tensor &val_x, const torch::Tensor &val_y) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  torch::Tensor logits;
  for (int epoch = 0; epoch < 10; ++epoch) {
    train_epoch(model, batches, optimizer);
    evaluate(model, val_x, val_y);
    report(model, val_x);
    evaluate_guarded(model, val_x);
    evaluate_inference(model, val_x);
    {
      torch::NoGradGuard no_grad;
      evaluate_in_caller(model, val_x);
    }
    validate(model, val_x);
    evaluate_twice(model, val_x);
    set_eval(model);
    auto p = predict(model, val_x);
    predict_into(model, val_x, logits);
    warm_up(model, val_x);
    forward_then_eval(model, val_x);
    evaluate_grad_mode(model, val_x);
    evaluate_batches(model, batches);
    model->train();
  }
  torch::NoGradGuard no_grad;
  evaluate_twice(model, val_x);
}

int main() {
  Net model;
  std::vector<torch::Tensor> batches{torch::randn({8, 4})};
  auto x = torch::randn({8, 4});
  fit(model, batches, x, torch::randn({8, 1}));
  final_test(model, x);
}
