// A BiLSTM sequence tagger on synthetic token sequences; per-step accuracy is
// counted on the host.
#include <torch/torch.h>

#include <iostream>

struct TaggerImpl : torch::nn::Module {
  TaggerImpl(int64_t vocab, int64_t tags)
      : emb(register_module("emb", torch::nn::Embedding(vocab, 64))),
        lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(64, 64).bidirectional(true).batch_first(true)))),
        out(register_module("out", torch::nn::Linear(128, tags))) {}
  torch::Tensor forward(const torch::Tensor &tokens) {
    return out(std::get<0>(lstm(emb(tokens))));
  }
  torch::nn::Embedding emb;
  torch::nn::LSTM lstm;
  torch::nn::Linear out;
};
TORCH_MODULE(Tagger);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 500, tags = 5;
  Tagger tagger(vocab, tags);
  tagger->to(device);
  torch::optim::Adam opt(tagger->parameters(), 2e-3);
  int64_t correct = 0, seen = 0;
  for (int step = 1; step <= 2000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto tokens = torch::randint(vocab, {32, 40}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto gold = tokens.remainder(tags);
    auto logits = tagger(tokens);
    auto loss = torch::cross_entropy_loss(logits.reshape({-1, tags}), gold.reshape(-1));
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    opt.step();
    correct += logits.argmax(2).eq(gold).sum().item<int64_t>(); // EXPECT: libtorch-host-sync-in-loop
    seen += gold.numel();
    if (step % 200 == 0) {
      std::cout << "step " << step << " token accuracy " << static_cast<double>(correct) / seen << '\n'; // OK: host integers
      correct = seen = 0;
    }
  }
}
