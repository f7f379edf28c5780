// Character-level GRU language model on a synthetic alphabet stream, with
// gradient accumulation over micro-batches. The accumulation is defeated:
// gradients are cleared on every micro-batch while the step is guarded.
#include <torch/torch.h>

#include <iostream>
#include <string>

namespace {
constexpr int64_t kVocab = 27;
constexpr int kAccumulate = 4;

class CharRNN : public torch::nn::Module {
public:
  CharRNN()
      : embed_(register_module("embed", torch::nn::Embedding(kVocab, 32))),
        gru_(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(32, 128).batch_first(true)))),
        proj_(register_module("proj", torch::nn::Linear(128, kVocab))) {}
  torch::Tensor forward(const torch::Tensor &tokens) {
    auto h = std::get<0>(gru_->forward(embed_->forward(tokens)));
    return proj_->forward(h);
  }

private:
  torch::nn::Embedding embed_;
  torch::nn::GRU gru_;
  torch::nn::Linear proj_;
};

torch::Tensor make_text(int64_t n) {
  // A repeating alphabet with noise: predictable, but not trivially.
  auto base = torch::arange(n) % (kVocab - 1);
  auto noise = (torch::rand({n}) < 0.05).to(torch::kLong) * torch::randint(kVocab, {n});
  return torch::where(noise > 0, noise, base);
}
} // namespace

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available())
    device = torch::Device(torch::kCUDA, 0);
  auto model = std::make_shared<CharRNN>();
  model->to(device);
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(3e-3));
  auto text = make_text(1 << 16).to(device); // OK: host data copied once

  const int64_t seq = 64, micro = 16;
  for (int step = 0; step < 4000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto starts = torch::randint(text.size(0) - seq - 1, {micro}, device); // OK: made on the device
    auto idx = starts.unsqueeze(1) + torch::arange(seq + 1, device);
    auto window = text.index_select(0, idx.flatten()).view({micro, seq + 1});
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-accumulation, libtorch-zero-grad-set-to-none
    auto logits = model->forward(window.slice(1, 0, seq));
    auto loss = torch::cross_entropy_loss(logits.reshape({-1, kVocab}), window.slice(1, 1).reshape(-1)) / kAccumulate;
    loss.backward();
    if ((step + 1) % kAccumulate == 0) {
      opt.step();
    }
    if (step % 500 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() * kAccumulate << std::endl; // OK: every 500 steps
  }
}
