// RUN: %check_libtorch_tidy %s libtorch-loop-invariant-setup %t

#include <torch/torch.h>

#include <cstddef>
#include <memory>

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

#define MOVE_MODEL(m, d) (m)->to(d)

// Moved in a helper called once, before training: fine.
void place(Net &model, torch::Device device) { model->to(device); }

void train(Net &model, torch::Device device, int epochs, int steps) {
  place(model, device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  auto loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  for (int epoch = 0; epoch < epochs; ++epoch) {
    // Once per epoch: fine.
    model->to(device);
    model->train();
    int step = 0;
    for (auto &batch : *loader) {
      ++step;
      model->to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to()' on a module runs on every training step and walks every parameter and buffer each time; move the model once, before the loop [libtorch-loop-invariant-setup]
      MOVE_MODEL(model, device);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'to()' on a module runs on every training step
      torch::optim::Adam fresh(model->parameters(), 1e-3);
      // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: an optimizer constructed on every training step is allocated again and loses its state (momentum, running averages) at each step; construct it once, before the loop [libtorch-loop-invariant-setup]
      at::globalContext().setBenchmarkCuDNN(true);
      // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'setBenchmarkCuDNN()' changes a global setting on every training step that only needs to be set once; set it before the loop [libtorch-loop-invariant-setup]
      torch::load(model, "model.pt");
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'torch::load' of a model or optimizer on every training step reads it from disk again and again; load it once, before the loop [libtorch-loop-invariant-setup]
      // Tensors' to() is a copy of this step's data, not setup.
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      // Loading a tensor is reading data.
      torch::Tensor extra;
      torch::load(extra, "extra.pt");
      // Under a periodic guard: fine.
      if (epoch == 0)
        model->to(device);
      if (step % 100 == 0)
        at::globalContext().setBenchmarkCuDNN(false);
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model->forward(data), target) + extra.sum();
      fresh.zero_grad();
      loss.backward();
      optimizer.step();
    }
  }
}

void train_many(Net &model, torch::Device device, int epochs) {
  // Setup before the loop: fine.
  model->to(device);
  auto optimizer = std::make_shared<torch::optim::SGD>(
      model->parameters(), torch::optim::SGDOptions(0.1));
  for (int epoch = 0; epoch < epochs; ++epoch) {
    // A data loader made per epoch: fine.
    auto loader = torch::data::make_data_loader(
        Points().map(torch::data::transforms::Stack<>()),
        torch::data::DataLoaderOptions().batch_size(8).workers(2));
    for (auto &batch : *loader) {
      auto again = std::make_shared<torch::optim::SGD>(
      // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: an optimizer constructed on every training step
          model->parameters(), torch::optim::SGDOptions(0.1));
      auto inner = torch::data::make_data_loader(
      // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'make_data_loader' on every training step builds a new loader (and starts its worker threads) for each batch; make it once, before the loop [libtorch-loop-invariant-setup]
          Points().map(torch::data::transforms::Stack<>()),
          torch::data::DataLoaderOptions().batch_size(8));
      optimizer->zero_grad();
      auto loss = model->forward(batch.data.to(device)).sum();
      loss.backward();
      optimizer->step();
      again->zero_grad();
      inner->join();
    }
  }
}
