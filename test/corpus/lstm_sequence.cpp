// Sequence regression with an LSTM on synthetic sine waves: truncated BPTT,
// hidden state carried across chunks and detached, gradient clipping.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <tuple>

struct SeqModelImpl : torch::nn::Module {
  SeqModelImpl(int64_t hidden)
      : lstm(torch::nn::LSTMOptions(1, hidden).num_layers(2).batch_first(true)),
        out(hidden, 1) {
    register_module("lstm", lstm);
    register_module("out", out);
  }
  std::tuple<torch::Tensor, std::tuple<torch::Tensor, torch::Tensor>>
  forward(torch::Tensor x, torch::optional<std::tuple<torch::Tensor, torch::Tensor>> state) {
    auto [y, new_state] = lstm->forward(x, state);
    return {out->forward(y), new_state};
  }
  torch::nn::LSTM lstm;
  torch::nn::Linear out;
};
TORCH_MODULE(SeqModel);

int main() {
  auto device = torch::cuda::is_available() ? torch::Device("cuda:0") : torch::Device("cpu");
  const int64_t batch = 32, length = 400, chunk = 50;
  auto t = torch::arange(length + 1, torch::kFloat).unsqueeze(0);
  auto phase = torch::rand({batch, 1}) * 6.28;
  auto series = torch::sin(t * 0.05 + phase).unsqueeze(2).to(device); // OK: host data made once before training

  SeqModel model(64);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-2);

  for (int epoch = 0; epoch < 30; ++epoch) {
    torch::optional<std::tuple<torch::Tensor, torch::Tensor>> state;
    auto epoch_loss = torch::zeros({}, device);
    for (int64_t start = 0; start + chunk <= length; start += chunk) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto x = series.slice(1, start, start + chunk);
      auto y = series.slice(1, start + 1, start + chunk + 1);
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      auto [pred, next] = model->forward(x, state);
      auto loss = torch::mse_loss(pred, y);
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0); // EXPECT: libtorch-host-sync-in-loop
      optimizer.step();
      state = std::make_tuple(std::get<0>(next).detach(), std::get<1>(next).detach()); // OK: truncated BPTT
      epoch_loss += loss.detach(); // OK: accumulated on the device
    }
    if (epoch % 5 == 0)
      std::cout << "epoch " << epoch << " loss " << epoch_loss.item<float>() << std::endl; // OK: every 5 epochs
  }
}
