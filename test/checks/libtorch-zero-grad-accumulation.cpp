// RUN: %check_libtorch_tidy %s libtorch-zero-grad-accumulation %t

#include <torch/torch.h>

#include <iostream>

struct Net {
  torch::nn::Linear model{4, 2};
  torch::optim::SGD optimizer{model->parameters(), 0.1};
  torch::Tensor x = torch::zeros({8, 4});
};

// 1. step() every accum micro-batches, zero_grad() on every one.
void unguarded_zero_grad(Net &n, int accum) {
  for (int i = 0; i < 100; ++i) {
    n.optimizer.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'zero_grad()' runs on every micro-batch but 'step()' only every few: the gradients being accumulated are discarded before each step uses them; zero them right after 'step()' [libtorch-zero-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+7]]:7: note: the optimizer steps here, under a periodic guard
    // CHECK-FIXES: {{^}}void unguarded_zero_grad(Net &n, int accum) {
    // CHECK-FIXES-NEXT: {{^}}  for (int i = 0; i < 100; ++i) {
    // CHECK-FIXES-NEXT: {{^}}    //{{$}}
    auto loss = n.model(n.x).sum() / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      n.optimizer.step();
      // CHECK-FIXES: {{^}}      n.optimizer.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      n.optimizer.zero_grad();{{$}}
    }
  }
}

// 1, with the guarded block a single statement: no fix-it, a note.
void unguarded_single_statement(Net &n) {
  for (int i = 0; i < 100; ++i) {
    n.model->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'zero_grad()' runs on every micro-batch but 'step()' only every few
    // CHECK-MESSAGES: :[[@LINE+4]]:7: note: move the 'zero_grad()' call into this block, right after 'step()'
    auto loss = n.model(n.x).sum() / 4;
    loss.backward();
    if (i % 4 == 0)
      n.optimizer.step();
  }
}

// 1, inside a macro: no fix-it.
#define ZERO(o) o.zero_grad()
void unguarded_in_macro(Net &n) {
  for (int i = 0; i < 100; ++i) {
    ZERO(n.optimizer);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'zero_grad()' runs on every micro-batch
    // CHECK-FIXES: {{^}}    ZERO(n.optimizer);{{$}}
    auto loss = n.model(n.x).sum() / 4;
    loss.backward();
    if (i % 4 == 0) {
      n.optimizer.step();
    }
  }
}

// 2. zero_grad() between backward() and step().
void zero_between_backward_and_step(Net &n) {
  for (int i = 0; i < 100; ++i) {
    auto loss = n.model(n.x).sum();
    loss.backward();
    n.optimizer.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'zero_grad()' runs between 'backward()' and 'step()': the step applies zero gradients and the backward pass is wasted; zero the gradients before the forward pass or after 'step()' [libtorch-zero-grad-accumulation]
    n.optimizer.step();
  }
}

// 2, negative: a GAN step updates two models one after the other. The
// generator's zero_grad() follows the discriminator's backward() but also its
// step(): nothing is wasted.
struct Gan {
  torch::nn::Linear generator{4, 4};
  torch::nn::Linear discriminator{4, 1};
  torch::optim::Adam g_optimizer{generator->parameters(), 2e-4};
  torch::optim::Adam d_optimizer{discriminator->parameters(), 2e-4};
  torch::Tensor noise = torch::zeros({8, 4});
};
void gan_two_optimizers(Gan &g) {
  for (int i = 0; i < 100; ++i) {
    g.d_optimizer.zero_grad();
    auto d_loss = g.discriminator(g.generator(g.noise).detach()).mean();
    d_loss.backward();
    g.d_optimizer.step();

    g.g_optimizer.zero_grad();
    auto g_loss = g.discriminator(g.generator(g.noise)).mean();
    g_loss.backward();
    g.g_optimizer.step();
  }
}

// 3. No zero_grad() anywhere in the loop.
void never_zeroed(Net &n) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    n.optimizer.zero_grad(); // once per epoch: not enough
    for (int i = 0; i < 100; ++i) {
      auto loss = n.model(n.x).sum();
      loss.backward();
      n.optimizer.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'step()' runs in a loop that never zeroes the gradients: backward() adds to them, so each step applies the sum of all gradients so far; call 'optimizer.zero_grad()' once per step [libtorch-zero-grad-accumulation]
    }
  }
}

// 4. Correct structure, loss not divided by the count.
void undivided_loss(Net &n, int accum) {
  for (int i = 0; i < 100; ++i) {
    auto loss = torch::mse_loss(n.model(n.x), n.x.narrow(1, 0, 2));
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: gradients are accumulated over 'accum' micro-batches but the loss is not divided by it: each step applies the sum, multiplying the effective learning rate by 'accum'; backward 'loss / accum' [libtorch-zero-grad-accumulation]
    if ((i + 1) % accum == 0) {
      n.optimizer.step();
      n.optimizer.zero_grad();
    }
  }
}

// ---- Not flagged ----------------------------------------------------------

// Correct accumulation.
void correct_accumulation(Net &n, int accum) {
  for (int i = 0; i < 100; ++i) {
    auto loss = n.model(n.x).sum() / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      n.optimizer.step();
      n.optimizer.zero_grad();
    }
  }
}

// Correct accumulation, loss scaled in place.
void correct_accumulation_in_place(Net &n) {
  const int accum = 8;
  for (int i = 0; i < 100; ++i) {
    torch::Tensor loss = n.model(n.x).sum();
    loss = loss / accum;
    loss.backward();
    if (i % accum == accum - 1) {
      n.optimizer.step();
      n.model->zero_grad();
    }
  }
}

// A plain training loop, zeroing through the module.
void module_zero_grad_per_step(Net &n) {
  for (int i = 0; i < 100; ++i) {
    n.model->zero_grad();
    auto loss = n.model(n.x).sum();
    loss.backward();
    n.optimizer.step();
  }
}

// Zeroed after the step, with logging under a periodic guard.
void zero_after_step_with_logging(Net &n) {
  for (int i = 0; i < 100; ++i) {
    auto loss = n.model(n.x).sum();
    loss.backward();
    n.optimizer.step();
    n.optimizer.zero_grad();
    if (i % 10 == 0)
      std::cout << "step " << i << '\n';
  }
}

// Zeroed in a helper called in the loop.
void reset_gradients(Net &n) { n.optimizer.zero_grad(); }
void zero_in_helper(Net &n) {
  for (int i = 0; i < 100; ++i) {
    reset_gradients(n);
    auto loss = n.model(n.x).sum();
    loss.backward();
    n.optimizer.step();
  }
}

// Gradients reset by hand.
void manual_reset(Net &n) {
  for (int i = 0; i < 100; ++i) {
    auto loss = n.model(n.x).sum();
    loss.backward();
    n.optimizer.step();
    for (auto &p : n.model->parameters())
      p.mutable_grad().reset();
  }
}

// Gradients dropped by assignment.
void manual_assign(Net &n) {
  for (int i = 0; i < 100; ++i) {
    for (auto &p : n.model->parameters())
      if (p.grad().defined())
        p.mutable_grad() = torch::Tensor();
    auto loss = n.model(n.x).sum();
    loss.backward();
    n.optimizer.step();
  }
}

// zero_grad() under a condition we cannot order: no pattern-2 finding.
void conditional_zero(Net &n, bool restart) {
  for (int i = 0; i < 100; ++i) {
    n.optimizer.zero_grad();
    auto loss = n.model(n.x).sum();
    loss.backward();
    if (restart)
      n.optimizer.zero_grad();
    n.optimizer.step();
  }
}
