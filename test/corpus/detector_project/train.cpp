// The trainer: the losses and the logger live in their own units
// (losses.cpp, metrics.cpp); what they do on every step is seen through the
// summaries of those units.
#include "losses.h"
#include "metrics.h"

#include <torch/torch.h>

#include <cstdint>

struct Head : torch::nn::Module {
  Head()
      : trunk(register_module("trunk", torch::nn::Sequential(torch::nn::Linear(32, 64), torch::nn::ReLU()))),
        cls(register_module("cls", torch::nn::Linear(64, 4))), box(register_module("box", torch::nn::Linear(64, 4))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor &x) {
    auto h = trunk->forward(x);
    return {cls(h), box(h)};
  }
  torch::nn::Sequential trunk;
  torch::nn::Linear cls, box;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto head = std::make_shared<Head>();
  head->to(device);
  torch::optim::SGD optimizer(head->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  det::MetricLogger logger;
  auto features = torch::randn({4096, 32}, device);
  auto labels = torch::randint(4, {4096}, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto boxes = torch::rand({4096, 4}, device);
  for (int64_t epoch = 0; epoch < 10; ++epoch) {
    for (int64_t i = 0; i + 64 <= 4096; i += 64) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto x = features.slice(0, i, i + 64);
      auto y = labels.slice(0, i, i + 64);
      auto b = boxes.slice(0, i, i + 64);
      auto [logits, pred] = head->forward(x);
      auto cls_loss = det::focal_loss(logits, y); // EXPECT: libtorch-tensor-created-off-device
      auto reg_loss = det::box_loss(pred, b, y > 0); // EXPECT: libtorch-tensor-created-off-device
      auto loss = cls_loss + reg_loss;
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      optimizer.step();
      logger.update({{"cls", cls_loss.detach()}, {"box", reg_loss.detach()}}); // EXPECT: libtorch-host-sync-in-loop
    }
    logger.print_and_reset(epoch);
  }
}
