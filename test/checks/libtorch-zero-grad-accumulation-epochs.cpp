// RUN: %check_libtorch_tidy %s libtorch-zero-grad-accumulation %t

// Pattern 5: the accumulation counter runs across epochs while the epoch
// loop zeroes the gradients.

#include <torch/torch.h>

#include <vector>

struct Net {
  torch::nn::Linear model{4, 2};
  torch::optim::SGD optimizer{model->parameters(), 0.1};
  torch::Tensor x = torch::zeros({8, 4});
};

// A global micro-step counter, zero_grad() at the start of each epoch.
void global_counter(Net &n, int epochs, int batches, int accum) {
  int64_t global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'zero_grad()' runs once per epoch, but the counter 'global_step' that makes 'step()' run every 'accum' micro-batches is not reset per epoch: an epoch that ends inside a window loses its partial gradients here; reset 'global_step' at the start of each epoch, or step on the partial window before the epoch ends [libtorch-zero-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+4]]:11: note: 'global_step' is declared outside the epoch loop and counts across epochs
    for (int b = 0; b < batches; ++b) {
      auto loss = n.model(n.x).sum() / accum;
      loss.backward();
      if (++global_step % accum == 0) {
        n.optimizer.step();
        n.optimizer.zero_grad();
      }
    }
  }
}

// The same over a vector of batches, a member counter, and the zero_grad()
// at the end of the epoch.
struct Trainer {
  Net net;
  std::vector<torch::Tensor> batches;
  int step = 0;
  void fit(int epochs) {
    for (int epoch = 0; epoch < epochs; ++epoch) {
      for (auto &x : batches) {
        auto loss = net.model(x).sum() / 8;
        loss.backward();
        step++;
        if (step % 8 == 0) {
          net.optimizer.step();
          net.model->zero_grad();
        }
      }
      net.model->zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'zero_grad()' runs once per epoch, but the counter 'step' that makes 'step()' run every '8' micro-batches is not reset per epoch
    }
  }
};

// A constant batch count that the window does not divide (102 % 4 == 2).
void constant_batches_partial(Net &n, int epochs) {
  int global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'zero_grad()' runs once per epoch, but the counter 'global_step'
    for (int b = 0; b < 102; ++b) {
      (n.model(n.x).sum() / 4).backward();
      if ((global_step++ + 1) % 4 == 0) {
        n.optimizer.step();
        n.optimizer.zero_grad();
      }
    }
  }
}

// ---- Not flagged ----------------------------------------------------------

// The counter is declared in the epoch loop.
void counter_per_epoch(Net &n, int epochs, int batches, int accum) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    int micro = 0;
    for (int b = 0; b < batches; ++b) {
      (n.model(n.x).sum() / accum).backward();
      if (++micro % accum == 0) {
        n.optimizer.step();
        n.optimizer.zero_grad();
      }
    }
  }
}

// The batch loop's own index guards the step.
void batch_index(Net &n, int epochs, int batches, int accum) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    for (int b = 0; b < batches; ++b) {
      (n.model(n.x).sum() / accum).backward();
      if ((b + 1) % accum == 0) {
        n.optimizer.step();
        n.optimizer.zero_grad();
      }
    }
  }
}

// The counter is reset at the start of each epoch.
void counter_reset(Net &n, int epochs, int batches, int accum) {
  int64_t global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    global_step = 0;
    n.optimizer.zero_grad();
    for (int b = 0; b < batches; ++b) {
      (n.model(n.x).sum() / accum).backward();
      if (++global_step % accum == 0) {
        n.optimizer.step();
        n.optimizer.zero_grad();
      }
    }
  }
}

// The partial window is flushed at the end of the epoch.
void epoch_end_flush(Net &n, int epochs, int batches, int accum) {
  int64_t global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    for (int b = 0; b < batches; ++b) {
      (n.model(n.x).sum() / accum).backward();
      if (++global_step % accum == 0) {
        n.optimizer.step();
        n.optimizer.zero_grad();
      }
    }
    if (global_step % accum != 0) {
      n.optimizer.step();
      n.optimizer.zero_grad();
    }
  }
}

// No zero_grad() in the epoch loop: the window simply continues (the
// logging counter of many training scripts).
void no_epoch_zero_grad(Net &n, int epochs, int batches, int accum) {
  int64_t global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int b = 0; b < batches; ++b) {
      (n.model(n.x).sum() / accum).backward();
      if (++global_step % accum == 0) {
        n.optimizer.step();
        n.optimizer.zero_grad();
      }
    }
  }
}

// A constant batch count that is a multiple of the window: every epoch ends
// on a step.
void constant_batches_whole(Net &n, int epochs) {
  int global_step = 0;
  const int accum = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    for (int b = 0; b < 100; ++b) {
      (n.model(n.x).sum() / accum).backward();
      if (++global_step % accum == 0) {
        n.optimizer.step();
        n.optimizer.zero_grad();
      }
    }
  }
}
