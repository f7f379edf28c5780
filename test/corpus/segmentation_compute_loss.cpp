// A point-cloud segmentation model that owns its loss: compute_loss()
// weights the rare foreground points by counting them with nonzero(), and a
// metrics helper reads the IoU back for the log. Training, a periodic
// debug dump and a validation pass all call into the model's methods.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

class PointSegmenterImpl : public torch::nn::Module {
public:
  explicit PointSegmenterImpl(int64_t in_features)
      : fc1_(register_module("fc1", torch::nn::Linear(in_features, 64))),
        fc2_(register_module("fc2", torch::nn::Linear(64, 2))) {}

  torch::Tensor forward(torch::Tensor points) {
    return fc2_(torch::relu(fc1_(points)));
  }

  torch::Tensor compute_loss(const torch::Tensor &logits,
                             const torch::Tensor &labels) {
    auto foreground = labels.nonzero(); // EXPECT: libtorch-host-sync-in-loop
    double fg = static_cast<double>(foreground.size(0));
    double total = static_cast<double>(labels.numel());
    auto weights = weights_for(fg / total);
    return torch::nn::functional::cross_entropy(
        logits.view({-1, 2}), labels.view({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().weight(weights));
  }

  // Dumps the predicted foreground; only called every few hundred steps.
  void debug_dump(const torch::Tensor &logits) {
    auto predicted = logits.argmax(-1).nonzero(); // OK: called under a periodic guard
    std::cout << "predicted points " << predicted.size(0) << std::endl;
  }

private:
  torch::Tensor weights_for(double fraction) {
    return torch::tensor({fraction, 1.0 - fraction},
                         fc1_->weight.options()); // OK: on the weights' device
  }

  torch::nn::Linear fc1_, fc2_;
};
TORCH_MODULE(PointSegmenter);

// IoU of the foreground class, read back for logging.
float foreground_iou(const torch::Tensor &logits, const torch::Tensor &labels) {
  auto pred = logits.argmax(-1).eq(1);
  auto truth = labels.eq(1);
  auto inter = (pred & truth).sum();
  auto uni = (pred | truth).sum().clamp_min(1);
  return (inter.to(torch::kFloat) / uni).item<float>(); // EXPECT: libtorch-host-sync-in-loop
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  PointSegmenter model(3);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

  std::vector<torch::Tensor> clouds, targets;
  for (int i = 0; i < 16; ++i) {
    clouds.push_back(torch::randn({8, 1024, 3}, device));
    targets.push_back(torch::randint(2, {8, 1024}, torch::TensorOptions(device).dtype(torch::kLong)));
  }

  int64_t step = 0;
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    for (size_t i = 0; i < clouds.size(); ++i) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto logits = model->forward(clouds[i]);
      auto loss = model->compute_loss(logits, targets[i]);
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      optimizer.step();
      if (++step % 200 == 0)
        model->debug_dump(logits.detach());
    }

    torch::NoGradGuard no_grad;
    model->eval();
    float iou_sum = 0;
    for (size_t i = 0; i < clouds.size(); ++i) {
      auto logits = model->forward(clouds[i]);
      iou_sum += foreground_iou(logits, targets[i]);
    }
    std::cout << "epoch " << epoch << " val IoU " << iou_sum / clouds.size()
              << std::endl;
  }
}
