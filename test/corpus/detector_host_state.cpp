// A single-stage detector's training step on synthetic boxes, kept in a
// small library: the caller loops over batches and calls Trainer::step().
// The box coder keeps its anchors and variances as host tensors made once,
// the input normalizer keeps running statistics on the host and updates
// them in place, and the classification loss builds its class-weight table
// from literals on every call. Each of them is copied to the GPU per step.
#include <torch/torch.h>

#include <cstdio>

namespace {

constexpr int64_t kAnchors = 64;
constexpr int64_t kClasses = 3;
constexpr int64_t kFeatures = 16;

torch::Tensor grid_anchors(int64_t n) { return torch::rand({n, 4}); }

class BoxCoder {
public:
  BoxCoder() : anchors_(grid_anchors(kAnchors)) {}
  torch::Tensor encode(const torch::Tensor &boxes) const {
    auto anchors = anchors_.to(boxes.device()); // EXPECT: libtorch-blocking-host-to-device-copy
    auto variances = variances_.to(boxes.device()); // EXPECT: libtorch-blocking-host-to-device-copy
    return (boxes - anchors) / variances;
  }

private:
  torch::Tensor anchors_;
  torch::Tensor variances_ = torch::full({4}, 0.1);
};

struct InputNormalizer {
  torch::Tensor mean = torch::zeros({kFeatures});
  torch::Tensor apply(const torch::Tensor &x) {
    mean.mul_(0.99).add_(x.detach().mean(0).cpu(), 0.01); // EXPECT: libtorch-host-sync-in-loop
    return x - mean.to(x.device()); // EXPECT: libtorch-blocking-host-to-device-copy
  }
};

struct DetectorImpl : torch::nn::Module {
  DetectorImpl()
      : body(register_module("body", torch::nn::Linear(kFeatures, 64))),
        cls(register_module("cls", torch::nn::Linear(64, kAnchors * kClasses))),
        box(register_module("box", torch::nn::Linear(64, kAnchors * 4))) {
    prior_ = register_buffer("prior", torch::full({kClasses}, 0.5));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor &x) {
    auto h = torch::relu(body(x));
    auto logits = cls(h).view({-1, kAnchors, kClasses}) + prior_.to(x.device()); // OK: a registered buffer moves with the module
    return {logits, box(h).view({-1, kAnchors, 4})};
  }
  torch::nn::Linear body, cls, box;
  torch::Tensor prior_;
};
TORCH_MODULE(Detector);

torch::Tensor classification_loss(const torch::Tensor &logits, const torch::Tensor &labels) {
  auto weights = torch::tensor({0.25, 1.0, 1.0}).to(logits.device()); // EXPECT: libtorch-tensor-created-off-device
  return torch::nn::functional::cross_entropy(
      logits.reshape({-1, kClasses}), labels.reshape({-1}),
      torch::nn::functional::CrossEntropyFuncOptions().weight(weights.to(torch::kFloat)));
}

class Trainer {
public:
  explicit Trainer(torch::Device device)
      : device_(device), optimizer_(model_->parameters(), torch::optim::SGDOptions(0.01)) {
    model_->to(device_);
  }
  float step(const torch::Tensor &features, const torch::Tensor &boxes, const torch::Tensor &labels) {
    auto x = normalizer_.apply(features);
    auto [logits, deltas] = model_->forward(x);
    auto targets = coder_.encode(boxes);
    auto loss = classification_loss(logits, labels) + torch::smooth_l1_loss(deltas, targets);
    optimizer_.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    optimizer_.step();
    return 0.0f;
  }

private:
  torch::Device device_;
  Detector model_;
  torch::optim::SGD optimizer_;
  BoxCoder coder_;
  InputNormalizer normalizer_;
};

} // namespace

int main() {
  torch::manual_seed(5);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Trainer trainer(device);
  for (int64_t batch = 0; batch < 200; ++batch) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto features = torch::randn({8, kFeatures}, device);
    auto boxes = torch::rand({8, kAnchors, 4}, device);
    auto labels = torch::randint(0, kClasses, {8, kAnchors}, torch::TensorOptions().dtype(torch::kLong).device(device));
    trainer.step(features, boxes, labels);
  }
  std::printf("done\n");
}
