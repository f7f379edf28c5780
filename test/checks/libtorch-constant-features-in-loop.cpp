// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-constant-features-in-loop %t

#include <torch/torch.h>

#include <string>
#include <vector>

struct VggImpl : torch::nn::Module {
  VggImpl() : conv(register_module("conv", torch::nn::Conv2d(3, 8, 3))) {}
  torch::Tensor forward(torch::Tensor x) { return conv(x); }
  torch::nn::Conv2d conv;
};
TORCH_MODULE(Vgg);

torch::Tensor gram(const torch::Tensor &features) {
  auto flat = features.flatten(2);
  return torch::bmm(flat, flat.transpose(1, 2));
}

// Neural style transfer as tutorials write it: the extractor is loaded and
// switched to eval(), and the style image's features are computed again on
// every step although neither the extractor nor the style image changes.
void stylize(torch::Tensor content, const std::string &path) {
  Vgg vgg;
  torch::load(vgg, path);
  vgg->eval();
  auto style = torch::rand({1, 3, 8, 8});
  auto image = content.clone().requires_grad_(true);
  torch::optim::Adam optimizer({image});
  for (int step = 0; step < 300; ++step) {
    optimizer.zero_grad();
    auto style_features = vgg(style);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'vgg' computes the same output on every training step: no optimizer in this file trains it and its inputs do not change in the loop; compute it once before the loop, under 'torch::NoGradGuard' [libtorch-constant-features-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the training loop is here
    // Not flagged: 'image' is what the optimizer updates on every step.
    auto loss = torch::mse_loss(gram(vgg(image)), gram(style_features));
    loss.backward();
    optimizer.step();
  }
}

// The extractor frozen properly, its forward called both ways: each call on
// the style image is reported.
void frozen_extractor(torch::Tensor image, const std::string &path) {
  Vgg vgg;
  torch::load(vgg, path);
  for (auto &p : vgg->parameters())
    p.requires_grad_(false);
  auto style = torch::rand({1, 3, 8, 8});
  torch::optim::Adam optimizer({image});
  for (int step = 0; step < 300; ++step) {
    optimizer.zero_grad();
    auto by_call = torch::mse_loss(gram(vgg(image)), gram(vgg(style)));
    // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: 'vgg' computes the same output on every training step: no optimizer in this file trains it and its inputs do not change in the loop; compute it once before the loop, under 'torch::NoGradGuard' [libtorch-constant-features-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the training loop is here
    auto direct = torch::mse_loss(vgg->forward(image), vgg->forward(style));
    // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'vgg' computes the same output on every training step: no optimizer in this file trains it and its inputs do not change in the loop; compute it once before the loop, under 'torch::NoGradGuard' [libtorch-constant-features-in-loop]
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the training loop is here
    auto loss = by_call + direct;
    loss.backward();
    optimizer.step();
  }
}

// The style image as a parameter, a while loop, a detached target: the loop
// steps only the optimizer built here, which never gets 'style'.
void transfer(Vgg vgg, torch::Tensor style, torch::Tensor content) {
  vgg->eval();
  auto image = content.clone();
  image.requires_grad_(true);
  torch::optim::Adam optimizer({image});
  int step = 0;
  while (step++ < 300) {
    optimizer.zero_grad();
    auto target = vgg(style).detach();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'vgg' computes the same output on every training step: no optimizer in this file trains it and its inputs do not change in the loop; compute it once before the loop, under 'torch::NoGradGuard' [libtorch-constant-features-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the training loop is here
    auto loss = torch::mse_loss(vgg(image), target);
    loss.backward();
    optimizer.step();
  }
}

// Not flagged: the input is the step's batch, or made in the call.
void perceptual(torch::nn::Conv2d generator,
                std::vector<torch::Tensor> batches, const std::string &path) {
  Vgg vgg;
  torch::load(vgg, path);
  vgg->eval();
  torch::optim::Adam optimizer(generator->parameters());
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    auto noise = vgg(torch::randn({1, 3, 8, 8}));
    auto loss = torch::mse_loss(vgg(generator(batch)), vgg(batch)) +
                noise.mean();
    loss.backward();
    optimizer.step();
  }
}

// Not flagged: the module is trained: its parameters reach the optimizer.
void fine_tune(Vgg net, torch::Tensor style, torch::Tensor target) {
  torch::optim::Adam optimizer(net->parameters());
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(net(style), target).backward();
    optimizer.step();
  }
}

