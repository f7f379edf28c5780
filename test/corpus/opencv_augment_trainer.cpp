// CORPUS-KNOWN-PARSE-ERROR: OpenCV is not installed where the analysis runs; the unit is analyzed in part
// An image classifier whose dataset augments with OpenCV, a library the CI
// machine that runs the analysis does not have. The training loop is plain
// LibTorch: its stalls are reported. What uses OpenCV does not parse, and
// what it may hide is left out rather than guessed.
#include <torch/torch.h>
#include <opencv2/imgproc.hpp>

#include <iostream>
#include <vector>

struct PatchNetImpl : torch::nn::Module {
  PatchNetImpl()
      : conv(register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1)))),
        head(register_module("head", torch::nn::Linear(8 * 16 * 16, 4))) {}
  torch::Tensor forward(torch::Tensor x) {
    return head(torch::relu(conv(x)).flatten(1));
  }
  torch::nn::Conv2d conv;
  torch::nn::Linear head;
};
TORCH_MODULE(PatchNet);

// Does not parse here: every statement that names OpenCV is dropped.
torch::Tensor augment(const torch::Tensor &image) {
  cv::Mat mat(16, 16, CV_32FC3, image.data_ptr<float>());
  cv::GaussianBlur(mat, mat, cv::Size(3, 3), 0.5);
  return image.clone();
}

class Patches : public torch::data::datasets::Dataset<Patches> {
public:
  explicit Patches(int64_t n) : images_(torch::rand({n, 3, 16, 16})), labels_(torch::randint(4, {n})) {}
  torch::data::Example<> get(size_t i) override {
    return {augment(images_[i]), labels_[i]};
  }
  torch::optional<size_t> size() const override { return images_.size(0); }

private:
  torch::Tensor images_, labels_;
};

float evaluate(PatchNet &model, const std::vector<torch::Tensor> &images,
               const std::vector<torch::Tensor> &labels, torch::Device device) {
  torch::NoGradGuard no_grad; // OK: evaluation without autograd
  model->eval();
  float correct = 0;
  for (size_t i = 0; i < images.size(); ++i) {
    auto out = model->forward(images[i].to(device, /*non_blocking=*/true));
    correct += out.argmax(1).eq(labels[i].to(device, /*non_blocking=*/true)).sum().item<float>(); // EXPECT: libtorch-host-sync-in-loop
  }
  model->train();
  return correct;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  PatchNet model;
  model->to(device);
  auto loader = torch::data::make_data_loader( // EXPECT: libtorch-dataloader-no-workers
      Patches(512).map(torch::data::transforms::Stack<>()), 32);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  std::vector<torch::Tensor> held_out_images, held_out_labels;
  for (int i = 0; i < 4; ++i) {
    held_out_images.push_back(torch::rand({32, 3, 16, 16}));
    held_out_labels.push_back(torch::randint(4, {32}));
  }
  for (int epoch = 0; epoch < 5; ++epoch) {
    for (auto &batch : *loader) { // OK: the program-wide settings (autocast, TF32, cuDNN autotuner) could be in code that did not parse
      auto data = batch.data.to(device, /*non_blocking=*/true);
      auto target = batch.target.to(device, /*non_blocking=*/true);
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto loss = torch::cross_entropy_loss(model->forward(data), target);
      loss.backward();
      optimizer.step();
      std::cout << "loss " << loss.item<float>() << '\n'; // EXPECT: libtorch-host-sync-in-loop
    }
    std::cout << "epoch " << epoch << " correct " << evaluate(model, held_out_images, held_out_labels, device) << '\n';
  }
}
