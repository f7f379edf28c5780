// RUN: %check_libtorch_tidy %s libtorch-host-sync-in-loop %t

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <utility>

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({1}, torch::kLong)};
  }
  c10::optional<size_t> size() const override { return 64; }
};

torch::Device pickDevice() {
  return torch::Device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
}

// The classic MNIST-style loop: logging under a modulo guard is fine, the
// same read on every step is not.
void mnistStyle(torch::Device device, std::shared_ptr<Net> model,
                torch::optim::SGD &optimizer) {
  auto loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  const std::int64_t log_interval = 10;
  for (size_t epoch = 1; epoch <= 3; ++epoch) {
    size_t batch_idx = 0;
    float running = 0;
    for (auto &batch : *loader) {
      auto data = batch.data.to(device), targets = batch.target.to(device);
      optimizer.zero_grad();
      auto output = model->forward(data);
      auto loss = torch::nll_loss(output, targets);
      loss.backward();
      optimizer.step();
      if (batch_idx++ % log_interval == 0) {
        std::cout << "loss " << loss.item<float>() << std::endl;
      }
      running += loss.item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
      // CHECK-MESSAGES: :[[@LINE-2]]:23: note: accumulate on the device ('running_loss += loss.detach();') and read it every N steps under 'if (step % N == 0)'
      std::cout << loss << std::endl;
      // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: printing a tensor copies it to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
      if (loss.item<float>() < 1e-4f)
        // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: branching on 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
        break;
    }
    // Once per epoch, outside the step loop: fine.
    std::cout << "epoch " << epoch << " mean " << running / batch_idx
              << std::endl;
  }
}

// Metadata, dtype conversions and device moves do not wait.
void noWaits(torch::Device device, std::shared_ptr<Net> model,
             torch::optim::SGD &optimizer, torch::Tensor x, torch::Tensor y) {
  for (int step = 0; step < 100; ++step) {
    auto out = model->forward(x.to(device));
    auto loss = torch::mse_loss(out, y.to(torch::kFloat));
    loss.backward();
    optimizer.step();
    std::cout << out.sizes() << out.size(0) << out.numel() << out.dim()
              << out.defined() << std::endl;
    auto copy = out.to(device, /*non_blocking=*/true);
  }
}

// A while loop over the loader's iterators.
void whileLoop(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
               torch::Device device) {
  auto loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  auto it = loader->begin();
  while (it != loader->end()) {
    auto loss = model->forward(it->data.to(device)).sum();
    loss.backward();
    optimizer.step();
    torch::cuda::synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'torch::cuda::synchronize()' blocks the host until the GPU finishes, on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: remove it; synchronize only around timing code, every N steps
    ++it;
  }
}

// The sync happens at .cpu(); reading the host copy waits for nothing.
void hostCopy(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
              torch::Tensor x) {
  for (int step = 0; step < 100; ++step) {
    auto loss = model->forward(x).sum();
    loss.backward();
    optimizer.step();
    auto host = loss.detach().cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'cpu()' copies the tensor to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    float value = host.item<float>();
    float again = loss.cpu().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'cpu()' copies the tensor to the host
    auto mask = x.nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'nonzero()' has a data-dependent output size: it waits for the GPU on every training step [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-2]]:19: note: keep shapes fixed
    auto back = loss.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'to(torch::kCPU)' copies the tensor to the host
    (void)value;
    (void)again;
  }
}

// A state variable that only ever holds host tensors (made without a
// device), reassigned each step: reading it waits for nothing. One that is
// sometimes given a device tensor does wait.
void hostState(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
               torch::Device device) {
  auto state = torch::randn({4});
  auto mixed = torch::randn({4});
  for (int step = 0; step < 100; ++step) {
    auto loss = model->forward(state.to(device)).sum();
    loss.backward();
    optimizer.step();
    auto next_state = torch::randn({4});
    std::int64_t best = state.argmax().item<std::int64_t>();
    state = next_state;
    std::int64_t worst = mixed.argmin().item<std::int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'item<{{long|long long}}>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
    mixed = step % 2 ? next_state : loss.detach();
    (void)best;
    (void)worst;
  }
}

// A trainer whose fit() loop calls a train_step() member: the step function
// runs once per step, so its reads are per step too.
class Trainer {
public:
  Trainer(std::shared_ptr<Net> model, torch::Device device)
      : model_(std::move(model)), device_(device),
        optimizer_(model_->parameters(), torch::optim::SGDOptions(0.1)) {}

  float trainStep(torch::Tensor x, torch::Tensor y) {
    optimizer_.zero_grad();
    auto loss = torch::mse_loss(model_->forward(x.to(device_)), y.to(device_));
    loss.backward();
    optimizer_.step();
    return loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'item<float>()' copies the value to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
  }

