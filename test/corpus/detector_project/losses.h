// Losses of a small anchor-free detector, shared by the trainer and the
// evaluation tool.
#pragma once

#include <torch/torch.h>

namespace det {

// Focal loss over per-class logits, with class weights.
torch::Tensor focal_loss(const torch::Tensor &logits, const torch::Tensor &targets, double gamma = 2.0);

// L1 loss of the box regression, on the positive locations only.
torch::Tensor box_loss(const torch::Tensor &pred, const torch::Tensor &target, const torch::Tensor &positive);

} // namespace det
