// A loop whose training step another translation unit defines: the
// summaries that unit's analysis exported say that `train_step()` runs
// backward() and an optimizer's step() (libtorch-tidy.SummaryFile).
// RUN: rm -f %t.summaries.json
// RUN: %libtorch_tidy --quiet --no-cache --checks='-*,libtorch-host-sync-in-loop' --export-summaries=%t.summaries.json %S/Inputs/step-elsewhere-trainer.cpp -- %mock_flags
// RUN: %check_libtorch_tidy %s libtorch-host-sync-in-loop %t -- \
// RUN:   '--config={CheckOptions: {libtorch-tidy.SummaryFile: %t.summaries.json}}' -- -I%S/Inputs

#include <torch/torch.h>

#include "step-elsewhere.h"

#include <iostream>

void train(trainer::Trainer &trainer, torch::Tensor x, torch::Tensor y) {
  for (int step = 0; step < 1000; ++step) {
    auto loss = trainer.train_step(x, y);
    std::cout << loss.item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:25: note: 'trainer::Trainer::train_step()', defined in another translation unit, runs a training step: it calls backward() and an optimizer's step(), so this loop trains
    // CHECK-MESSAGES: :[[@LINE-3]]:23: note: accumulate on the device
  }
}

// A backward pass per iteration, in another unit: the loop trains, as with
// a body of this unit.
void micro_batches(torch::nn::Linear model,
                   const std::vector<torch::Tensor> &xs,
                   const std::vector<torch::Tensor> &ys) {
  for (size_t i = 0; i < xs.size(); ++i) {
    trainer::accumulate_gradients(model, xs[i], ys[i]);
    std::cout << xs[i].sum().item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: 'trainer::accumulate_gradients()', defined in another translation unit, calls backward(), so this loop trains
    // CHECK-MESSAGES: :[[@LINE-3]]:30: note: accumulate on the device
  }
}

// Called by nothing in this unit, and runs a step through train_step():
// each call from outside (a binding, a callback) is one step.
void train_once(trainer::Trainer &trainer, torch::Tensor x, torch::Tensor y) {
  auto loss = trainer.train_step(x, y);
  std::cout << loss.item<float>() << "\n";
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
  // CHECK-MESSAGES: :[[@LINE-4]]:6: note: 'train_once' runs a training step
  // CHECK-MESSAGES: :[[@LINE-3]]:21: note: accumulate on the device
}

// Negatives.
void epochs(trainer::Trainer &trainer, const std::vector<torch::Tensor> &xs,
            const std::vector<torch::Tensor> &ys) {
  // Each call runs a whole epoch (its own step loop): once per epoch.
  for (int epoch = 0; epoch < 10; ++epoch) {
    float total = trainer.train_epoch(xs, ys);
    auto mean = torch::tensor(total);
    std::cout << mean.item<float>() << "\n";
  }
}

void evaluate(trainer::Trainer &trainer, const std::vector<torch::Tensor> &xs,
              const std::vector<torch::Tensor> &ys) {
  // No update: an evaluation loop, whose batches the check's evaluation
  // rule judges (one read after the loop here).
  auto total = torch::zeros({});
  for (size_t i = 0; i < xs.size(); ++i)
    total += trainer.evaluate(xs[i], ys[i]);
  std::cout << total.item<float>() << "\n";
}

// One step, outside any loop, called once from main().
void warm_up(trainer::Trainer &trainer, torch::Tensor x, torch::Tensor y) {
  auto loss = trainer.train_step(x, y);
  std::cout << loss.item<float>() << "\n";
}


void log_every(trainer::Trainer &trainer, torch::Tensor x, torch::Tensor y) {
  for (int step = 0; step < 1000; ++step) {
    auto loss = trainer.train_step(x, y);
    if (step % 100 == 0)
      std::cout << loss.item<float>() << "\n";
  }
}

int main() {
  torch::Device device(torch::kCUDA);
  trainer::Trainer trainer;
  trainer.model = torch::nn::Linear(4, 1);
  trainer.model->to(device);
  warm_up(trainer, torch::ones({8, 4}, device), torch::ones({8, 1}, device));
}
