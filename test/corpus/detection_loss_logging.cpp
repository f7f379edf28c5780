// A toy single-stage detector: a box-regression head and a class head over
// anchors. The author's loss function keeps its parts as floats for the
// progress bar through the project's logging utilities: the read is four
// calls below the step loop (train_batch, detection_loss, summarize,
// to_float).
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct DetectorHeadImpl : torch::nn::Module {
  DetectorHeadImpl(int64_t features, int64_t anchors, int64_t classes)
      : trunk(register_module("trunk", torch::nn::Linear(features, 128))),
        boxes(register_module("boxes", torch::nn::Linear(128, anchors * 4))),
        logits(register_module("logits",
                               torch::nn::Linear(128, anchors * classes))),
        anchors_(anchors), classes_(classes) {}

  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
    auto h = torch::relu(trunk(x));
    return {boxes(h).view({-1, anchors_, 4}),
            logits(h).view({-1, anchors_, classes_})};
  }

  torch::nn::Linear trunk, boxes, logits;
  int64_t anchors_, classes_;
};
TORCH_MODULE(DetectorHead);

struct LossParts {
  torch::Tensor total;
  float box = 0, cls = 0;
};

// The logging utilities of the project.
float to_float(const torch::Tensor &value) {
  return value.item<float>(); // EXPECT: libtorch-host-sync-in-loop
}
void summarize(LossParts &parts, const torch::Tensor &box,
               const torch::Tensor &cls) {
  parts.box = to_float(box);
  parts.cls = to_float(cls);
}

// Smooth-L1 on the boxes plus cross-entropy on the classes, as a detection
// codebase writes it, with the values kept for the progress bar.
LossParts detection_loss(const std::pair<torch::Tensor, torch::Tensor> &pred,
                         const torch::Tensor &box_target,
                         const torch::Tensor &cls_target) {
  auto box = torch::smooth_l1_loss(pred.first, box_target);
  auto cls = torch::cross_entropy_loss(pred.second.flatten(0, 1),
                                       cls_target.flatten());
  LossParts parts;
  parts.total = box + cls;
  summarize(parts, box.detach(), cls.detach());
  return parts;
}

// The step's helper: forward, loss, backward.
LossParts train_batch(DetectorHead &model, torch::optim::Optimizer &optimizer,
                      const torch::Tensor &images, const torch::Tensor &boxes,
                      const torch::Tensor &labels) {
  optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
  LossParts parts = detection_loss(model->forward(images), boxes, labels);
  parts.total.backward();
  optimizer.step();
  return parts;
}

void print_summary(const std::vector<float> &box_losses) {
  auto history = torch::tensor(box_losses);
  std::cout << "mean box loss " << history.mean().item<float>() // OK: host tensor
            << std::endl;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  const int64_t anchors = 16, classes = 5, features = 64;
  DetectorHead model(features, anchors, classes);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.01).momentum(0.9));

  std::vector<torch::Tensor> images, boxes, labels;
  for (int i = 0; i < 32; ++i) {
    images.push_back(torch::randn({16, features}, device));
    boxes.push_back(torch::randn({16, anchors, 4}, device));
    labels.push_back(torch::randint(classes, {16, anchors},
                                    torch::TensorOptions(device).dtype(torch::kLong)));
  }

  std::vector<float> box_history;
  for (int epoch = 0; epoch < 5; ++epoch) {
    model->train();
    for (size_t i = 0; i < images.size(); ++i) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      LossParts parts = train_batch(model, optimizer, images[i], boxes[i], labels[i]);
      box_history.push_back(parts.box); // OK: a float read inside the loss
      if (i % 10 == 0)
        std::cout << "epoch " << epoch << " box " << parts.box << " cls "
                  << parts.cls << std::endl; // OK: host floats
    }
    print_summary(box_history); // OK: once per epoch, host tensor
  }
}
