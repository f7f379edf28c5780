// A variational autoencoder on synthetic 8x8 "glyphs": a model that keeps
// device buffers made in its constructor, reparameterization noise drawn on
// every step, a fixed latent grid for samples drawn once, a jitter transform
// on the dataset, and a held-out evaluation pass every epoch.
#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

constexpr int64_t kPixels = 64;
constexpr int64_t kLatent = 8;
constexpr int64_t kBatch = 32;

using Example = torch::data::Example<>;

class Glyphs : public torch::data::datasets::Dataset<Glyphs> {
public:
  explicit Glyphs(int64_t count) : count_(count) {}
  Example get(size_t index) override {
    auto stroke = torch::linspace(0, 1, kPixels) * static_cast<double>(index % 7);
    auto image = torch::sin(stroke).abs();
    // Runs on a worker thread, on CPU tensors: the copy is a no-op.
    auto label = torch::zeros({1}, torch::kLong).to(image.device()); // OK: dataset code, CPU tensor
    return {image, label};
  }
  torch::optional<size_t> size() const override { return count_; }

private:
  int64_t count_;
};

struct Jitter : torch::data::transforms::Transform<Example, Example> {
  Example apply(Example e) override {
    auto noise = 0.02 * torch::randn({kPixels}).to(e.data.device()); // OK: a transform, on the loader's workers
    return {(e.data + noise).clamp(0, 1), e.target};
  }
};

struct VaeImpl : torch::nn::Module {
  explicit VaeImpl(torch::Device device)
      : enc(register_module("enc", torch::nn::Linear(kPixels, 2 * kLatent))),
        dec(register_module("dec", torch::nn::Linear(kLatent, kPixels))) {
    // Prior parameters live on the device from the start: made once.
    prior_mu = register_buffer("prior_mu", torch::zeros({kLatent}).to(device)); // OK: once, in the constructor
    prior_logvar = register_buffer("prior_logvar", torch::zeros({kLatent}).to(device)); // OK: once, in the constructor
  }
  std::pair<torch::Tensor, torch::Tensor> encode(const torch::Tensor &x) {
    auto h = enc->forward(x).chunk(2, 1);
    return {h[0], h[1]};
  }
  torch::Tensor decode(const torch::Tensor &z) { return torch::sigmoid(dec->forward(z)); }
  torch::nn::Linear enc{nullptr}, dec{nullptr};
  torch::Tensor prior_mu, prior_logvar;
};
TORCH_MODULE(Vae);

torch::Tensor kl_divergence(const torch::Tensor &mu, const torch::Tensor &logvar) {
  return -0.5 * torch::sum(1 + logvar - mu.pow(2) - logvar.exp(), 1).mean();
}

// A step helper: the per-sample weights of the reconstruction term.
torch::Tensor sample_weights(int64_t n, torch::Device device) {
  return torch::ones({n, 1}).to(device); // EXPECT: libtorch-tensor-created-off-device
}

} // namespace

int main() {
  torch::manual_seed(7);
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto train_set = Glyphs(4096).map(Jitter()).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(
      std::move(train_set), torch::data::DataLoaderOptions().batch_size(kBatch).workers(2).enforce_ordering(false));
  auto held_out = Glyphs(512).map(torch::data::transforms::Stack<>());
  auto eval_loader = torch::data::make_data_loader(
      std::move(held_out), torch::data::DataLoaderOptions().batch_size(kBatch).workers(2).enforce_ordering(false));

  Vae vae(device);
  vae->to(device);
  torch::optim::Adam adam(vae->parameters(), torch::optim::AdamOptions(1e-3));

  // The latent grid the samples are drawn from, fixed for the whole run.
  auto fixed_z = torch::randn({16, kLatent}).to(device); // OK: once, before training

  for (int epoch = 1; epoch <= 20; ++epoch) {
    vae->train();
    auto beta = torch::full({1}, std::min(1.0, epoch / 10.0)).to(device); // OK: once per epoch
    for (auto &batch : *loader) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
      auto x = batch.data.to(device, /*non_blocking=*/true);
      auto [mu, logvar] = vae->encode(x);
      auto eps = torch::randn({x.size(0), kLatent}).to(device); // EXPECT: libtorch-tensor-created-off-device
      auto z = mu + eps * (0.5 * logvar).exp();
      auto recon = vae->decode(z);
      auto weights = sample_weights(x.size(0), device);
      auto loss = (weights * (recon - x).pow(2)).sum(1).mean() + beta * kl_divergence(mu, logvar);
      adam.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
      loss.backward();
      adam.step();
    }

    // Held-out loss, once per epoch; the noise is drawn for every batch.
    vae->eval();
    torch::NoGradGuard no_grad;
    auto total = torch::zeros({}, device);
    int64_t batches = 0;
    for (auto &batch : *eval_loader) {
      auto x = batch.data.to(device, /*non_blocking=*/true);
      auto [mu, logvar] = vae->encode(x);
      auto eps = torch::randn({x.size(0), kLatent}).to(device); // EXPECT: libtorch-tensor-created-off-device
      auto recon = vae->decode(mu + eps * (0.5 * logvar).exp());
      auto like = torch::zeros_like(recon).to(device); // OK: zeros_like of a device tensor is made there
      total += (recon - x).pow(2).sum(1).mean() + like.sum();
      ++batches;
    }
    std::printf("epoch %d held-out %.4f\n", epoch, total.item<float>() / batches); // OK: once per epoch

    if (epoch % 5 == 0) {
      auto grid = torch::linspace(-2, 2, kLatent).to(device); // OK: every 5 epochs
      auto samples = vae->decode(fixed_z + grid);
      std::printf("sample mean %.3f\n", samples.mean().item<float>()); // OK: every 5 epochs
    }
  }
  torch::save(vae, "vae.pt");
}