  void fit(torch::Tensor x, torch::Tensor y, int steps) {
    for (int step = 0; step < steps; ++step)
      trainStep(x, y);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: note: called here on every training step
  }

  // Logging every N steps through the same kind of helper: fine.
  void report(torch::Tensor loss) { std::cout << loss.item<float>(); }
  void fitQuietly(torch::Tensor x, torch::Tensor y, int steps) {
    for (int step = 0; step < steps; ++step) {
      optimizer_.zero_grad();
      auto loss = torch::mse_loss(model_->forward(x), y);
      loss.backward();
      optimizer_.step();
      if (step % 50 == 0)
        report(loss);
    }
  }

private:
  std::shared_ptr<Net> model_;
  torch::Device device_;
  torch::optim::SGD optimizer_;
};

// A lambda as the step function, defined before the loop.
void lambdaStep(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
                torch::Tensor x, torch::Device device) {
  auto step = [&](const torch::Tensor &input) {
    auto loss = model->forward(input.to(device)).sum();
    loss.backward();
    optimizer.step();
    std::cout << "step loss " << loss.item<double>() << '\n';
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'item<double>()' copies the value to the host
  };
  for (int i = 0; i < 10; ++i)
    step(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: called here on every training step
}

// A logging macro with a modulo guard, and a flag guard: periodic.
#define LOG_EVERY_N(counter, n) if ((counter) % (n) == 0) std::cout
void macrosAndFlags(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
                    torch::Tensor x, bool verbose, torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    auto loss = model->forward(x.to(device)).sum();
    loss.backward();
    optimizer.step();
    LOG_EVERY_N(step, 100) << loss.item<float>() << '\n';
    if (verbose)
      std::cout << loss << '\n';
    if ((step + 1) % 25 == 0)
      std::cout << loss.item<float>() << '\n';
    if (step == 99)
      std::cout << "last " << loss.item<float>() << '\n';
  }
}

// Leaving the step early unless a periodic condition holds guards the rest.
void continueGuard(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
                   torch::Tensor x, torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    auto loss = model->forward(x.to(device)).sum();
    loss.backward();
    optimizer.step();
    if (step % 10 != 0)
      continue;
    std::cout << loss.item<float>() << '\n';
  }
}

// An evaluation loop waits on every batch as a training step does: a
// validation pass runs for minutes per epoch. What runs once, after the
// loop, is fine.
void evaluate(std::shared_ptr<Net> model, torch::Tensor x,
              torch::Device device) {
  torch::NoGradGuard no_grad;
  float total = 0;
  for (int i = 0; i < 10; ++i)
    total += model->forward(x.to(device)).sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: 'item<float>()' copies the value to the host and waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
  // CHECK-MESSAGES: :[[@LINE-2]]:49: note: accumulate on the device ('correct += pred.eq(target).sum();') and read it once, after the loop
  std::cout << total << model->forward(x).cpu() << '\n';
}

// A test() over the test loader, as the MNIST example writes it: the
// accuracy count read back per batch. Accumulated on the device and read
// once after the loop, nothing waits per batch.
using TestLoader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));
void test(std::shared_ptr<Net> model, TestLoader &loader,
          torch::Device device) {
  model->eval();
  std::int64_t correct = 0;
  double loss_sum = 0;
  auto correct_on_device = torch::zeros({}, device);
  for (const auto &batch : *loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    auto output = model->forward(data);
    loss_sum += torch::mse_loss(output, targets).item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: 'item<double>()' copies the value to the host and waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
    auto pred = output.argmax(1);
    correct += pred.eq(targets).sum().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'item<{{long|int64_t}}>()' copies the value to the host and waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
    correct_on_device += pred.eq(targets).sum();
  }
  std::cout << loss_sum << ' ' << correct << ' '
            << correct_on_device.item<int64_t>() << '\n';
}

void runTest(std::shared_ptr<Net> model, torch::Device device) {
  auto loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  test(model, loader, device);
}

// Evaluation on host tensors waits for nothing.
void evaluateOnHost(std::shared_ptr<Net> model, torch::Tensor x) {
  torch::NoGradGuard no_grad;
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    auto out = model->forward(x).cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'cpu()' copies the tensor to the host and waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
    total += out.sum().item<float>();
  }
  std::cout << total << '\n';
}

void suppressed(std::shared_ptr<Net> model, torch::optim::SGD &optimizer,
                torch::Tensor x) {
  for (int step = 0; step < 100; ++step) {
    auto loss = model->forward(x).sum();
    loss.backward();
    optimizer.step();
    float value = loss.item<float>(); // NOLINT(libtorch-host-sync-in-loop)
    (void)value;
  }
}
