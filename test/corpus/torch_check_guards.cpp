// Defensive training code: TORCH_CHECK on shapes (metadata, free) and on the
// loss value (a device read on every step).
#include <torch/torch.h>

#include <iostream>

torch::Tensor forward_checked(torch::nn::Linear &layer, const torch::Tensor &x) {
  TORCH_CHECK(x.dim() == 2, "expected a 2-D batch, got ", x.sizes()); // OK: metadata only
  TORCH_CHECK(x.size(1) == layer->options.in_features(), "feature mismatch"); // OK: metadata only
  return layer->forward(x);
}

int main() {
  const auto device = torch::Device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear layer(128, 10);
  layer->to(device);
  torch::optim::SGD opt(layer->parameters(), 0.1);
  auto x_all = torch::randn({8192, 128}, device);            // OK: made on the device
  auto y_all = torch::randint(10, {8192}, torch::TensorOptions(device).dtype(torch::kLong)); // OK: made on the device
  for (int64_t i = 0; i < 8192; i += 64) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto logits = forward_checked(layer, x_all.slice(0, i, i + 64));
    auto loss = torch::cross_entropy_loss(logits, y_all.slice(0, i, i + 64));
    TORCH_CHECK(torch::isfinite(loss).item<bool>(), "loss became non-finite at batch ", i); // EXPECT: libtorch-host-sync-in-loop
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    opt.step();
  }
  std::cout << "trained\n";
}
