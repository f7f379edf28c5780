// RUN: %check_libtorch_tidy %s libtorch-eval-without-no-grad %t

// Evaluation as training programs write it: a test() function, a lambda or
// a vector of batches evaluated from the epoch loop after `model->eval()`
// (which does not turn autograd off), and images sampled every N steps
// inside the training loop.

#include <torch/torch.h>

#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
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

// Metrics of plain numbers carry no graph back to the training caller.
std::pair<double, double> test(Net &model, Loader &loader) {
  model->eval();
  double loss = 0;
  double correct = 0;
  for (auto &batch : *loader) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on: {{.*}} [libtorch-eval-without-no-grad]
    // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'eval()' switches dropout and batch norm to inference behaviour; it does not turn autograd off
    // CHECK-MESSAGES: :{{[0-9]+}}:28: note: the evaluation runs from this call in a training loop
    auto output = model->forward(batch.data);
    loss += torch::mse_loss(output, batch.target).item<double>();
    correct += output.gt(0).sum().item<double>();
  }
  return {loss, correct};
}
// CHECK-FIXES: {{^}}std::pair<double, double> test(Net &model, Loader &loader) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}

// Called from the epoch loop only under a guard: the callee is fine.
double valid(Net &model, Loader &loader) {
  model->eval();
  double loss = 0;
  for (auto &batch : *loader)
    loss += model->forward(batch.data).sum().item<double>();
  return loss;
}

// A vector of batches: eval() in the caller is the evidence.
double score(Net &model, const std::vector<torch::Tensor> &batches) {
  double total = 0;
  for (const auto &x : batches)
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on
    // CHECK-MESSAGES: :{{[0-9]+}}:12: note: 'eval()' switches dropout and batch norm to inference behaviour
    // CHECK-MESSAGES: :{{[0-9]+}}:5: note: the evaluation runs from this call in a training loop
    total += model->forward(x).sum().item<double>();
  return total;
}
// CHECK-FIXES: {{^}}double score(Net &model, const std::vector<torch::Tensor> &batches) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}

// The same, under InferenceMode.
double score_inference(Net &model, const std::vector<torch::Tensor> &batches) {
  c10::InferenceMode guard;
  double total = 0;
  for (const auto &x : batches)
    total += model->forward(x).sum().item<double>();
  return total;
}

// A vector of batches, no eval() anywhere, no loader: not sure enough.
double score_unknown(Net &model, const std::vector<torch::Tensor> &batches) {
  double total = 0;
  for (const auto &x : batches)
    total += model->forward(x).sum().item<double>();
  return total;
}

void train(Net &model, Net &generator, Net &critic, Loader &loader,
           std::vector<torch::Tensor> &held_out) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  torch::optim::SGD g_optimizer(generator->parameters(), 0.1);
  auto evaluate = [&]() {
    model->eval();
    double total = 0;
    for (auto &batch : *loader) {
      // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: evaluation loop runs the model with autograd on
      // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'eval()' switches dropout and batch norm to inference behaviour
      // CHECK-MESSAGES: :{{[0-9]+}}:5: note: the evaluation runs from this call in a training loop
      total += model->forward(batch.data).sum().item<double>();
    }
    return total;
  };
  // CHECK-FIXES: {{^}}      torch::NoGradGuard no_grad;{{$}}
  // CHECK-FIXES-NEXT: {{^}}      total += model->forward(batch.data).sum().item<double>();{{$}}
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    int64_t batch_index = 0;
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model->forward(batch.data), batch.target);
      loss.backward();
      optimizer.step();
      if (batch_index++ % 200 == 0) {
        auto noise = torch::randn({8, 4});
        auto samples = generator->forward(noise);
        // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: forward pass every few iterations of a training loop runs with autograd on, yet no backward pass uses its output: it records a graph and keeps its activations for nothing; declare 'torch::NoGradGuard no_grad;' at the top of its block [libtorch-eval-without-no-grad]
        std::printf("sample mean %f\n", samples.mean().item<float>());
      }
      // CHECK-FIXES: {{^}}      if (batch_index++ % 200 == 0) {{[{]}}{{$}}
      // CHECK-FIXES-NEXT: {{^}}        torch::NoGradGuard no_grad;{{$}}
      // CHECK-FIXES-NEXT: {{^}}        auto noise = torch::randn({8, 4});{{$}}
      if (batch_index % 100 == 0) {
        torch::NoGradGuard guard;
        auto samples = generator->forward(torch::randn({8, 4}));
        torch::save(samples, "samples.pt");
      }
      // A generator step every 5 steps: its forward feeds the backward.
      if (batch_index % 5 == 0) {
        g_optimizer.zero_grad();
        auto fake = generator->forward(torch::randn({8, 4}));
        auto g_loss = -critic->forward(fake).mean();
        g_loss.backward();
        g_optimizer.step();
      }
    }
    score_unknown(model, held_out);
    auto [loss, correct] = test(model, loader);
    {
      torch::NoGradGuard guard;
      valid(model, loader);
    }
    evaluate();
    model->eval();
    score(model, held_out);
    score_inference(model, held_out);
    std::printf("%f %f\n", loss, correct);
  }
}

// Outputs handed to a capture for a later loss: the lambda is inline code
// of distill(), which trains after it.
void distill(Net &teacher, Net &student, Loader &loader,
             torch::optim::SGD &optimizer) {
  std::vector<torch::Tensor> targets;
  auto collect = [&]() {
    teacher->eval();
    for (auto &batch : *loader)
      targets.push_back(teacher->forward(batch.data));
  };
  collect();
  auto loss = (student->forward(torch::zeros({1, 4})) -
               torch::stack(targets).mean())
                  .pow(2)
                  .sum();
  loss.backward();
  optimizer.step();
}

// Samples kept past the block may feed a later backward pass.
void train_keeping_samples(Net &generator, Loader &loader,
                           torch::optim::SGD &optimizer) {
  torch::Tensor last_samples = torch::zeros({8, 1});
  int64_t step = 0;
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto loss = (generator->forward(batch.data) - last_samples).pow(2).sum();
    loss.backward();
    optimizer.step();
    if (++step % 50 == 0) {
      last_samples = generator->forward(torch::randn({8, 4}));
    }
  }
}
