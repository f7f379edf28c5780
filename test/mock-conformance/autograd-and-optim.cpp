// RUN: %clangxx_syntax_mock %s && %clangxx_syntax_real %s
// CONFORMANCE: 1.13 2.15
//
// Conformance program for the mock LibTorch headers: autograd entry points,
// grad modes, anomaly detection, optimizers and schedulers, gradient
// accumulation, global context knobs, autocast (1.13 API), serialization and
// TorchScript loading.

#include <ATen/autocast_mode.h>
#include <torch/script.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <iostream>
#include <memory>
#include <tuple>
#include <vector>

// Debian's libtorch-dev 1.13.1 ships a torch/version.h that says 1.13.0; the
// mock's 2.x mode models LibTorch 2.15.0.
static_assert((TORCH_VERSION_MAJOR == 1 && TORCH_VERSION_MINOR == 13 &&
               TORCH_VERSION_PATCH == 0) ||
                  (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR == 15 &&
                   TORCH_VERSION_PATCH == 0),
              "these conformance programs model LibTorch 1.13 and 2.15");

int main() {
  torch::manual_seed(0);
  at::manual_seed(0);
  torch::cuda::manual_seed_all(0);

  at::globalContext().setFloat32MatmulPrecision("high");
  at::globalContext().setAllowTF32CuBLAS(true);
  at::globalContext().setAllowTF32CuDNN(true);
  at::globalContext().setBenchmarkCuDNN(true);
  at::globalContext().setDeterministicCuDNN(false);
  bool bench = at::globalContext().benchmarkCuDNN();
  (void)bench;
  at::Context &ctx = at::globalContext();
#if TORCH_VERSION_MAJOR < 2
  // 2.15 has only the std::string overload (Inputs/rejected.cpp).
  ctx.setFloat32MatmulPrecision(at::Float32MatmulPrecision::HIGH);
#endif

  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Linear(10, 1);
  model->to(device);

  torch::optim::SGD sgd(model->parameters(),
                        torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
  torch::optim::SGD sgd2(model->parameters(), /*lr=*/0.01);
  torch::optim::Adam adam(model->parameters(),
                          torch::optim::AdamOptions(1e-3).betas({0.9, 0.99}).weight_decay(1e-4));
  torch::optim::AdamW adamw(model->parameters(), torch::optim::AdamWOptions(1e-3));
  torch::optim::RMSprop rms(model->parameters(), torch::optim::RMSpropOptions(1e-2).alpha(0.9));
  torch::optim::Adam adam_default(model->parameters());
  torch::optim::StepLR scheduler(sgd, /*step_size=*/10, /*gamma=*/0.5);

  torch::optim::Optimizer &opt = adam;
  for (auto &group : opt.param_groups()) {
    for (auto &p : group.params())
      p.mutable_grad().reset();
    auto &options = static_cast<torch::optim::AdamOptions &>(group.options());
    options.lr(options.lr() * 0.5);
    double lr = group.options().get_lr();
    (void)lr;
  }
  opt.add_param_group(torch::optim::OptimizerParamGroup(model->parameters()));
  opt.zero_grad();
  torch::Tensor stepped = opt.step();
  (void)stepped;
  (void)opt.parameters().size();

  const int accumulation = 4;
  at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({16, 10}, device);
    auto target = torch::randn({16, 1}, device);
    at::autocast::set_enabled(true);
    auto loss = torch::mse_loss(model->forward(x), target) / accumulation;
    at::autocast::clear_cache();
    at::autocast::set_enabled(false);
    bool amp = at::autocast::is_enabled();
    (void)amp;
    loss.backward();
    if ((step + 1) % accumulation == 0) {
      sgd.step();
      sgd.zero_grad();
      scheduler.step();
    }
    loss.backward(torch::ones_like(loss), /*retain_graph=*/true,
                  /*create_graph=*/false);
    loss.backward({}, c10::nullopt, false, std::vector<torch::Tensor>{x});
    torch::autograd::backward({loss});
    torch::autograd::backward({loss}, {torch::ones_like(loss)},
                              /*retain_graph=*/true, /*create_graph=*/false);
    auto grads = torch::autograd::grad({loss}, {x}, {}, true, true);
    (void)grads;
    auto closure_loss = adam.step([&] {
      adam.zero_grad();
      auto l = torch::mse_loss(model->forward(x), target);
      l.backward();
      return l;
    });
    (void)closure_loss;
    torch::Tensor returned = rms.step();
    (void)returned;
    adamw.step();
    model->zero_grad();
  }

  {
    torch::NoGradGuard no_grad;
    c10::InferenceMode guard;
    torch::InferenceMode guard2(true);
    torch::autograd::InferenceMode guard3;
    at::NoGradGuard no_grad2;
    torch::AutoGradMode enable_grad(false);
    c10::AutoGradMode enable_grad2(true);
    bool grad_on = torch::GradMode::is_enabled();
    at::GradMode::set_enabled(grad_on);
    torch::autograd::GradMode::set_enabled(false);
    bool inference = c10::InferenceMode::is_enabled();
    (void)inference;
  }

  torch::autograd::AnomalyMode::set_enabled(true);
  torch::autograd::AnomalyMode::set_enabled(true, /*check_nan=*/false);
  bool anomaly = torch::autograd::AnomalyMode::is_enabled();
  (void)anomaly;
  {
    torch::autograd::DetectAnomalyGuard detect;
    torch::autograd::DetectAnomalyGuard detect2(/*check_nan=*/false);
  }

  auto w = torch::randn({3}, torch::requires_grad());
  auto v = torch::ones({3}).set_requires_grad(true);
  torch::Tensor g = w.grad();
  if (w.grad().defined())
    w.mutable_grad().zero_();
  w.mutable_grad() = torch::Tensor();
  (void)g;
  (void)v;

  torch::save(model, "linear.pt");
  torch::load(model, "linear.pt");
  torch::save(sgd, "sgd.pt");
  torch::load(sgd, "sgd.pt");
  torch::Tensor saved = torch::ones({2});
  torch::save(saved, "tensor.pt");
  torch::load(saved, "tensor.pt");

  torch::jit::script::Module scripted = torch::jit::load("model.pt");
  torch::jit::Module scripted2 = torch::jit::load("model.pt", device);
  scripted.eval();
  scripted.to(device);
  std::vector<torch::jit::IValue> inputs;
  inputs.push_back(torch::ones({1, 3, 224, 224}));
  at::Tensor output = scripted.forward(inputs).toTensor();
  torch::IValue iv = scripted2(inputs);
  (void)iv;
  std::cout << output.slice(/*dim=*/1, /*start=*/0, /*end=*/5) << std::endl;
  return 0;
}
