// Fine-tuning a classifier head with gradient accumulation, three ways a
// team wrote it: the window zeroed on its last micro-batch, an undivided
// loss with the learning rate divided instead, and AdamW.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

struct Head : torch::nn::Module {
  Head() : fc(register_module("fc", torch::nn::Linear(768, 4))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

std::vector<std::pair<torch::Tensor, torch::Tensor>> make_batches(torch::Device device) {
  std::vector<std::pair<torch::Tensor, torch::Tensor>> batches;
  for (int i = 0; i < 64; ++i)
    batches.emplace_back(torch::randn({16, 768}, device),
                         torch::randint(4, {16}, torch::TensorOptions().dtype(torch::kLong).device(device)));
  return batches;
}

void train_zeroing_late(Head &head, const std::vector<std::pair<torch::Tensor, torch::Tensor>> &batches,
                        int accum_steps) {
  torch::optim::SGD optimizer(head.parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  int64_t step = 0;
  for (const auto &[x, y] : batches) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    if ((step + 1) % accum_steps == 0)
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-accumulation, libtorch-zero-grad-set-to-none
    auto loss = torch::cross_entropy_loss(head.forward(x), y) / accum_steps;
    loss.backward();
    if ((step + 1) % accum_steps == 0)
      optimizer.step();
    ++step;
  }
}

void train_scaled_lr(Head &head, const std::vector<std::pair<torch::Tensor, torch::Tensor>> &batches,
                     int accum_steps, double base_lr) {
  torch::optim::SGD optimizer(head.parameters(), torch::optim::SGDOptions(base_lr / accum_steps));
  for (size_t i = 0; i < batches.size(); ++i) { // EXPECT: libtorch-missing-autocast
    auto loss = torch::cross_entropy_loss(head.forward(batches[i].first), batches[i].second);
    loss.backward(); // OK: the learning rate is divided by the same count
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    }
  }
}

void train_adamw(Head &head, const std::vector<std::pair<torch::Tensor, torch::Tensor>> &batches,
                 int accum_steps) {
  torch::optim::AdamW optimizer(head.parameters(), torch::optim::AdamWOptions(2e-5).weight_decay(0.01));
  for (size_t i = 0; i < batches.size(); ++i) { // EXPECT: libtorch-missing-autocast
    auto loss = torch::cross_entropy_loss(head.forward(batches[i].first), batches[i].second);
    loss.backward(); // OK: AdamW normalizes the gradient's scale
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    }
  }
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Head head;
  head.to(device);
  auto batches = make_batches(device);
  train_zeroing_late(head, batches, 4);
  train_scaled_lr(head, batches, 4, 0.1);
  train_adamw(head, batches, 4);
  std::cout << "done\n";
}
