// RUN: %check_libtorch_tidy %s libtorch-blocking-host-to-device-copy %t

// A replay buffer behind an abstract base: the agent's update calls
// `buffer->sample(n)` through the base, so the override that copies the
// sampled batch runs on every step. The note at the call names the
// override the virtual call runs.

#include <torch/torch.h>

#include <cstdint>
#include <memory>

struct Batch {
  torch::Tensor states, actions;
};

class ReplayBuffer {
public:
  virtual ~ReplayBuffer() = default;
  virtual Batch sample(int64_t n, torch::Device device) = 0;
  // Not overridden below: its callers run nothing of the derived classes.
  virtual int64_t capacity() const { return 1024; }
};

class UniformBuffer : public ReplayBuffer {
public:
  Batch sample(int64_t n, torch::Device device) override {
    auto idx = torch::randint(size, {n}, torch::kLong);
    return {states.index_select(0, idx).to(device),
            // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'to(device)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
            // CHECK-MESSAGES: :[[@LINE+41]]:19: note: called here on every training step: a virtual call, which runs 'UniformBuffer::sample()' when the object is a 'UniformBuffer'
            // CHECK-FIXES: {{^}}    return {states.index_select(0, idx).to(device, /*non_blocking=*/true),{{$}}
            actions.index_select(0, idx).to(device, /*non_blocking=*/true)};
  }

  int64_t size = 1024;
  torch::Tensor states = torch::zeros({1024, 8}).pin_memory();
  torch::Tensor actions = torch::zeros({1024}, torch::kLong).pin_memory();
};

// An override of a class this unit never makes an object of (it makes
// UniformBuffer objects only): the virtual call does not run it here.
class WarmupBuffer : public UniformBuffer {
public:
  Batch sample(int64_t n, torch::Device device) override {
    return {states.slice(0, 0, n).to(device), actions.slice(0, 0, n).to(device)};
  }
};

// A sampler handed in by another unit: this unit makes no object of its
// hierarchy, so every override counts.
class Sampler {
public:
  virtual ~Sampler() = default;
  virtual torch::Tensor next(torch::Device device) = 0;
};

class FileSampler : public Sampler {
public:
  torch::Tensor next(torch::Device device) override {
    return rows.index_select(0, torch::randint(512, {32}, torch::kLong))
        .to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-MESSAGES: :[[@LINE+24]]:23: note: called here on every training step: a virtual call, which runs 'FileSampler::next()' when the object is a 'FileSampler'
  }
  torch::Tensor rows = torch::zeros({512, 8});
};

struct Agent {
  void update() {
    // Through the base class: UniformBuffer::sample or WarmupBuffer::sample.
    Batch batch = buffer->sample(64, device);
    auto loss = q(batch.states).sum() + batch.actions.sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }

  torch::Device device{torch::kCUDA};
  torch::nn::Linear q{8, 2};
  torch::optim::SGD optimizer{q->parameters(), 0.1};
  std::unique_ptr<ReplayBuffer> buffer = std::make_unique<UniformBuffer>();
};

void fit(Sampler &sampler, torch::nn::Linear &model,
         torch::optim::SGD &optimizer, torch::Device device) {
  for (int step = 0; step < 1000; ++step) {
    auto loss = model(sampler.next(device)).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

void train(Agent &agent, WarmupBuffer &warmup, UniformBuffer &uniform) {
  // A call that names the class: no virtual dispatch, WarmupBuffer's own.
  Batch first = warmup.UniformBuffer::sample(8, agent.device);
  for (int step = 0; step < 1000; ++step)
    agent.update();
  // Once, after training.
  Batch last = uniform.sample(8, agent.device);
}
