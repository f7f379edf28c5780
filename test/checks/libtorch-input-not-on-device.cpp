// RUN: %check_libtorch_tidy %s libtorch-input-not-on-device %t

#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({2})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

using Loader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));

#define FORWARD(m, x) (m)->forward(x)

void train(Loader &loader) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  torch::nn::Linear model(4, 2);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto output = model->forward(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'batch.data' is a data-loader batch in host memory, used with the model on the GPU; copy it to the device with '.to(device)' first [libtorch-input-not-on-device]
    // CHECK-FIXES: {{^}}    auto output = model->forward(batch.data.to(device, /*non_blocking=*/true));{{$}}
    auto loss = torch::mse_loss(output, batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'batch.target' is a data-loader batch in host memory, used with tensors on the GPU
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(output, batch.target.to(device, /*non_blocking=*/true));{{$}}
    loss.backward();
    optimizer.step();
  }
}

// Through a local variable and a view: reported at the use, fixed where
// the tensor leaves the batch.
void train_local(Loader &loader, torch::Device device) {
  torch::nn::Linear model(4, 2);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    torch::Tensor images = batch.data.view({-1, 4});
    // CHECK-FIXES: {{^}}    torch::Tensor images = batch.data.to(device, /*non_blocking=*/true).view({-1, 4});{{$}}
    optimizer.zero_grad();
    model(images).sum().backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'batch.data' is a data-loader batch in host memory, used with the model on the GPU
    // CHECK-MESSAGES: :[[@LINE-5]]:28: note: the batch tensor comes from here
    optimizer.step();
  }
}

// The module is a parameter; the caller of this file moves it.
void epoch(torch::nn::Linear &model, Loader &loader, torch::Device device,
           torch::optim::SGD &optimizer) {
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    model->forward(batch.data).sum().backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'batch.data' is a data-loader batch in host memory, used with the model on the GPU
    // CHECK-FIXES: {{^}}    model->forward(batch.data.to(device, /*non_blocking=*/true)).sum().backward();{{$}}
    optimizer.step();
  }
}
void run(Loader &loader, torch::Device device) {
  torch::nn::Linear model(4, 2);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  epoch(model, loader, device, optimizer);
}

// A Sequential built from submodules made in place is as fresh as a Linear:
// its '->to(device)' puts it on the device.
void sequential(Loader &loader, torch::Device device) {
  torch::nn::Sequential model(torch::nn::Linear(4, 8), torch::nn::ReLU(),
                              torch::nn::Linear(8, 2));
  model->to(device);
  for (auto &batch : *loader)
    model->forward(batch.data);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'batch.data' is a data-loader batch in host memory, used with the model on the GPU
  // CHECK-FIXES: {{^}}    model->forward(batch.data.to(device, /*non_blocking=*/true));{{$}}
}

// A dataset that converts its labels' element type (a dtype, not a device)
// in its constructor still makes host batches.
struct Labeled : torch::data::datasets::Dataset<Labeled> {
  Labeled()
      : features_(torch::randn({64, 4})),
        labels_((features_.sum(1) > 0).to(torch::kLong)) {}
  torch::data::Example<> get(size_t index) override {
    return {features_[index], labels_[index].to(torch::kFloat)};
  }
  c10::optional<size_t> size() const override { return 64; }
  torch::Tensor features_, labels_;
};

void labeled(torch::Device device) {
  auto loader = torch::data::make_data_loader(
      Labeled().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  torch::nn::Linear model(4, 2);
  model->to(device);
  for (auto &batch : *loader)
    model->forward(batch.data);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'batch.data' is a data-loader batch in host memory, used with the model on the GPU
  // CHECK-FIXES: {{^}}    model->forward(batch.data.to(device, /*non_blocking=*/true));{{$}}
}

// ---------------------------------------------------------------------------
// Negatives.

// A Sequential that wraps a module made elsewhere: that module may be on the
// device (here it is), so the batch may need to go there, but we cannot tell
// for the Sequential as a whole.
void shared_submodule(Loader &loader) {
  torch::nn::Linear head(4, 2);
  torch::nn::Sequential model(head);
  for (auto &batch : *loader)
    model->forward(batch.data);
}

void moved(Loader &loader, torch::Device device) {
  torch::nn::Linear model(4, 2);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    auto data = batch.data.to(device, /*non_blocking=*/true);
    auto target = batch.target.cuda();
    torch::Tensor later = batch.data;
    later = later.to(device);
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(data), target) +
                model->forward(later).sum();
    loss.backward();
    optimizer.step();
  }
}

// The model stays on the CPU: so do the batches.
void on_host(Loader &loader) {
  torch::nn::Linear model(4, 2);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    torch::mse_loss(model->forward(batch.data), batch.target).backward();
    optimizer.step();
  }
}

// CPU on purpose.
void cpu_device(Loader &loader) {
  torch::Device device(torch::kCPU);
  torch::nn::Linear model(4, 2);
  model->to(device);
  for (auto &batch : *loader)
    model->forward(batch.data);
}

// Pinned on the way, or moved in a macro: not ours to follow.
void pinned(Loader &loader, torch::Device device, bool pin) {
  torch::nn::Linear model(4, 2);
  model->to(device);
  for (auto &batch : *loader) {
    torch::Tensor img = batch.data;
    torch::Tensor staged = pin ? img.pin_memory() : img;
    model->forward(staged.to(device));
    FORWARD(model, batch.data);
  }
}

// A dataset that already puts its samples on the GPU.
struct OnDevice : torch::data::datasets::Dataset<OnDevice> {
  explicit OnDevice(torch::Device device) : device_(device) {}
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}).to(device_), torch::zeros({2}).to(device_)};
  }
  c10::optional<size_t> size() const override { return 64; }
  torch::Device device_;
};

void preloaded(torch::Device device) {
  auto loader = torch::data::make_data_loader(
      OnDevice(device).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  torch::nn::Linear model(4, 2);
  model->to(device);
  for (auto &batch : *loader)
    model->forward(batch.data);
}

// A dataset whose factories make its samples on the device (what
// libtorch-tensor-created-off-device's fix-it turns OnDevice into).
struct MadeOnDevice : torch::data::datasets::Dataset<MadeOnDevice> {
  explicit MadeOnDevice(torch::Device device) : device_(device) {}
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}, device_), torch::zeros({2}, device_)};
  }
  c10::optional<size_t> size() const override { return 64; }
  torch::Device device_;
};

void made_on_device(torch::Device device) {
  auto loader = torch::data::make_data_loader(
      MadeOnDevice(device).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  torch::nn::Linear model(4, 2);
  model->to(device);
  for (auto &batch : *loader)
    model->forward(batch.data);
}

// A dataset that preloads its tensors onto the device in its constructor's
// initializers: the batches are on the device already.
struct Preloaded : torch::data::datasets::Dataset<Preloaded> {
  explicit Preloaded(torch::Device device)
      : features_(torch::randn({64, 4}).to(device)),
        labels_(torch::zeros({64}, torch::kLong).to(device)) {}
  torch::data::Example<> get(size_t index) override {
    return {features_[index], labels_[index]};
  }
  c10::optional<size_t> size() const override { return 64; }
  torch::Tensor features_, labels_;
};

void preloaded_in_constructor(torch::Device device) {
  auto loader = torch::data::make_data_loader(
      Preloaded(device).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  torch::nn::Sequential model(torch::nn::Linear(4, 2));
  model->to(device);
  for (auto &batch : *loader)
    model->forward(batch.data);
}
