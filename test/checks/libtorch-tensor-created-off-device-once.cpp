// The plugin on the real headers runs in libtorch-tensor-created-off-device.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-tensor-created-off-device %t
//
// A host factory copied to the device where it runs once, or in the data
// pipeline, or copied where it already is: not reported. Every line here is
// a factory-then-copy; none runs on every training step or evaluation batch.

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <vector>

// Buffers made in a constructor: once per model.
struct Net : torch::nn::Module {
  explicit Net(torch::Device device)
      : mask_(torch::ones({4}).to(device)), fc_(torch::nn::Linear(4, 2)) {
    offsets_ = register_buffer("offsets", torch::zeros({4}).to(device));
    register_module("fc", fc_);
  }
  torch::Tensor forward(torch::Tensor x) { return fc_(x * mask_ + offsets_); }
  torch::Tensor mask_, offsets_;
  torch::nn::Linear fc_{nullptr};
};

// A trainer that keeps moved-once state.
struct Trainer {
  explicit Trainer(torch::Device device)
      : device_(device), net_(device),
        optimizer_(net_.parameters(), torch::optim::SGDOptions(0.1)) {
    class_weights_ = torch::ones({2}).to(device_);
  }
  void fit(const torch::Tensor &x, const torch::Tensor &y);
  torch::Device device_;
  Net net_;
  torch::optim::SGD optimizer_;
  torch::Tensor class_weights_;
};

// A helper called once before training.
torch::Tensor make_hidden(int64_t n, torch::Device device) {
  return torch::zeros({n, 4}).to(device);
}

// A helper called once per epoch.
torch::Tensor epoch_jitter(torch::Device device) {
  return torch::rand({4}).to(device);
}

void Trainer::fit(const torch::Tensor &x, const torch::Tensor &y) {
  auto hidden = make_hidden(8, device_);
  auto fixed_noise = torch::randn({8, 4}).to(device_); // once before the loop
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto jitter = epoch_jitter(device_);
    auto scale = torch::full({4}, 0.5).to(device_); // once per epoch
    if (epoch % 5 == 0) {
      auto sample = torch::randn({16, 4}).to(device_); // every 5 epochs
      net_.forward(sample + fixed_noise);
    }
    for (int step = 0; step < 100; ++step) {
      auto input = x.to(device_) * scale + jitter + hidden;
      if (step % 100 == 0) {
        auto probe = torch::randn({2, 4}).to(device_); // every 100 steps
        net_.forward(probe);
      }
      optimizer_.zero_grad();
      torch::nll_loss(net_.forward(input), y.to(device_)).backward();
      optimizer_.step();
    }
  }
  auto final_probe = torch::ones({1, 4}).to(device_); // after training
  net_.forward(final_probe);
}

// Dataset and transforms run on the loader's worker threads, on CPU
// tensors: a copy to the device of one of them does nothing.
struct Images : torch::data::datasets::Dataset<Images> {
  torch::data::Example<> get(size_t index) override {
    auto image = torch::rand({3, 8, 8});
    auto label = torch::zeros({1}, torch::kLong).to(image.device());
    return {image + read_noise(image), label};
  }
  torch::Tensor read_noise(const torch::Tensor &image) {
    return torch::randn({3, 8, 8}).to(image.device());
  }
  c10::optional<size_t> size() const override { return 64; }
};

struct Jitter : torch::data::transforms::Transform<torch::data::Example<>,
                                                   torch::data::Example<>> {
  torch::data::Example<> apply(torch::data::Example<> e) override {
    return {e.data + torch::randn({3, 8, 8}).to(e.data.device()), e.target};
  }
};

struct Shift : torch::data::transforms::TensorTransform<> {
  torch::Tensor operator()(torch::Tensor input) override {
    return input + torch::ones({3, 8, 8}).to(input.device());
  }
};

void with_transforms(torch::Device device, torch::nn::Linear model,
                     torch::optim::SGD &optimizer) {
  auto dataset =
      Images()
          .map(Jitter())
          .map(Shift())
          .map(torch::data::transforms::Lambda<torch::data::Example<>>(
              [](torch::data::Example<> e) {
                return torch::data::Example<>{
                    e.data * torch::rand({1}).to(e.data.device()), e.target};
              }))
          .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(
      std::move(dataset),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  Images direct;
  for (auto &batch : *loader) {
    // Calling the dataset from the step is still the dataset's code.
    auto extra = direct.get(0);
    optimizer.zero_grad();
    model(batch.data.to(device, true) + extra.data.to(device, true))
        .sum()
        .backward();
    optimizer.step();
  }
}

// In the step, but nothing to move: a `*_like` of a device tensor, a
// stack of device tensors, a copy to the device of a host tensor.
void in_step(torch::Device device, torch::nn::Linear model,
             torch::optim::SGD &optimizer, const torch::Tensor &x) {
  auto host = torch::zeros({8, 4});
  for (int step = 0; step < 100; ++step) {
    auto input = x.to(device, true);
    auto noise = torch::randn_like(input).to(device);
    auto both = torch::stack({input, noise}).to(device);
    auto stays = torch::ones({8, 4}).to(host.device());
    optimizer.zero_grad();
    (model(input + noise).sum() + both.sum() + stays.sum()).backward();
    optimizer.step();
  }
}

// Sampling noise made once, before a sampling loop and before an evaluation
// loop.
void sample(torch::Device device, torch::nn::Linear model,
            std::vector<torch::Tensor> &batches) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto z = torch::randn({1, 4}).to(device);
  for (int t = 0; t < 10; ++t)
    z = model(z).tanh();
  auto offset = torch::ones({4}).to(device);
  for (auto &batch : batches)
    model(batch.to(device) + offset);
}
