// RUN: %check_libtorch_tidy %s libtorch-module-not-on-device %t

#include <torch/torch.h>

#include <cstddef>
#include <memory>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

// Moves itself in its constructor.
struct SelfPlacingImpl : torch::nn::Module {
  explicit SelfPlacingImpl(torch::Device device)
      : fc(register_module("fc", torch::nn::Linear(4, 2))) {
    to(device);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(SelfPlacing);

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({2})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

using Loader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));

void train(Loader &loader) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  Net model;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: module 'model' is never moved to the GPU: its forward and backward passes in the training loop run on the CPU; call 'model->to(device)' once before training [libtorch-module-not-on-device]
  // CHECK-FIXES: {{^}}  Net model;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  model->to(device);{{$}}
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    auto data = batch.data.to(device, /*non_blocking=*/true);
    auto target = batch.target.to(device, /*non_blocking=*/true);
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(data), target);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: note: forward pass on device inputs in the training loop
    loss.backward();
    optimizer.step();
  }
}

// A std::shared_ptr module.
void train_shared(Loader &loader, torch::Device device) {
  auto model = std::make_shared<NetImpl>();
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: module 'model' is never moved to the GPU
  // CHECK-FIXES: {{^}}  auto model = std::make_shared<NetImpl>();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  model->to(device);{{$}}
  torch::optim::Adam optimizer(model->parameters());
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto output = model->forward(batch.data.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:19: note: forward pass on device inputs in the training loop
    output.sum().backward();
    optimizer.step();
  }
}

// A holder called with operator(), a device parameter in scope.
void train_holder(torch::Tensor x, torch::Device device, int steps) {
  torch::nn::Linear head(4, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: module 'head' is never moved to the GPU
  // CHECK-FIXES: {{^}}  torch::nn::Linear head(4, 2);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  head->to(device);{{$}}
  torch::optim::Adam optimizer(head->parameters());
  for (int step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    head(x).sum().backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: forward pass in the training loop
    optimizer.step();
  }
}

// The device variable is declared after the model: a note, no fix-it.
void declared_later(Loader &loader) {
  Net model;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: module 'model' is never moved to the GPU
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: move it once where it is set up: 'model->to(device);'
  torch::Device device(torch::kCUDA);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    model->forward(batch.data.cuda()).sum().backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: forward pass on device inputs
    optimizer.step();
  }
}

// Two device variables: which one is meant is not ours to guess.
void two_devices(Loader &loader, torch::Device first, torch::Device second) {
  Net model;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: module 'model' is never moved to the GPU
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: move it once where it is set up: 'model->to(device);'
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    model->forward(batch.data.to(first)).sum().backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: forward pass on device inputs
    optimizer.step();
  }
}

// A class that owns its model and never moves it.
class Trainer {
  torch::Device device_;
  Net model_;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: module 'model_' is never moved to the GPU
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: move it once where it is set up: 'model_->to(device_);'

public:
  explicit Trainer(torch::Device device) : device_(device) {}
  void fit(Loader &loader) {
    torch::optim::SGD optimizer(model_->parameters(), 0.1);
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      model_->forward(batch.data.to(device_)).sum().backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: note: forward pass on device inputs
      optimizer.step();
    }
  }
};

// A Sequential built from submodules made in place, used in a lambda and in
// the loop, while its companion is moved.
void train_sequential(torch::Device device, int steps) {
  torch::nn::Sequential gen(torch::nn::Linear(4, 8), torch::nn::ReLU(),
                            torch::nn::Linear(8, 2));
  torch::nn::Sequential critic(torch::nn::Linear(2, 8), torch::nn::ReLU(),
                               torch::nn::Linear(8, 1));
  // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: module 'critic' is never moved to the GPU
  // CHECK-FIXES: {{^}}                               torch::nn::Linear(8, 1));{{$}}
  // CHECK-FIXES-NEXT: {{^}}  critic->to(device);{{$}}
  gen->to(device);
  torch::optim::SGD g_opt(gen->parameters(), 0.1);
  torch::optim::SGD c_opt(critic->parameters(), 0.1);
  auto critic_step = [&] {
    critic->zero_grad();
    auto fake = gen->forward(torch::randn({8, 4}, device)).detach();
    critic->forward(fake).mean().backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: forward pass on device inputs in the training loop
    c_opt.step();
  };
  for (int step = 0; step < steps; ++step) {
    critic_step();
    g_opt.zero_grad();
    critic->forward(gen->forward(torch::randn({8, 4}, device))).mean().backward();
    g_opt.step();
  }
}

