// A trainer written as a class template, in a header: its training member
// is defined here, and which of the units that include it instantiate it
// (never, once, twice) must not change what is reported.
#ifndef TEMPLATE_TRAINER_H
#define TEMPLATE_TRAINER_H

#include <torch/torch.h>

#include <cstddef>

struct TemplatePoints : torch::data::datasets::Dataset<TemplatePoints> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({2})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

using TemplateLoader = decltype(torch::data::make_data_loader(
    TemplatePoints().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));

struct TemplateNetImpl : torch::nn::Module {
  TemplateNetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(TemplateNet);

// Logger is the template's parameter; the model, the tensors and the
// optimizer do not depend on it.
template <typename Logger> class Trainer {
public:
  Trainer(TemplateLoader &Loader, Logger &Log, torch::Device Device)
      : loader(Loader), log(Log), device(Device) {
    model->to(device);
  }

  void fit() {
    for (auto &batch : *loader) {
      torch::optim::SGD optimizer(model->parameters(), 0.1);
      auto data = batch.data.to(device, /*non_blocking=*/true);
      auto target = batch.target.to(device, /*non_blocking=*/true);
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model->forward(data), target);
      loss.backward();
      optimizer.step();
      log.scalar("loss", loss.item<float>());
    }
  }

private:
  TemplateLoader &loader;
  Logger &log;
  torch::Device device;
  TemplateNet model;
};

#endif
