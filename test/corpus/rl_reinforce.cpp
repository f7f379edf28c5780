// REINFORCE on a toy corridor environment simulated on the host: each
// episode is a rollout (policy sampled action by action) and one update.
#include <torch/torch.h>

#include <iostream>
#include <random>
#include <vector>

struct Corridor {
  int position = 0, length = 10;
  std::vector<float> observe() const {
    std::vector<float> obs(length, 0.f);
    obs[position] = 1.f;
    return obs;
  }
  float step(int64_t action) { // 0: left, 1: right
    position = std::max(0, std::min(length - 1, position + (action == 1 ? 1 : -1)));
    return position == length - 1 ? 1.f : -0.01f;
  }
  bool done() const { return position == length - 1; }
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto policy = torch::nn::Sequential(torch::nn::Linear(10, 64), torch::nn::Tanh(),
                                      torch::nn::Linear(64, 2), torch::nn::Softmax(1));
  policy->to(device);
  torch::optim::Adam optimizer(policy->parameters(), 1e-2);
  const float gamma = 0.99f;

  for (int episode = 0; episode < 500; ++episode) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    Corridor env;
    std::vector<torch::Tensor> log_probs;
    std::vector<float> rewards;
    for (int t = 0; t < 100 && !env.done(); ++t) {
      auto obs = env.observe();
      auto state = torch::from_blob(obs.data(), {1, 10}).to(device); // EXPECT: libtorch-blocking-host-to-device-copy
      auto probs = policy->forward(state);
      auto action = torch::multinomial(probs, 1);
      log_probs.push_back(torch::log(probs.gather(1, action)));
      rewards.push_back(env.step(action.item<int64_t>())); // EXPECT: libtorch-host-sync-in-loop
    }
    std::vector<float> returns(rewards.size());
    float running = 0.f;
    for (size_t i = rewards.size(); i-- > 0;) {
      running = rewards[i] + gamma * running;
      returns[i] = running;
    }
    auto ret = torch::tensor(returns).to(device); // EXPECT: libtorch-blocking-host-to-device-copy
    ret = (ret - ret.mean()) / (ret.std() + 1e-6);
    auto loss = -(torch::cat(log_probs).squeeze(1) * ret).sum();
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    optimizer.step();
    if (episode % 50 == 0)
      std::cout << "episode " << episode << " length " << rewards.size() << '\n'; // OK: host values only
  }
}
