// A single-stage detector's loss: anchors matched to boxes, positives
// selected with a boolean mask, class balance counted per step.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>

struct DetHead : torch::nn::Module {
  DetHead() : cls(register_module("cls", torch::nn::Linear(32, 8))), box(register_module("box", torch::nn::Linear(32, 4))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor f) { return {cls(f), box(f)}; }
  torch::nn::Linear cls, box;
};

torch::Tensor detection_loss(const torch::Tensor &logits, const torch::Tensor &deltas,
                             const torch::Tensor &labels, const torch::Tensor &targets,
                             const torch::Tensor &boxes_per_image) {
  auto positive = labels > 0;
  auto positive_deltas = deltas.index({positive}); // EXPECT: libtorch-host-sync-in-loop
  auto positive_targets = targets.index({positive}); // EXPECT: libtorch-host-sync-in-loop
  auto box_loss = torch::smooth_l1_loss(positive_deltas, positive_targets);
  auto per_class = labels.bincount({}, 8); // EXPECT: libtorch-host-sync-in-loop
  auto weights = (per_class.sum() / (per_class.to(torch::kFloat) + 1)).index_select(0, labels);
  auto image_of_anchor = torch::arange(boxes_per_image.size(0), labels.options()).repeat_interleave(boxes_per_image); // EXPECT: libtorch-host-sync-in-loop
  auto cls_loss = (torch::cross_entropy_loss(logits, labels, {}, at::Reduction::None) * weights).mean();
  return cls_loss + box_loss + 0 * image_of_anchor.sum();
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  DetHead head;
  head.to(device);
  torch::optim::SGD optimizer(head.parameters(), torch::optim::SGDOptions(0.01));
  auto features = torch::randn({256, 32}, device);
  auto labels = torch::randint(8, {256}, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto targets = torch::randn({256, 4}, device);
  auto counts = torch::full({4}, 64, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (int step = 0; step < 1000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto [logits, deltas] = head.forward(features);
    auto loss = detection_loss(logits, deltas, labels, targets, counts);
    auto spread = logits.histc(50, -10, 10); // OK: a given range needs no read-back
    optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    optimizer.step();
    if (step % 100 == 0)
      std::cout << step << ' ' << loss.item<float>() << ' ' << spread.max().item<float>() << '\n'; // OK: every 100 steps
  }
}
