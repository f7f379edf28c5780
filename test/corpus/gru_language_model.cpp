// A word-level GRU language model over a synthetic token stream, driven by
// a trainer class: the causal position table and the class weights are
// made on the device once, in the trainer's constructor; the hidden state
// is reset once per epoch; every batch draws its dropout mask and picks its
// windows with an index tensor made in a helper.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

namespace lm {

constexpr int64_t kVocab = 256;
constexpr int64_t kEmbed = 64;
constexpr int64_t kHidden = 128;
constexpr int64_t kWindow = 32;
constexpr int64_t kBatch = 16;

struct GruLmImpl : torch::nn::Module {
  GruLmImpl()
      : embed(register_module("embed", torch::nn::Embedding(kVocab, kEmbed))),
        gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(kEmbed, kHidden).batch_first(true)))),
        head(register_module("head", torch::nn::Linear(kHidden, kVocab))) {}
  std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor &tokens, const torch::Tensor &h) {
    auto [out, h_next] = gru->forward(embed->forward(tokens), h);
    return {head->forward(out), h_next};
  }
  torch::nn::Embedding embed{nullptr};
  torch::nn::GRU gru{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(GruLm);

// Offsets of the windows of one batch, drawn at random from the stream.
torch::Tensor window_starts(int64_t stream_length, torch::Device device) {
  return torch::randint(stream_length - kWindow - 1, {kBatch}).to(device); // EXPECT: libtorch-tensor-created-off-device
}

class Trainer {
public:
  Trainer(torch::Tensor stream, torch::Device device)
      : device_(device), stream_(stream.to(device)),
        positions_(torch::arange(kWindow).to(device)), // OK: once, in the constructor
        optimizer_(model_->parameters(), torch::optim::AdamOptions(3e-3)) {
    model_->to(device_);
    // Rare tokens weigh more; computed once, moved once.
    class_weights_ = torch::ones({kVocab}).to(device_); // OK: once, in the constructor
    class_weights_.slice(0, 200).fill_(2.0);
  }

  void fit(int epochs, int steps_per_epoch) {
    for (int epoch = 0; epoch < epochs; ++epoch) {
      auto hidden = torch::zeros({1, kBatch, kHidden}).to(device_); // OK: once per epoch
      auto drop = [&](const torch::Tensor &x) {
        auto keep = torch::rand({x.size(0), x.size(1), 1}).to(device_) > 0.1; // EXPECT: libtorch-tensor-created-off-device
        return x * keep / 0.9;
      };
      for (int step = 0; step < steps_per_epoch; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
        auto starts = window_starts(stream_.size(0), device_);
        auto index = starts.unsqueeze(1) + positions_;
        auto inputs = stream_.index_select(0, index.flatten()).view({kBatch, kWindow});
        auto targets = stream_.index_select(0, (index + 1).flatten()).view({kBatch, kWindow});
        auto [logits, h_next] = model_->forward(inputs, hidden);
        hidden = h_next.detach();
        auto loss = torch::nn::functional::cross_entropy(
            drop(logits).reshape({-1, kVocab}), targets.reshape({-1}),
            torch::nn::functional::CrossEntropyFuncOptions().weight(class_weights_));
        optimizer_.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
        loss.backward();
        optimizer_.step();
        if (step % 200 == 0) {
          auto probe = torch::randint(kVocab, {1, kWindow}).to(device_); // OK: every 200 steps
          auto [probe_logits, probe_h] = model_->forward(probe, torch::zeros({1, 1, kHidden}, device_)); // EXPECT: libtorch-eval-without-no-grad
          std::cout << "epoch " << epoch << " step " << step << " loss " << loss.item<float>() // OK: every 200 steps
                    << " probe " << probe_logits.argmax(-1)[0][0].item<int64_t>() << '\n'; // OK: every 200 steps
        }
      }
    }
  }

private:
  torch::Device device_;
  torch::Tensor stream_;
  torch::Tensor positions_;
  GruLm model_;
  torch::optim::Adam optimizer_;
  torch::Tensor class_weights_;
};

} // namespace lm

int main() {
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  // A token stream with some structure: a noisy repeating phrase.
  auto stream = (torch::arange(100000) % 97 + torch::randint(0, 3, {100000})) % lm::kVocab;
  lm::Trainer trainer(stream, device);
  trainer.fit(3, 1000);
}