// Not flagged: a preview under a periodic guard, and the target computed
// once before the loop.
void hoisted(torch::Tensor image, const std::string &path) {
  Vgg vgg;
  torch::load(vgg, path);
  vgg->eval();
  auto style = torch::rand({1, 3, 8, 8});
  torch::Tensor style_gram;
  {
    torch::NoGradGuard no_grad;
    style_gram = gram(vgg(style));
  }
  torch::optim::Adam optimizer({image});
  for (int step = 0; step < 300; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(gram(vgg(image)), style_gram).backward();
    optimizer.step();
    if (step % 50 == 0) {
      torch::NoGradGuard no_grad;
      auto preview = vgg(style);
    }
  }
}

void augment(torch::Tensor &t) { t = t * 0.9; }

// Not flagged: inputs the loop changes: declared in it, reassigned, written
// in place, passed by non-const reference.
void changing_inputs(torch::Tensor image, const std::string &path) {
  Vgg vgg;
  torch::load(vgg, path);
  vgg->eval();
  auto style = torch::rand({1, 3, 8, 8});
  auto scaled = torch::rand({1, 3, 8, 8});
  auto noisy = torch::rand({1, 3, 8, 8});
  auto augmented = torch::rand({1, 3, 8, 8});
  torch::optim::Adam optimizer({image});
  for (int step = 0; step < 300; ++step) {
    optimizer.zero_grad();
    auto jittered = style + 0.01 * torch::randn_like(style);
    scaled = scaled * 2;
    noisy.add_(torch::randn_like(noisy));
    augment(augmented);
    auto loss = torch::mse_loss(vgg(image), vgg(jittered)) +
                torch::mse_loss(vgg(image), vgg(scaled)) +
                torch::mse_loss(vgg(image), vgg(noisy)) +
                torch::mse_loss(vgg(image), vgg(augmented));
    loss.backward();
    optimizer.step();
  }
}

// Not flagged: the inputs are members, which any method may change.
struct Stylizer {
  Vgg vgg;
  torch::Tensor style;
  void fit(torch::Tensor image) {
    torch::optim::Adam optimizer({image});
    for (int step = 0; step < 300; ++step) {
      optimizer.zero_grad();
      torch::mse_loss(vgg(image), vgg(style)).backward();
      optimizer.step();
    }
  }
};

// Not flagged: the forward passes run in a helper the loop calls; whether
// each call passes the same tensors is not followed.
torch::Tensor style_loss(Vgg &vgg, const torch::Tensor &image,
                         const torch::Tensor &style) {
  return torch::mse_loss(gram(vgg(image)), gram(vgg(style)));
}

void through_helper(torch::Tensor image, const std::string &path) {
  Vgg vgg;
  torch::load(vgg, path);
  auto style = torch::rand({1, 3, 8, 8});
  torch::optim::Adam optimizer({image});
  for (int step = 0; step < 300; ++step) {
    optimizer.zero_grad();
    style_loss(vgg, image, style).backward();
    optimizer.step();
  }
}

// Not flagged: a parameter when the loop steps an optimizer it did not
// build: the caller may have given it the tensor.
void foreign_optimizer(Vgg vgg, torch::Tensor style, torch::Tensor image,
                       torch::optim::Adam &optimizer) {
  for (int step = 0; step < 300; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(vgg(image), vgg(style)).backward();
    optimizer.step();
  }
}
