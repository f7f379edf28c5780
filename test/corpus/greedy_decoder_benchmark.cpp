// Inference tooling for a small sequence model: a latency benchmark that
// times every batch, and greedy decoding of one sequence at a time that
// stops at the end token.
#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <vector>

struct TinyDecoder : torch::nn::Module {
  TinyDecoder(int64_t vocab, int64_t hidden)
      : embed(register_module("embed", torch::nn::Embedding(vocab, hidden))),
        cell(register_module("cell", torch::nn::GRUCell(hidden, hidden))),
        out(register_module("out", torch::nn::Linear(hidden, vocab))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor token, torch::Tensor h) {
    h = cell(embed(token), h);
    return {out(h), h};
  }
  torch::nn::Embedding embed;
  torch::nn::GRUCell cell;
  torch::nn::Linear out;
};

constexpr int64_t kVocab = 512, kHidden = 128, kEos = 1;

std::vector<double> benchmark(TinyDecoder &model, torch::Device device, int64_t batch) {
  torch::NoGradGuard no_grad;
  model.eval();
  auto tokens = torch::randint(kVocab, {batch}, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto h = torch::zeros({batch, kHidden}, device);
  std::vector<double> ms;
  for (int run = 0; run < 200; ++run) {
    auto start = std::chrono::steady_clock::now();
    auto [logits, next_h] = model.forward(tokens, h);
    torch::cuda::synchronize(); // OK: the wait is the measurement
    auto stop = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return ms;
}

std::vector<int64_t> greedy_decode(TinyDecoder &model, torch::Device device, int64_t bos) {
  torch::NoGradGuard no_grad;
  model.eval();
  std::vector<int64_t> tokens{bos};
  auto token = torch::full({1}, bos, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto h = torch::zeros({1, kHidden}, device);
  float confidence = 0;
  for (int t = 0; t < 64; ++t) {
    auto [logits, next_h] = model.forward(token, h);
    h = next_h;
    confidence += logits.softmax(-1).max().item<float>(); // EXPECT: libtorch-host-sync-in-loop
    token = logits.argmax(-1);
    const int64_t id = token.item<int64_t>(); // OK: the host must know when the sequence ends
    if (id == kEos)
      break;
    tokens.push_back(id);
  }
  std::cout << "mean confidence " << confidence / tokens.size() << '\n';
  return tokens;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  TinyDecoder model(kVocab, kHidden);
  model.to(device);
  auto ms = benchmark(model, device, 32);
  double total = 0;
  for (double m : ms)
    total += m;
  std::cout << "mean latency " << total / ms.size() << " ms\n";
  std::cout << greedy_decode(model, device, 2).size() << " tokens\n";
}
