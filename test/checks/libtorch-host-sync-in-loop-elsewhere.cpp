// Waits in functions whose bodies another translation unit holds, read from
// the summaries that unit's analysis exported (libtorch-tidy.SummaryFile).
// RUN: rm -f %t.summaries.json
// RUN: %libtorch_tidy --quiet --no-cache --checks='-*,libtorch-host-sync-in-loop' --export-summaries=%t.summaries.json %S/Inputs/sync-elsewhere-metrics.cpp -- %mock_flags
// RUN: %check_libtorch_tidy %s libtorch-host-sync-in-loop %t -- \
// RUN:   '--config={CheckOptions: {libtorch-tidy.SummaryFile: %t.summaries.json}}' -- -I%S/Inputs

#include <torch/torch.h>

#include "sync-elsewhere.h"

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor x, torch::Tensor y, metrics::Logger &logger,
           metrics::Sink &sink) {
  torch::Device device(torch::kCUDA);
  model->to(device);
  auto sum = torch::zeros({}, device);
  for (int step = 0; step < 100; ++step) {
    auto out = model(x);
    auto loss = torch::mse_loss(out, y);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    logger.update(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'update()', defined in another translation unit, waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: sync-elsewhere-metrics.cpp:18:64: note: 'item<float>()' waits for the GPU on each call here
    float acc = metrics::accuracy(out, y);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'metrics::accuracy()', defined in another translation unit, waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: sync-elsewhere-metrics.cpp:15:10: note: 'metrics::accuracy' calls 'metrics::(anonymous namespace)::correct' here
    // CHECK-MESSAGES: sync-elsewhere-metrics.cpp:10:41: note: 'item<float>()' waits for the GPU on each call here
    (void)acc;

    // Negatives: a wait under the callee's own condition, one kept on the
    // device, one in a lambda, a virtual call.
    metrics::log_if(loss, false);
    metrics::accumulate(sum, loss);
    (void)metrics::deferred(loss);
    sink.write(loss);
    // Every 100 steps: the caller's guard is seen as for a body in this unit.
    if (step % 100 == 0)
      logger.update(loss);
  }
}

// Not in a loop: called once.
void report(const torch::Tensor &loss, metrics::Logger &logger) {
  logger.update(loss);
}

// Evaluation: a function whose only wait takes the result to the host to
// write it is what the loop is for; one that reads a value is not.
void evaluate(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
              metrics::Logger &logger) {
  torch::NoGradGuard no_grad;
  model->eval();
  for (const auto &x : xs) {
    auto out = model(x);
    metrics::save(out, "out.txt");
    // Its summary lists the copy; on some calls it reads values too.
    metrics::draw(out, out);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'metrics::draw()', defined in another translation unit, waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
    logger.update(out.sum());
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'update()', defined in another translation unit, waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
  }
}
