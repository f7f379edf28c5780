// Soft actor-critic style agent whose replay memory sits behind an abstract
// interface: a uniform buffer and a prioritized one, chosen at start-up.
// The update samples through the base class, so each sampler's copies run
// on every gradient step; a debugging sampler exists but is never created.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>

struct Sampled {
  torch::Tensor obs, act, rew, done;
};

class Memory {
public:
  virtual ~Memory() = default;
  virtual void push(const torch::Tensor &obs, const torch::Tensor &act, float rew, bool done) = 0;
  virtual Sampled draw(int64_t n) = 0;
  virtual int64_t size() const = 0;
};

class UniformMemory : public Memory {
public:
  UniformMemory(int64_t capacity, torch::Device device)
      : capacity_(capacity), device_(device), obs_(torch::zeros({capacity, 6})),
        act_(torch::zeros({capacity, 2})), rew_(torch::zeros({capacity})),
        done_(torch::zeros({capacity}, torch::kBool)) {}

  void push(const torch::Tensor &obs, const torch::Tensor &act, float rew, bool done) override {
    const int64_t i = next_++ % capacity_;
    obs_[i].copy_(obs);
    act_[i].copy_(act);
    rew_[i] = rew;
    done_[i] = done;
    filled_ = std::min(filled_ + 1, capacity_);
  }

  Sampled draw(int64_t n) override {
    auto idx = torch::randint(filled_, {n}, torch::kLong);
    return {obs_.index_select(0, idx).to(device_),                   // EXPECT: libtorch-blocking-host-to-device-copy
            act_.index_select(0, idx).to(device_),                   // EXPECT: libtorch-blocking-host-to-device-copy
            rew_.index_select(0, idx).to(device_),                   // EXPECT: libtorch-blocking-host-to-device-copy
            done_.index_select(0, idx).to(torch::kFloat).to(device_)}; // EXPECT: libtorch-blocking-host-to-device-copy
  }

  int64_t size() const override { return filled_; }

protected:
  int64_t capacity_, next_ = 0, filled_ = 0;
  torch::Device device_;
  torch::Tensor obs_, act_, rew_, done_;
};

// Samples in proportion to a priority kept on the host; the draw is copied
// without blocking, from memory pinned afresh on every draw.
class PrioritizedMemory : public UniformMemory {
public:
  using UniformMemory::UniformMemory;

  Sampled draw(int64_t n) override {
    auto weights = torch::ones({filled_}); // OK: host probabilities, never copied
    auto idx = torch::multinomial(weights, n, /*replacement=*/true);
    auto obs = obs_.index_select(0, idx).pin_memory(); // EXPECT: libtorch-pin-memory-in-loop
    auto act = act_.index_select(0, idx).pin_memory(); // EXPECT: libtorch-pin-memory-in-loop
    return {obs.to(device_, /*non_blocking=*/true), act.to(device_, /*non_blocking=*/true),
            rew_.index_select(0, idx).pin_memory().to(device_, /*non_blocking=*/true), // EXPECT: libtorch-pin-memory-in-loop
            done_.index_select(0, idx).to(torch::kFloat).pin_memory().to(device_, true)}; // EXPECT: libtorch-pin-memory-in-loop
  }
};

// A sampler for unit tests elsewhere: this program never creates one, so
// the virtual call never runs its copies.
class FixedMemory : public UniformMemory {
public:
  using UniformMemory::UniformMemory;

  Sampled draw(int64_t n) override {
    return {obs_.slice(0, 0, n).to(device_), act_.slice(0, 0, n).to(device_), // OK: never created here
            rew_.slice(0, 0, n).to(device_), done_.slice(0, 0, n).to(torch::kFloat).to(device_)}; // OK: never created here
  }
};

struct Critic : torch::nn::Module {
  Critic() : net(register_module("net", torch::nn::Sequential(torch::nn::Linear(8, 64), torch::nn::ReLU(),
                                                              torch::nn::Linear(64, 1)))) {}
  torch::Tensor forward(const torch::Tensor &obs, const torch::Tensor &act) {
    return net->forward(torch::cat({obs, act}, 1)).squeeze(1);
  }
  torch::nn::Sequential net;
};

class Agent {
public:
  Agent(std::unique_ptr<Memory> memory, torch::Device device)
      : memory_(std::move(memory)), critic_(std::make_shared<Critic>()),
        optimizer_(critic_->parameters(), torch::optim::AdamOptions(3e-4)) {
    critic_->to(device);
  }

  Memory &memory() { return *memory_; }

  void learn(int64_t batch_size) {
    Sampled s = memory_->draw(batch_size);
    auto q = critic_->forward(s.obs, s.act);
    auto target = s.rew + 0.99 * (1 - s.done) * q.detach();
    auto loss = torch::mse_loss(q, target);
    optimizer_.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    optimizer_.step();
  }

private:
  std::unique_ptr<Memory> memory_;
  std::shared_ptr<Critic> critic_;
  torch::optim::Adam optimizer_;
};

int main(int argc, char **argv) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const bool prioritized = argc > 1 && std::string(argv[1]) == "--prioritized";
  std::unique_ptr<Memory> memory;
  if (prioritized)
    memory = std::make_unique<PrioritizedMemory>(10000, device);
  else
    memory = std::make_unique<UniformMemory>(10000, device);
  Agent agent(std::move(memory), device);
  for (int64_t step = 0; step < 5000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    agent.memory().push(torch::randn({6}), torch::randn({2}), 1.0f, step % 200 == 199);
    if (agent.memory().size() >= 256)
      agent.learn(256);
  }
  std::cout << "done\n";
}