// ---------------------------------------------------------------------------
// Negatives.

// A Sequential around a submodule that was moved on its own: its parameters
// are on the device.
void sequential_of_moved(torch::Device device, int steps) {
  torch::nn::Linear body(4, 2);
  body->to(device);
  torch::nn::Sequential model(body, torch::nn::ReLU());
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (int step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    model->forward(torch::randn({8, 4}, device)).sum().backward();
    optimizer.step();
  }
}

void move_to(Net &net, torch::Device device) { net->to(device); }
void place(std::shared_ptr<NetImpl> net, torch::Device device) {
  net->to(device);
}

// Moved in a helper function, by reference and by shared_ptr.
void moved_in_helper(Loader &loader, torch::Device device) {
  Net model;
  move_to(model, device);
  auto shared = std::make_shared<NetImpl>();
  place(shared, device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto x = batch.data.to(device);
    (model->forward(x) + shared->forward(x)).sum().backward();
    optimizer.step();
  }
}

// Moved through get() and through the pointer.
void moved_through_pointer(Loader &loader, torch::Device device) {
  Net model;
  model.get()->to(device);
  auto shared = std::make_shared<NetImpl>();
  (*shared).to(device, /*non_blocking=*/true);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto x = batch.data.to(device);
    (model(x) + shared->forward(x)).sum().backward();
    optimizer.step();
  }
}

// Moved in the module's own constructor.
void self_placing(Loader &loader, torch::Device device) {
  SelfPlacing model(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    model->forward(batch.data.to(device)).sum().backward();
    optimizer.step();
  }
}

// Moved in the owner's constructor.
class PlacedTrainer {
public:
  explicit PlacedTrainer(torch::Device device) : device_(device) {
    model_->to(device_);
  }
  void fit(Loader &loader) {
    torch::optim::SGD optimizer(model_->parameters(), 0.1);
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      model_->forward(batch.data.to(device_)).sum().backward();
      optimizer.step();
    }
  }

private:
  torch::Device device_;
  Net model_;
};

// An owner whose other member functions live in another file.
class SplitTrainer {
public:
  explicit SplitTrainer(torch::Device device);
  void fit(Loader &loader) {
    torch::optim::SGD optimizer(model_->parameters(), 0.1);
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      model_->forward(batch.data.to(device_)).sum().backward();
      optimizer.step();
    }
  }

private:
  torch::Device device_;
  Net model_;
};

// A module used through a reference parameter: the caller may have moved
// it; we cannot see every caller.
void train_step(Net &model, torch::optim::Optimizer &optimizer,
                torch::Tensor x, torch::Device device) {
  for (int i = 0; i < 10; ++i) {
    optimizer.zero_grad();
    model->forward(x.to(device)).sum().backward();
    optimizer.step();
  }
}
void train_pointer(NetImpl *model, torch::optim::Optimizer &optimizer,
                   torch::Tensor x, torch::Device device) {
  for (int i = 0; i < 10; ++i) {
    optimizer.zero_grad();
    model->forward(x.to(device)).sum().backward();
    optimizer.step();
  }
}

// A model from a factory function, or copied from elsewhere.
Net make_model(torch::Device device);
void from_factory(Loader &loader, torch::Device device, Net given) {
  Net model = make_model(device);
  Net alias = given;
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto x = batch.data.to(device);
    (model->forward(x) + alias->forward(x)).sum().backward();
    optimizer.step();
  }
}

// Evaluation only: no training loop.
void evaluate(Loader &loader, torch::Device device) {
  Net model;
  torch::NoGradGuard no_grad;
  for (auto &batch : *loader)
    model->forward(batch.data.to(device));
}

// CPU on purpose: every device here is the CPU.
void train_on_cpu(Loader &loader) {
  torch::Device device(torch::kCPU);
  Net model;
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    model->forward(batch.data.to(device)).sum().backward();
    optimizer.step();
  }
}

// No device anywhere: nothing says the GPU is meant.
void train_no_device(Loader &loader) {
  Net model;
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    model->forward(batch.data).sum().backward();
    optimizer.step();
  }
}

// Moved inside a macro, and a lambda that moves it.
#define PLACE(m, d) (m)->to(d)
void moved_in_macro(Loader &loader, torch::Device device) {
  Net model;
  PLACE(model, device);
  Net other;
  auto place_other = [&] { other->to(device); };
  place_other();
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto x = batch.data.to(device);
    (model->forward(x) + other->forward(x)).sum().backward();
    optimizer.step();
  }
}
