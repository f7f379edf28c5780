// RUN: %clangxx_syntax_mock %s && %clangxx_syntax_real_pch %s
// CONFORMANCE: 1.13 2.15
//
// Conformance program for the mock LibTorch headers: torch::nn modules,
// options, ModuleHolder/TORCH_MODULE, Sequential, functional API and
// data_parallel.

#include <torch/torch.h>

// torch/torch.h does not include data_parallel; users include it themselves.
// Debian's CPU-only LibTorch cannot include that header (it needs the
// generated c10/cuda headers), so against it this program declares the real
// signature instead (data-parallel-decl.h).
#if defined(LIBTORCH_MOCK) || __has_include(<c10/cuda/impl/cuda_cmake_macros.h>)
#include <torch/nn/parallel/data_parallel.h>
#else
#include "data-parallel-decl.h"
#endif

#include <iostream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace F = torch::nn::functional;

// User-defined options in the TORCH_ARG style.
struct ConvNetOptions {
  ConvNetOptions(int64_t classes) : classes_(classes) {}
  TORCH_ARG(int64_t, classes);
  TORCH_ARG(bool, batch_norm) = true;
  TORCH_ARG(double, dropout) = 0.2;
};

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl(int64_t classes)
      : conv(torch::nn::Conv2dOptions(3, 16, 3).stride(1).padding(1).bias(
            false)),
        bn(torch::nn::BatchNorm2dOptions(16).eps(1e-5).momentum(0.1)),
        fc(torch::nn::LinearOptions(16, classes).bias(true)) {
    register_module("conv", conv);
    register_module("bn", bn);
    register_module("fc", fc);
    scale = register_parameter("scale", torch::ones({1}));
    register_buffer("steps", torch::zeros({1}, torch::kLong));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = F::relu(bn(conv(x)));
    x = F::max_pool2d(x, F::MaxPool2dFuncOptions(2));
    x = x.mean({2, 3});
    x = F::dropout(x, F::DropoutFuncOptions().p(0.2).training(is_training()));
    return F::log_softmax(fc(x) * scale, /*dim=*/1);
  }

  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
  torch::nn::Linear fc{nullptr};
  torch::Tensor scale;
};
TORCH_MODULE(ConvNet);

