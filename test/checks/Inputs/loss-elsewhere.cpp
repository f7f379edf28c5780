// The other translation unit of
// test/checks/libtorch-tensor-created-off-device-elsewhere.cpp.
#include "loss-elsewhere.h"

namespace losses {
torch::Tensor objectness(const torch::Tensor &pred, torch::Device device) {
  auto targets = torch::ones({pred.size(0), 1}).to(device);
  return torch::mse_loss(pred, targets);
}

torch::Tensor total(const torch::Tensor &pred, torch::Device device) {
  return objectness(pred, device) * 2;
}

torch::Tensor on_device(const torch::Tensor &pred, torch::Device device) {
  auto targets = torch::ones({pred.size(0), 1}, device);
  return torch::mse_loss(pred, targets);
}

torch::Tensor smoothed(const torch::Tensor &pred, torch::Device device,
                       bool smooth) {
  auto targets = torch::zeros_like(pred);
  if (smooth)
    targets = torch::full({pred.size(0), 1}, 0.9).to(device);
  return torch::mse_loss(pred, targets);
}

torch::Tensor on_host(const torch::Tensor &pred) {
  return pred.cpu() - torch::ones({pred.size(0), 1}).to(torch::kCPU);
}

torch::Tensor weighted(const torch::Tensor &pred, torch::Device device) {
  auto weights = torch::tensor({0.25f, 0.75f}).to(device);
  return (pred * weights).mean();
}

torch::Tensor from_values(const torch::Tensor &pred,
                          const std::vector<float> &values,
                          torch::Device device) {
  return (pred * torch::tensor(values).to(device)).mean();
}
} // namespace losses
