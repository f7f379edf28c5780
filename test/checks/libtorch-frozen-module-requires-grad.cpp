// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-frozen-module-requires-grad %t

#include <torch/torch.h>

#include <string>
#include <vector>

struct ExtractorImpl : torch::nn::Module {
  ExtractorImpl() : conv(register_module("conv", torch::nn::Conv2d(3, 8, 3))) {}
  torch::Tensor forward(torch::Tensor x) { return conv(x); }
  torch::nn::Conv2d conv;
};
TORCH_MODULE(Extractor);

// A perceptual loss: the extractor is loaded, switched to eval() (which does
// not stop autograd) and never given to the optimizer.
void perceptual(torch::nn::Conv2d generator, torch::Tensor noise,
                torch::Tensor target, const std::string &path) {
  Extractor features;
  torch::load(features, path);
  features->eval();
  torch::optim::Adam optimizer(generator->parameters());
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    auto image = generator(noise);
    auto loss = torch::mse_loss(features(image), features->forward(target));
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'features' runs on every training step with autograd recording, yet no optimizer in this file gets its parameters: backward computes gradients for weights nobody updates, and keeps the activations they need [libtorch-frozen-module-requires-grad]
  // CHECK-MESSAGES: :[[@LINE-9]]:13: note: if 'features' is frozen, turn its gradients off once after loading: 'for (auto &p : features->parameters()) p.requires_grad_(false);', or run its forward under 'torch::NoGradGuard' when no loss is backpropagated through it
    loss.backward();
    optimizer.step();
  }
}

// Not flagged: the parameters are frozen after loading.
void frozen(torch::nn::Conv2d generator, torch::Tensor noise) {
  Extractor features;
  for (auto &p : features->parameters())
    p.requires_grad_(false);
  torch::optim::Adam optimizer(generator->parameters());
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(features(generator(noise)), noise).backward();
    optimizer.step();
  }
}

// Not flagged: its forward runs under a guard, or its output is detached.
void guarded(torch::nn::Conv2d generator, torch::Tensor noise,
             torch::Tensor target) {
  Extractor teacher;
  Extractor other;
  torch::optim::Adam optimizer(generator->parameters());
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::Tensor wanted;
    {
      torch::NoGradGuard no_grad;
      wanted = teacher(target);
    }
    auto soft = other(target).detach();
    torch::mse_loss(generator(noise), wanted + soft).backward();
    optimizer.step();
  }
}

// Not flagged: the module is trained, through a vector of parameters (also
// one a loop over parameters() fills), a parameter group, or its own
// optimizer.
void fine_tune(Extractor backbone, torch::nn::Linear head, torch::Tensor x,
               torch::Tensor y) {
  std::vector<torch::Tensor> params = head->parameters();
  auto more = backbone->parameters();
  params.insert(params.end(), more.begin(), more.end());
  torch::optim::SGD optimizer(params, 0.01);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(head(backbone(x).flatten(1)), y).backward();
    optimizer.step();
  }
}

void collected(Extractor backbone, torch::nn::Linear head, torch::Tensor x,
               torch::Tensor y) {
  std::vector<torch::Tensor> params = head->parameters();
  for (auto &p : backbone->parameters())
    params.push_back(p);
  torch::optim::Adam optimizer(params);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(head(backbone(x).flatten(1)), y).backward();
    optimizer.step();
  }
}

void groups(Extractor backbone, torch::nn::Linear head, torch::Tensor x,
            torch::Tensor y) {
  std::vector<torch::optim::OptimizerParamGroup> param_groups;
  param_groups.emplace_back(backbone->parameters());
  param_groups.emplace_back(head->parameters());
  torch::optim::Adam optimizer(param_groups);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(head(backbone(x).flatten(1)), y).backward();
    optimizer.step();
  }
}

// Not flagged: a layer called in its module's own forward is trained with
// the module; a module used only outside the training step.
struct TwoStageImpl : torch::nn::Module {
  TwoStageImpl()
      : stem(register_module("stem", Extractor())),
        head(register_module("head", torch::nn::Linear(8, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return head(stem(x).flatten(1)); }
  Extractor stem;
  torch::nn::Linear head;
};
TORCH_MODULE(TwoStage);

void whole(TwoStage model, Extractor probe, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(model(x), y).backward();
    optimizer.step();
  }
  auto features = probe(x);
}
