// DQN with a replay buffer and a target network on a toy bandit-like task.
// The target network is synced every N steps; actions are chosen greedily
// on the host from the Q network every step.
#include <torch/torch.h>

#include <deque>
#include <iostream>
#include <random>

struct Transition {
  torch::Tensor state, next_state;
  int64_t action;
  float reward;
};

torch::nn::Sequential make_q_net() {
  return torch::nn::Sequential(torch::nn::Linear(8, 128), torch::nn::ReLU(), torch::nn::Linear(128, 4));
}

void copy_weights(torch::nn::Sequential &from, torch::nn::Sequential &to) {
  torch::NoGradGuard no_grad;
  auto src = from->parameters();
  auto dst = to->parameters();
  for (size_t i = 0; i < src.size(); ++i)
    dst[i].copy_(src[i]);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto q = make_q_net();
  auto target = make_q_net();
  q->to(device);
  target->to(device);
  copy_weights(q, target);
  torch::optim::Adam opt(q->parameters(), 5e-4);

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coin(0.f, 1.f);
  std::deque<Transition> replay;
  auto state = torch::randn({8});
  double epsilon = 1.0;

  for (int64_t step = 0; step < 20000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    int64_t action;
    if (coin(rng) < epsilon) {
      action = static_cast<int64_t>(rng() % 4);
    } else {
      torch::NoGradGuard no_grad;
      action = q->forward(state.unsqueeze(0).to(device)).argmax(1).item<int64_t>(); // EXPECT: libtorch-blocking-host-to-device-copy, libtorch-host-sync-in-loop
    }
    auto next_state = torch::randn({8});
    float reward = (action == (state.argmax().item<int64_t>() % 4)) ? 1.f : 0.f; // OK: state only ever holds host tensors (randn without a device)
    replay.push_back({state, next_state, action, reward});
    if (replay.size() > 10000)
      replay.pop_front();
    state = next_state;
    epsilon = std::max(0.05, epsilon * 0.999);
    if (replay.size() < 256)
      continue;

    std::vector<torch::Tensor> s, s2;
    std::vector<int64_t> a;
    std::vector<float> r;
    for (int i = 0; i < 64; ++i) {
      const auto &t = replay[rng() % replay.size()];
      s.push_back(t.state);
      s2.push_back(t.next_state);
      a.push_back(t.action);
      r.push_back(t.reward);
    }
    auto states = torch::stack(s).to(device, /*non_blocking=*/true);
    auto next_states = torch::stack(s2).to(device, /*non_blocking=*/true);
    auto actions = torch::tensor(a).to(device, /*non_blocking=*/true); // OK: host data must be copied
    auto rewards = torch::tensor(r).to(device, /*non_blocking=*/true); // OK: host data must be copied
    torch::Tensor td_target;
    {
      torch::NoGradGuard no_grad;
      td_target = rewards + 0.99 * std::get<0>(target->forward(next_states).max(1));
    }
    auto q_sa = q->forward(states).gather(1, actions.unsqueeze(1)).squeeze(1);
    auto loss = torch::smooth_l1_loss(q_sa, td_target);
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    opt.step();
    if (step % 1000 == 0) {
      copy_weights(q, target); // OK: periodic target sync
      std::cout << "step " << step << " loss " << loss.item<float>() << std::endl; // OK: every 1000 steps
    }
  }
}
