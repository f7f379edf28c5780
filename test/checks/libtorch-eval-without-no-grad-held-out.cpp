// RUN: %check_libtorch_tidy %s libtorch-eval-without-no-grad %t

// A program that trains and then measures in one function, with no eval()
// call: the loop over the held-out loader, after the training, is an
// evaluation; loops that may train, or whose outputs a later backward may
// use, are not.

#include <torch/torch.h>

#include <cstddef>
#include <cstdio>

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
Loader loaderOf(Points points);

void trainThenTest(Net model, torch::optim::SGD &optimizer) {
  auto train_loader = loaderOf(Points());
  auto test_loader = loaderOf(Points());
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &batch : *train_loader) {
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model->forward(batch.data), batch.target);
      loss.backward();
      optimizer.step();
    }
  double correct = 0;
  for (auto &batch : *test_loader) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: evaluation loop runs the model with autograd on: every forward pass records a graph for a backward that never comes, costing GPU memory and time; declare 'torch::NoGradGuard no_grad;' before it [libtorch-eval-without-no-grad]
    auto output = model->forward(batch.data);
    correct += output.gt(0).sum().item<double>();
  }
  // The guard goes in the loop: the function trains.
  // CHECK-FIXES: {{^}}  for (auto &batch : *test_loader) {{[{]}}{{$}}
  // CHECK-FIXES: {{^}}    torch::NoGradGuard no_grad;{{$}}
  std::printf("%f\n", correct);
  // Walked again, under a guard this time: the loader is still held out.
  torch::NoGradGuard guard;
  for (auto &batch : *test_loader)
    correct += model->forward(batch.data).sum().item<double>();
  std::printf("%f\n", correct);
}

// The training loader walked again after the training: may be anything
// (a second pass that trains through a callee, statistics for a later
// step); not held-out data.
void secondPass(Net model, torch::optim::SGD &optimizer) {
  auto loader = loaderOf(Points());
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    torch::mse_loss(model->forward(batch.data), batch.target).backward();
    optimizer.step();
  }
  double total = 0;
  for (auto &batch : *loader)
    total += model->forward(batch.data).sum().item<double>();
  std::printf("%f\n", total);
}

void fitOn(Net model, torch::optim::SGD &optimizer,
           Loader::element_type &loader);

// The loader is handed to a function that may train on it.
void handedOver(Net model, torch::optim::SGD &optimizer) {
  auto first = loaderOf(Points());
  auto held = loaderOf(Points());
  for (auto &batch : *first) {
    optimizer.zero_grad();
    torch::mse_loss(model->forward(batch.data), batch.target).backward();
    optimizer.step();
  }
  fitOn(model, optimizer, *held);
  double total = 0;
  for (auto &batch : *held)
    total += model->forward(batch.data).sum().item<double>();
  std::printf("%f\n", total);
}

// Before the training: the outputs may be kept for it.
void warmUpFirst(Net model, torch::optim::SGD &optimizer) {
  auto warm = loaderOf(Points());
  auto train = loaderOf(Points());
  double total = 0;
  for (auto &batch : *warm)
    total += model->forward(batch.data).sum().item<double>();
  for (auto &batch : *train) {
    optimizer.zero_grad();
    torch::mse_loss(model->forward(batch.data), batch.target).backward();
    optimizer.step();
  }
  std::printf("%f\n", total);
}

// Under a guard: fine.
void guarded(Net model, torch::optim::SGD &optimizer) {
  auto train = loaderOf(Points());
  auto test = loaderOf(Points());
  for (auto &batch : *train) {
    optimizer.zero_grad();
    torch::mse_loss(model->forward(batch.data), batch.target).backward();
    optimizer.step();
  }
  torch::NoGradGuard no_grad;
  double total = 0;
  for (auto &batch : *test)
    total += model->forward(batch.data).sum().item<double>();
  std::printf("%f\n", total);
}
