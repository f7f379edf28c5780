// RUN: %check_libtorch_tidy %s libtorch-eval-without-no-grad %t

#include <torch/torch.h>

#include <cstddef>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(4, 4))),
        fc2(register_module("fc2", torch::nn::Linear(4, 1))) {}
  // A module's forward looping over its layers: runs in its caller's mode.
  torch::Tensor forward(torch::Tensor x) {
    for (auto *layer : {&fc1, &fc2})
      x = (*layer)(x);
    return x;
  }
  torch::nn::Linear fc1;
  torch::nn::Linear fc2;
};
TORCH_MODULE(Net);

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

using Loader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));

double evaluate(Net &model, Loader &loader, torch::Device device) {
  model->eval();
  double total = 0;
  for (auto &batch : *loader) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on: every forward pass records a graph for a backward that never comes, costing GPU memory and time; declare 'torch::NoGradGuard no_grad;' before it [libtorch-eval-without-no-grad]
    auto output = model->forward(batch.data.to(device));
    total += output.sum().item<double>();
  }
  return total;
}
// CHECK-FIXES: {{^}}double evaluate(Net &model, Loader &loader, torch::Device device) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}
// CHECK-FIXES-NEXT: {{^}}  model->eval();{{$}}

// Over a test loader, no eval(): still evaluation.
void predict(Net model, Loader &loader) {
  std::vector<double> scores;
  for (auto &batch : *loader)
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on
    scores.push_back(model(batch.data).sum().item<double>());
}
// CHECK-FIXES: {{^}}void predict(Net model, Loader &loader) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}
// CHECK-FIXES-NEXT: {{^}}  std::vector<double> scores;{{$}}

// The guard at function scope.
double evaluate_guarded(Net &model, Loader &loader) {
  torch::NoGradGuard no_grad;
  model->eval();
  double total = 0;
  for (auto &batch : *loader)
    total += model->forward(batch.data).sum().item<double>();
  return total;
}

// InferenceMode inside the loop.
void infer(Net &model, Loader &loader) {
  model->eval();
  for (auto &batch : *loader) {
    c10::InferenceMode guard;
    model->forward(batch.data);
  }
}

// AutoGradMode(false) in an enclosing block.
void infer_auto_grad_mode(Net &model, torch::Tensor data) {
  model->eval();
  {
    torch::AutoGradMode enable_grad(false);
    for (int i = 0; i < 4; ++i)
      model->forward(data);
  }
}

// A guard in a block that ended before the loop does not cover it.
void scoped_guard(Net &model, Loader &loader) {
  model->eval();
  {
    at::NoGradGuard no_grad;
    model->forward(torch::zeros({1, 4}));
  }
  for (auto &batch : *loader)
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on
    model->forward(batch.data);
}

// A guard that turns nothing off.
void enabled_guard(Net &model, Loader &loader) {
  torch::AutoGradMode enable_grad(true);
  model->eval();
  for (auto &batch : *loader)
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on
    model->forward(batch.data);
}

// The caller holds the guard.
double run_batches(Net &model, Loader &loader) {
  model->eval();
  double total = 0;
  for (auto &batch : *loader)
    total += model->forward(batch.data).sum().item<double>();
  return total;
}
double validate(Net &model, Loader &loader) {
  torch::NoGradGuard no_grad;
  return run_batches(model, loader);
}

// Outputs collected for a later loss: not evaluation.
void distill(Net &teacher, Net &student, Loader &loader,
             torch::optim::SGD &optimizer) {
  teacher->eval();
  std::vector<torch::Tensor> targets;
  for (auto &batch : *loader)
    targets.push_back(teacher->forward(batch.data));
  auto loss = student->forward(torch::zeros({1, 4})).sum() +
              torch::stack(targets).sum();
  loss.backward();
  optimizer.step();
}

// A forward per step inside the training loop (e.g. a second model): not
// an evaluation loop, even under a periodic guard.
void train(Net &model, Net &other, Loader &loader,
           torch::optim::SGD &optimizer, int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    model->train();
    size_t step = 0;
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      auto loss = model->forward(batch.data).sum();
      loss.backward();
      optimizer.step();
      if (++step % 100 == 0) {
        other->eval();
        for (int i = 0; i < 2; ++i)
          other->forward(batch.data);
      }
    }
    // Validation once per epoch, in a function that trains.
    model->eval();
    // CHECK-MESSAGES: :[[@LINE+2]]:5: warning: evaluation loop runs the model with autograd on
    double total = 0;
    for (auto &batch : *loader) {
      total += model->forward(batch.data).sum().item<double>();
    }
    // CHECK-FIXES: {{^}}    double total = 0;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    for (auto &batch : *loader) {{[{]}}{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::NoGradGuard no_grad;{{$}}
  }
}