struct SeqModel : torch::nn::Module {
  SeqModel() {
    lstm = register_module(
        "lstm", torch::nn::LSTM(torch::nn::LSTMOptions(8, 16).num_layers(2).batch_first(true)));
    emb = register_module("emb", std::make_shared<torch::nn::EmbeddingImpl>(100, 8));
  }
  torch::Tensor forward(const torch::Tensor &tokens) {
    auto out = lstm->forward(emb->forward(tokens));
    torch::Tensor y = std::get<0>(out);
    std::tuple<torch::Tensor, torch::Tensor> state = std::get<1>(out);
    (void)std::get<0>(state);
    return y;
  }
  torch::nn::LSTM lstm{nullptr};
  std::shared_ptr<torch::nn::EmbeddingImpl> emb;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);

  ConvNet net(10);
  net->to(device);
  net->to(torch::kHalf);
  net->to(device, torch::kFloat, /*non_blocking=*/true);
  net->train();
  net->train(false);
  net->eval();
  bool training = net->is_training();
  (void)training;
  net->zero_grad();
  net->zero_grad(/*set_to_none=*/true);
  ConvNetImpl &impl = *net;
  (void)impl;
  ConvNetImpl *raw = net.get();
  (void)raw;
  std::shared_ptr<ConvNetImpl> ptr = net.ptr();
  (void)ptr;
  torch::Tensor input = torch::randn({8, 3, 32, 32}, device);
  torch::Tensor out = net(input);
  torch::Tensor out2 = net->forward(input);
  (void)out2;

  for (auto &p : net->parameters())
    p.set_requires_grad(false);
  for (auto &p : net->parameters(/*recurse=*/false))
    (void)p.grad();
  for (auto &item : net->named_parameters())
    std::cout << item.key() << item.value().sizes() << std::endl;
  for (auto &b : net->buffers())
    (void)b.to(device);
  net->apply([](torch::nn::Module &m) { (void)m.name(); });

  auto seq = torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1)),
      torch::nn::BatchNorm2d(8), torch::nn::ReLU(),
      torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)),
      torch::nn::Conv1d(torch::nn::Conv1dOptions(8, 8, 1)),
      torch::nn::Conv3d(torch::nn::Conv3dOptions(8, 8, {1, 1, 1})),
      torch::nn::ConvTranspose2d(
          torch::nn::ConvTranspose2dOptions(8, 8, 2).stride(2)),
      torch::nn::BatchNorm1d(torch::nn::BatchNorm1dOptions(8)),
      torch::nn::BatchNorm3d(8), torch::nn::Flatten(),
      torch::nn::Dropout(0.5), torch::nn::Dropout2d(),
      torch::nn::Functional(torch::relu), torch::nn::Sigmoid(),
      torch::nn::Tanh(),
      torch::nn::Functional(torch::leaky_relu, 0.2),
      torch::nn::Linear(8, 10));
  seq->to(device);
  seq->push_back(torch::nn::ReLU(torch::nn::ReLUOptions(true)));
  auto y = seq->forward(input);
  (void)y;
  // Note: `seq(input)` does not compile against real LibTorch (Sequential's
  // forward is a template, so ModuleHolder::operator() deduces void).
  torch::Tensor y2 = seq->forward<torch::Tensor>(input);
  (void)y2;
  size_t n = seq->size();
  (void)n;

  auto seq_model = std::make_shared<SeqModel>();
  seq_model->to(device);
  auto tokens = torch::randint(0, 100, {4, 12}, torch::kLong);
  (void)seq_model->forward(tokens);

  torch::Tensor loss = F::nll_loss(out, torch::zeros({8}, torch::kLong));
  loss = F::cross_entropy(out, torch::zeros({8}, torch::kLong));
  loss = F::mse_loss(out, torch::zeros_like(out));
  loss = F::nll_loss(out, torch::zeros({8}, torch::kLong),
                     F::NLLLossFuncOptions().reduction(torch::kSum));
  loss = torch::nn::functional::cross_entropy(
      out, torch::zeros({8}, torch::kLong),
      torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-1));
  loss = F::binary_cross_entropy(torch::sigmoid(out), torch::ones_like(out));
  (void)F::relu(out, F::ReLUFuncOptions().inplace(true));
  (void)F::log_softmax(out, F::LogSoftmaxFuncOptions(1));

  auto replicated = torch::nn::parallel::data_parallel(net, input);
  auto replicated2 = torch::nn::parallel::data_parallel(
      net, input,
      std::vector<torch::Device>{torch::Device(torch::kCUDA, 0),
                                 torch::Device(torch::kCUDA, 1)},
      torch::Device(torch::kCUDA, 0), /*dim=*/0);
  (void)replicated;
  (void)replicated2;

  ConvNetOptions options = ConvNetOptions(10).batch_norm(false).dropout(0.5);
  int64_t classes = options.classes();
  (void)classes;
  double norm = torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
  (void)norm;
  torch::Tensor lengths = torch::full({2}, 3, torch::kLong);
  torch::nn::utils::rnn::PackedSequence packed =
      torch::nn::utils::rnn::pack_padded_sequence(input, lengths, true);
  auto packed_data = packed.data().sum() + packed.batch_sizes().sum();
  (void)torch::nn::utils::rnn::pack_padded_sequence(input, lengths, false, false);
  (void)packed_data;
  torch::nn::Embedding embedding(torch::nn::EmbeddingOptions(10, 4).padding_idx(0));
  (void)embedding->forward(tokens);

  torch::nn::Linear lin(4, 2);
  torch::nn::Module root;
  auto held = root.register_module("lin", lin);
  auto shared = root.register_module("lin2", std::make_shared<torch::nn::LinearImpl>(2, 2));
  (void)held;
  (void)shared;
  std::cout << *lin << std::endl;
  torch::save(net, "net.pt");
  torch::load(net, "net.pt");
  return 0;
}
