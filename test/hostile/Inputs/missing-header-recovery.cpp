#include <torch/torch.h>
#include <opencv2/highgui.hpp>

#include <cstddef>
#include <iostream>

// A training program whose GUI toolkit is not installed: the CLI analyzes
// it past the #include, reports what the missing header cannot have
// changed, and leaves out what error recovery may have invented.

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({2})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

// Before the broken code: a real finding.
void log_loss(const torch::Tensor &loss) {
  std::cout << "loss " << loss.item<float>() << '\n';
}

// Broken: the statement that moves the model names the missing header, so
// it is dropped, and the model would look as if it never left the CPU.
void place(Net &model) { model->to(cv::cuda::bestDevice()); }

// Broken: the condition does not parse, so the sync it guards would look
// as if it ran on every step.
void preview(const torch::Tensor &loss, int step) {
  if (cv::waitKey(step) == 'q')
    std::cout << "stopped at " << loss.item<float>() << '\n';
}

void train(torch::Device device) {
  Net model;
  place(model);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  auto loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()), 8);
  int step = 0;
  for (auto &batch : *loader) {
    auto data = batch.data.to(device, /*non_blocking=*/true);
    auto target = batch.target.to(device, /*non_blocking=*/true);
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(data), target);
    loss.backward();
    optimizer.step();
    log_loss(loss);
    preview(loss, ++step);
  }
}

// After the broken code: another real finding.
float accuracy(Net &model, torch::Device device) {
  torch::NoGradGuard no_grad;
  auto loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()), 8);
  float correct = 0;
  for (auto &batch : *loader) {
    auto out = model->forward(batch.data.to(device, /*non_blocking=*/true));
    correct += out.argmax(1).eq(batch.target.to(device).argmax(1))
                   .sum().item<float>();
  }
  return correct;
}
