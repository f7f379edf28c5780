// A PPO-style agent as an RL framework embeds it: the environment loop
// (elsewhere) calls act() every environment step and learn() every rollout.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <memory>

struct ActorCritic : torch::nn::Module {
  ActorCritic(int64_t obs, int64_t actions)
      : body(register_module("body", torch::nn::Linear(obs, 64))),
        policy(register_module("policy", torch::nn::Linear(64, actions))),
        value(register_module("value", torch::nn::Linear(64, 1))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor obs) {
    auto h = torch::tanh(body(obs));
    return {torch::log_softmax(policy(h), -1), value(h).squeeze(-1)};
  }
  torch::nn::Linear body, policy, value;
};

class PpoAgent {
public:
  PpoAgent(int64_t obs, int64_t actions, torch::Device device)
      : device_(device), net_(std::make_shared<ActorCritic>(obs, actions)),
        optimizer_(net_->parameters(), torch::optim::AdamOptions(3e-4)) {
    net_->to(device_);
  }

  int64_t act(const torch::Tensor &observation) {
    torch::NoGradGuard no_grad;
    auto [log_probs, value] = net_->forward(observation.to(device_, /*non_blocking=*/true));
    return log_probs.exp().multinomial(1).item<int64_t>(); // OK: the environment needs the action on the host
  }

  // One gradient update on a collected rollout.
  void learn(const torch::Tensor &obs, const torch::Tensor &actions,
             const torch::Tensor &old_log_probs, const torch::Tensor &returns) {
    auto advantages = update(obs.to(device_, /*non_blocking=*/true), actions.to(device_, /*non_blocking=*/true),
                             old_log_probs.to(device_, /*non_blocking=*/true),
                             returns.to(device_, /*non_blocking=*/true));
    ++updates_;
    if (updates_ % 50 == 0)
      std::cout << "update " << updates_ << " mean advantage " << advantages.mean().item<float>() << '\n'; // OK: every 50 updates
  }

private:
  torch::Tensor update(const torch::Tensor &obs, const torch::Tensor &actions,
                       const torch::Tensor &old_log_probs, const torch::Tensor &returns) {
    auto [log_probs, values] = net_->forward(obs);
    auto advantages = (returns - values).detach();
    auto chosen = log_probs.gather(1, actions.unsqueeze(1)).squeeze(1);
    auto ratio = (chosen - old_log_probs).exp();
    auto clipped = torch::clamp(ratio, 0.8, 1.2);
    auto policy_loss = -torch::min(ratio * advantages, clipped * advantages).mean();
    auto value_loss = (returns - values).pow(2).mean();
    optimizer_.zero_grad();
    (policy_loss + 0.5 * value_loss).backward();
    auto confident = ratio.index({ratio > 1.2}); // EXPECT: libtorch-host-sync-in-loop
    clipped_fraction_ = 0.99 * clipped_fraction_ + 0.01 * confident.size(0);
    optimizer_.step();
    return advantages;
  }

  torch::Device device_;
  std::shared_ptr<ActorCritic> net_;
  torch::optim::Adam optimizer_;
  int64_t updates_ = 0;
  double clipped_fraction_ = 0;
};

// The framework's factory: the agent is built here and driven from outside.
std::unique_ptr<PpoAgent> make_agent(int64_t obs, int64_t actions) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  return std::make_unique<PpoAgent>(obs, actions, device);
}
