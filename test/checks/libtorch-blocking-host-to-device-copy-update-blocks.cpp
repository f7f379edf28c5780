// RUN: %check_libtorch_tidy %s libtorch-blocking-host-to-device-copy %t

// Off-policy training steps its environment on every iteration and trains
// every few: the periodic block that holds the backward pass and the
// optimizer step is the training step, and a replay buffer sampled in it
// copies its batch on every step.

#include <torch/torch.h>

#include <cstdint>

struct Batch {
  torch::Tensor states, actions;
};

class ReplayBuffer {
public:
  ReplayBuffer(int64_t capacity, torch::Device device)
      : states_(torch::zeros({capacity, 8})),
        actions_(torch::zeros({capacity}, torch::kLong)), device_(device) {}

  Batch sample(int64_t n) {
    auto idx = torch::randint(size_, {n}, torch::kLong);
    return {states_.index_select(0, idx).to(device_),
            // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'to(device_)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
            // CHECK-MESSAGES: :{{[0-9]+}}:7: note: called here on every training step
            // CHECK-MESSAGES: :{{[0-9]+}}:19: note: called here on every training step
            // CHECK-MESSAGES: :{{[0-9]+}}:5: note: this block runs every few iterations, and each run is a training step: it holds the backward pass and the optimizer step
            // CHECK-MESSAGES: :[[@LINE-5]]:42: note: the copy overlaps with GPU work only from pinned memory
            actions_.index_select(0, idx).to(device_, /*non_blocking=*/true)};
  }
  // CHECK-FIXES: {{^}}    return {states_.index_select(0, idx).to(device_, /*non_blocking=*/true),{{$}}

  // Sampled only for a periodic report: runs less often than the steps.
  torch::Tensor probe(int64_t n) {
    return states_.slice(0, 0, n).to(device_);
  }

  int64_t size_ = 1000;

private:
  torch::Tensor states_, actions_;
  torch::Device device_;
};

struct Agent {
  torch::nn::Linear q{8, 4};
  torch::optim::Adam optimizer{q->parameters(), 1e-3};
  torch::Device device{torch::kCUDA};

  // One update, called from a periodic block: the copy runs per step.
  void learn(ReplayBuffer &buffer) {
    Batch batch = buffer.sample(64);
    auto weights = torch::ones({64}).mul(0.5).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-MESSAGES: :{{[0-9]+}}:7: note: called here on every training step
    // CHECK-MESSAGES: :{{[0-9]+}}:5: note: this block runs every few iterations, and each run is a training step
    // CHECK-FIXES: {{^}}    auto weights = torch::ones({64}).mul(0.5).to(device, /*non_blocking=*/true);{{$}}
    auto loss = (q(batch.states).sum(1) * weights).pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
};

void train(ReplayBuffer &buffer, Agent &agent, torch::Device device) {
  torch::Tensor observation = torch::zeros({8});
  for (int64_t t = 0; t < 100000; ++t) {
    // Acting on every iteration: not a training step, but per iteration of
    // the training loop all the same.
    auto action = agent.q(observation.to(device, /*non_blocking=*/true));
    if (t > 1000 && t % 4 == 0) {
      agent.learn(buffer);
    }
    // A periodic report holds no update: not per step.
    if (t % 500 == 0) {
      auto states = buffer.probe(16).sum();
      auto on_device = observation.to(device);
    }
    // A target-network sync every 1000 steps: no backward, not per step.
    if (t % 1000 == 0) {
      auto snapshot = observation.clone().to(device);
    }
  }
}

// The same shape with the copy written in the periodic block.
void train_inline(ReplayBuffer &buffer, torch::nn::Linear &q,
                  torch::optim::SGD &optimizer, torch::Tensor host_rewards,
                  torch::Device device) {
  for (int64_t t = 0; t < 100000; ++t) {
    if (t % 4 == 0) {
      auto rewards = host_rewards.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'to(device)' copies to the GPU synchronously
      // CHECK-MESSAGES: :[[@LINE-3]]:5: note: this block runs every few iterations, and each run is a training step
      // CHECK-FIXES: {{^}}      auto rewards = host_rewards.to(device, /*non_blocking=*/true);{{$}}
      auto loss = (q(torch::zeros({4, 8}, device)).sum(1) - rewards).pow(2).mean();
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
  }
}

// A periodic block that holds a whole training loop (fine-tuning every
// 1000 iterations): what it runs outside that loop runs once per many
// steps.
void train_rounds(torch::nn::Linear &q, torch::optim::SGD &optimizer,
                  torch::Tensor host_data, torch::Device device) {
  for (int64_t round = 0; round < 100000; ++round) {
    if (round % 1000 == 0) {
      auto data = host_data.to(device);
      for (int epoch = 0; epoch < 10; ++epoch) {
        auto loss = q(data).pow(2).mean();
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
      }
    }
  }
}
