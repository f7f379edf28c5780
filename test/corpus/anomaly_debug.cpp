// Anomaly detection left switched on after a NaN hunt; the gradient-check
// helper that uses a guard on purpose is not part of training.
#include <torch/torch.h>

#include <iostream>

bool gradient_is_finite(torch::nn::Linear &layer) {
  torch::autograd::DetectAnomalyGuard detect; // OK: a one-off check, not reached from training
  auto out = layer->forward(torch::randn({4, 6})).sum();
  out.backward();
  return torch::isfinite(layer->weight.grad()).all().item<bool>();
}

int main() {
  torch::autograd::AnomalyMode::set_enabled(true); // EXPECT: libtorch-anomaly-detection-enabled
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear layer(6, 3);
  layer->to(device);
  torch::optim::SGD opt(layer->parameters(), 0.1);
  for (int i = 0; i < 200; ++i) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto x = torch::randn({32, 6}, device);
    auto loss = layer->forward(x).pow(2).mean();
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    opt.step();
  }
  torch::nn::Linear probe(6, 3);
  std::cout << (gradient_is_finite(probe) ? "finite" : "not finite") << '\n';
}
