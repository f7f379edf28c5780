// DQN in the style of off-policy baselines: the agent acts on every
// environment step and learns every few, from a replay buffer that keeps
// its transitions in preallocated host tensors and samples a batch by
// index. The sampled batch is copied to the device inside sample(), once
// per update; the int32 actions are widened for gather() before the copy.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <random>

struct Batch {
  torch::Tensor states, actions, rewards, next_states, dones;
};

class ReplayBuffer {
public:
  ReplayBuffer(int64_t capacity, int64_t state_dim, torch::Device device)
      : states_(torch::zeros({capacity, state_dim})),
        actions_(torch::zeros({capacity}, torch::kInt)),
        rewards_(torch::zeros({capacity})),
        next_states_(torch::zeros({capacity, state_dim})),
        dones_(torch::zeros({capacity})), capacity_(capacity),
        device_(device) {}

  void add(const torch::Tensor &state, int64_t action, float reward,
           const torch::Tensor &next_state, bool done) {
    states_[position_].copy_(state);
    actions_[position_] = action;
    rewards_[position_] = reward;
    next_states_[position_].copy_(next_state);
    dones_[position_] = done ? 1.0f : 0.0f;
    position_ = (position_ + 1) % capacity_;
    size_ = std::min(size_ + 1, capacity_);
  }

  Batch sample(int64_t batch_size) {
    auto idx = torch::randint(size_, {batch_size}, torch::kLong);
    return {states_.index_select(0, idx).to(device_),       // EXPECT: libtorch-blocking-host-to-device-copy
            actions_.index_select(0, idx).to(torch::kLong).to(device_), // EXPECT: libtorch-blocking-host-to-device-copy
            rewards_.index_select(0, idx).to(device_),      // EXPECT: libtorch-blocking-host-to-device-copy
            next_states_.index_select(0, idx).to(device_),  // EXPECT: libtorch-blocking-host-to-device-copy
            dones_.index_select(0, idx).to(device_, /*non_blocking=*/true)}; // OK: already asks for an asynchronous copy
  }

  int64_t size() const { return size_; }

private:
  torch::Tensor states_, actions_, rewards_, next_states_, dones_;
  int64_t capacity_;
  int64_t position_ = 0;
  int64_t size_ = 0;
  torch::Device device_;
};

torch::nn::Sequential make_q_net(int64_t state_dim, int64_t actions) {
  return torch::nn::Sequential(torch::nn::Linear(state_dim, 128), torch::nn::ReLU(),
                               torch::nn::Linear(128, actions));
}

void sync_target(torch::nn::Sequential &online, torch::nn::Sequential &target) {
  torch::NoGradGuard no_grad;
  auto from = online->parameters();
  auto to = target->parameters();
  for (size_t i = 0; i < from.size(); ++i)
    to[i].copy_(from[i]);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t state_dim = 6, num_actions = 3;
  auto online = make_q_net(state_dim, num_actions);
  auto target = make_q_net(state_dim, num_actions);
  online->to(device);
  target->to(device);
  sync_target(online, target);
  torch::optim::Adam optimizer(online->parameters(), 1e-3);
  ReplayBuffer buffer(50000, state_dim, device);

  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  auto state = torch::rand({state_dim});
  const int64_t warmup = 1000, train_every = 4, sync_every = 2000;
  for (int64_t t = 0; t < 200000; ++t) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    int64_t action = static_cast<int64_t>(rng() % num_actions);
    auto next_state = torch::rand({state_dim});
    float reward = unit(rng);
    bool done = unit(rng) < 0.01f;
    buffer.add(state, action, reward, next_state, done);
    state = done ? torch::rand({state_dim}) : next_state;

    if (t > warmup && t % train_every == 0) {
      Batch batch = buffer.sample(128);
      torch::Tensor td_target;
      {
        torch::NoGradGuard no_grad;
        auto next_q = std::get<0>(target->forward(batch.next_states).max(1));
        td_target = batch.rewards + 0.99 * next_q * (1 - batch.dones);
      }
      auto q = online->forward(batch.states).gather(1, batch.actions.unsqueeze(1)).squeeze(1);
      auto loss = torch::smooth_l1_loss(q, td_target);
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      optimizer.step();
    }
    if (t % sync_every == 0) {
      sync_target(online, target); // OK: a periodic target sync holds no update
      std::cout << "t " << t << " buffer " << buffer.size() << std::endl;
    }
  }
}