// A plain loop over inputs with no eval() and no loader: not sure enough.
void run_twice(Net &model, torch::Tensor data) {
  for (int i = 0; i < 2; ++i)
    model->forward(data);
}

#define EVAL_ALL(m, l)                                                         \
  for (auto &b : *l)                                                           \
    m->forward(b.data);

void eval_macro(Net &model, Loader &loader) {
  model->eval();
  EVAL_ALL(model, loader)
}

// Template code is checked as written.
template <typename L> double evaluate_any(Net &model, L &loader) {
  model->eval();
  double total = 0;
  for (auto &batch : loader) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on
    torch::Tensor x = batch.data;
    total += model->forward(x).sum().template item<double>();
  }
  return total;
}
// CHECK-FIXES: {{^}}template <typename L> double evaluate_any(Net &model, L &loader) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}

double use_template(Net &model, Loader &loader) {
  return evaluate_any(model, *loader);
}

// A forward pass on a dependent argument is only resolved in the
// instantiations: reported once, at the template, with one fix-it, however
// many instantiations show it.
template <typename L>
float validate(Net &model, L &loader, const torch::Device &device) {
  model->eval();
  auto total = torch::zeros({}, device);
  for (auto &batch : *loader) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on
    total += model->forward(batch.data.to(device)).sum();
  }
  return total.template item<float>();
}
// CHECK-FIXES: {{^}}float validate(Net &model, L &loader, const torch::Device &device) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}
// CHECK-FIXES-NEXT: {{^}}  model->eval();{{$}}

using OtherLoader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(4)));
float use_validate(Net &model, Loader &loader, OtherLoader &other,
                   torch::Device device) {
  return validate(model, loader, device) + validate(model, other, device);
}

// The same shape of template, always called under a guard: silent.
template <typename L>
float validate_guarded(Net &model, L &loader, const torch::Device &device) {
  model->eval();
  auto total = torch::zeros({}, device);
  for (auto &batch : *loader)
    total += model->forward(batch.data.to(device)).sum();
  return total.template item<float>();
}
float use_validate_guarded(Net &model, Loader &loader, torch::Device device) {
  torch::NoGradGuard no_grad;
  return validate_guarded(model, loader, device);
}

// A templated training loop that is only known once instantiated.
template <typename L, typename O>
void train_any(Net &model, L &loader, O &optimizer) {
  model->eval();
  for (auto &batch : loader) {
    auto loss = model->forward(batch.data).sum();
    loss.backward();
    optimizer.step();
  }
}

void use_train(Net &model, Loader &loader, torch::optim::SGD &optimizer) {
  train_any(model, *loader, optimizer);
}

// Training in a helper, then evaluation: the guard goes into the loop body,
// where it cannot switch off the training.
void fit(Net &model, Loader &loader, torch::optim::SGD &optimizer) {
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    model->forward(batch.data).sum().backward();
    optimizer.step();
  }
}
double fit_and_score(Net &model, Loader &loader, torch::optim::SGD &optimizer) {
  fit(model, loader, optimizer);
  model->eval();
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: evaluation loop runs the model with autograd on
  double score = 0;
  for (auto &batch : *loader) {
    score += model->forward(batch.data).sum().item<double>();
  }
  return score;
}
// CHECK-FIXES: {{^}}  double score = 0;{{$}}
// CHECK-FIXES-NEXT: {{^}}  for (auto &batch : *loader) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    torch::NoGradGuard no_grad;{{$}}

// A function of another translation unit may train: same.
void train_elsewhere(Net &model);
void train_then_test(Net &model, Loader &loader) {
  train_elsewhere(model);
  model->eval();
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: evaluation loop runs the model with autograd on
  for (auto &batch : *loader) {
    model->forward(batch.data);
  }
}
// CHECK-FIXES: {{^}}  for (auto &batch : *loader) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    torch::NoGradGuard no_grad;{{$}}
// CHECK-FIXES-NEXT: {{^}}    model->forward(batch.data);{{$}}
