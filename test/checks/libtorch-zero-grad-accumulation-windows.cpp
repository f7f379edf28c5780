// Accumulation windows: zero_grad() under the step's own condition, and an
// undivided loss whose sum the optimizer already makes up for.
// The plugin on the real headers runs in libtorch-zero-grad-accumulation.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-zero-grad-accumulation %t

#include <torch/torch.h>

#include <vector>

struct Net {
  torch::nn::Linear model{4, 2};
  torch::optim::SGD optimizer{model->parameters(), 0.1};
  torch::Tensor x = torch::zeros({8, 4});
};

// zero_grad() on the window's last micro-batch, before its backward().
void zero_on_last_micro_batch(Net &n, int accum) {
  for (int step = 0; step < 100; ++step) {
    if ((step + 1) % accum == 0)
      n.optimizer.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'zero_grad()' runs under the same condition as 'step()', before the window's last 'backward()': it discards the gradients of the micro-batches before it, so each step applies one micro-batch's; zero them after 'step()' or on the window's first micro-batch [libtorch-zero-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+4]]:7: note: the optimizer steps here, under the same condition
    auto loss = n.model(n.x).sum() / accum;
    loss.backward();
    if ((step + 1) % accum == 0)
      n.optimizer.step();
  }
}

// The same with braces and a counter advanced in the condition's place.
void zero_on_last_micro_batch_braced(Net &n, const std::vector<torch::Tensor> &xs) {
  const int accum_steps = 4;
  int micro = 0;
  for (const auto &x : xs) {
    ++micro;
    if (micro % accum_steps == 0) {
      n.optimizer.zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'zero_grad()' runs under the same condition as 'step()'
    }
    auto loss = n.model(x).sum() / accum_steps;
    loss.backward();
    if (micro % accum_steps == 0) {
      n.optimizer.step();
    }
  }
}

// Negative: zero_grad() on the window's first micro-batch is right.
void zero_on_first_micro_batch(Net &n, int accum) {
  for (int step = 0; step < 100; ++step) {
    if (step % accum == 0)
      n.optimizer.zero_grad();
    auto loss = n.model(n.x).sum() / accum;
    loss.backward();
    if ((step + 1) % accum == 0)
      n.optimizer.step();
  }
}

// Negative: the step comes first, then the zero_grad() of the next window.
void step_then_zero(Net &n, int accum) {
  for (int step = 0; step < 100; ++step) {
    if (step % accum == 0 && step > 0)
      n.optimizer.step();
    if (step % accum == 0 && step > 0)
      n.optimizer.zero_grad();
    auto loss = n.model(n.x).sum() / accum;
    loss.backward();
  }
}

// Negative: zero_grad() after the step, in the same block.
void zero_after_step(Net &n, int accum) {
  for (int step = 0; step < 100; ++step) {
    auto loss = n.model(n.x).sum() / accum;
    loss.backward();
    if ((step + 1) % accum == 0) {
      n.optimizer.step();
      n.optimizer.zero_grad();
    }
  }
}

// An undivided loss with plain SGD: the sum multiplies the step.
void undivided_sgd(Net &n, int accum) {
  for (int step = 0; step < 100; ++step) {
    auto loss = n.model(n.x).sum();
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: gradients are accumulated over 'accum' micro-batches but the loss is not divided by it
    if ((step + 1) % accum == 0) {
      n.optimizer.step();
      n.optimizer.zero_grad();
    }
  }
}

// Negative: the learning rate is divided by the same count.
void lr_divided(torch::nn::Linear model, torch::Tensor x, double base_lr,
                int accum) {
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(base_lr / accum));
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x).sum();
    loss.backward();
    if ((step + 1) % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// Negative: the same through a local learning rate and a member optimizer.
struct Trainer {
  Trainer(torch::nn::Linear m, double base_lr, int accum)
      : model(m), accum(accum),
        optimizer(model->parameters(), scaled(base_lr, accum)) {}
  static torch::optim::SGDOptions scaled(double base_lr, int accum) {
    return torch::optim::SGDOptions(base_lr);
  }
  void fit(torch::Tensor x) {
    for (int step = 0; step < 100; ++step) {
      auto loss = model(x).sum();
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: gradients are accumulated over 'accum' micro-batches but the loss is not divided by it
      if ((step + 1) % accum == 0) {
        optimizer.step();
        optimizer.zero_grad();
      }
    }
  }
  torch::nn::Linear model;
  int accum;
  torch::optim::SGD optimizer;
};

void lr_divided_local(torch::nn::Linear model, torch::Tensor x, int accum) {
  const double lr = 0.1 / accum;
  torch::optim::SGD optimizer(model->parameters(), lr);
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x).sum();
    loss.backward();
    if ((step + 1) % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// Negative: Adam normalizes the gradient's scale; the sum changes its update
// only through epsilon.
void adam_undivided(torch::nn::Linear model, torch::Tensor x, int accum) {
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x).sum();
    loss.backward();
    if ((step + 1) % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
