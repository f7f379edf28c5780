// train_data_bound: a small conv net whose training is limited by data
// loading, not by the model.
//
// Every sample is synthesized on the fly: Dataset::get() draws a 3x32x32
// "image" from a random generator seeded by the sample index, blurs it
// several times and normalizes it. That costs more CPU time per batch than
// the forward and backward passes of the net, and the loader below does all
// of it on the training thread, so a GPU would sit idle most of the time.
//
// get() is a pure function of the index and the dataset is a few integers,
// so the loader can run it on worker threads (each one copies the dataset):
// adding `.workers(4)` to the DataLoaderOptions below is a correct fix.
//
// Each line that libtorch-tidy reports ends with an EXPECT marker comment
// naming the check (see examples/README.md).
//
// Usage: train_data_bound [--epochs N] [--steps N]   (N >= 1; --steps is the
// maximum number of steps per epoch)

#include <torch/torch.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr int64_t kClasses = 10;
constexpr int64_t kChannels = 3;
constexpr int64_t kSide = 32;
constexpr int64_t kPixels = kSide * kSide;
constexpr size_t kDatasetSize = 4096;
constexpr size_t kBatchSize = 64;
constexpr uint64_t kDataSeed = 2024;
// Passes of the 5-tap blur in get(): the knob for the CPU cost per sample.
constexpr int kBlurPasses = 28;
constexpr int kLogInterval = 10;

// SplitMix64: a tiny, fast generator whose whole state is one integer, so
// every sample can have its own independent stream.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1).
  float uniform() { return static_cast<float>(next() >> 40) * 0x1.0p-24f; }

private:
  uint64_t state_;
};

// One blur pass with the binomial kernel [1 4 6 4 1] / 16, first along rows
// (src -> tmp), then along columns (tmp -> src), clamping at the borders.
void blur(float *src, float *tmp) {
  constexpr std::array<float, 5> kKernel = {1.0f / 16, 4.0f / 16, 6.0f / 16,
                                            4.0f / 16, 1.0f / 16};
  auto clamp = [](int64_t i) {
    return i < 0 ? int64_t{0} : (i >= kSide ? kSide - 1 : i);
  };
  for (int64_t y = 0; y < kSide; ++y) {
    for (int64_t x = 0; x < kSide; ++x) {
      float sum = 0.0f;
      for (int64_t k = -2; k <= 2; ++k) {
        sum += kKernel[k + 2] * src[y * kSide + clamp(x + k)];
      }
      tmp[y * kSide + x] = sum;
    }
  }
  for (int64_t y = 0; y < kSide; ++y) {
    for (int64_t x = 0; x < kSide; ++x) {
      float sum = 0.0f;
      for (int64_t k = -2; k <= 2; ++k) {
        sum += kKernel[k + 2] * tmp[clamp(y + k) * kSide + x];
      }
      src[y * kSide + x] = sum;
    }
  }
}

// Procedural images: the class decides the orientation and frequency of a
// striped pattern; phase, color, noise and brightness are random per sample.
class ProceduralImages
    : public torch::data::datasets::Dataset<ProceduralImages> {
public:
  ProceduralImages(size_t size, uint64_t seed) : size_(size), seed_(seed) {}

  // Thread-safe: reads only the two constant members, writes only locals.
  torch::data::Example<> get(size_t index) override {
    SplitMix64 rng(seed_ ^ (0xD1B54A32D192ED03ULL * (index + 1)));
    const int64_t label = static_cast<int64_t>(rng.next() % kClasses);
    const float angle = 3.14159265f * static_cast<float>(label) / kClasses;
    const float freq = 0.25f + 0.05f * static_cast<float>(label % 4);
    const float dx = std::cos(angle) * freq;
    const float dy = std::sin(angle) * freq;

    torch::Tensor image = torch::empty({kChannels, kSide, kSide});
    float *pixels = image.data_ptr<float>();
    std::vector<float> tmp(kPixels);
    for (int64_t c = 0; c < kChannels; ++c) {
      float *plane = pixels + c * kPixels;
      const float phase = 6.2831853f * rng.uniform();
      const float gain = 0.2f + 0.2f * rng.uniform();
      const float gamma = 0.6f + 0.8f * rng.uniform();
      // 1. Stripes plus uniform noise, as intensities in [0, 1].
      for (int64_t y = 0; y < kSide; ++y) {
        for (int64_t x = 0; x < kSide; ++x) {
          const float wave = std::sin(dx * x + dy * y + phase);
          const float noise = 0.4f * (rng.uniform() - 0.5f);
          plane[y * kSide + x] = 0.5f + gain * wave + noise;
        }
      }
      // 2. Blur: smooths the noise.
      for (int pass = 0; pass < kBlurPasses; ++pass) {
        blur(plane, tmp.data());
      }
      // 3. Random gamma (contrast jitter).
      for (int64_t i = 0; i < kPixels; ++i) {
        const float v = std::min(std::max(plane[i], 0.0f), 1.0f);
        plane[i] = std::pow(v, gamma);
      }
      // 4. Normalize the channel to zero mean and unit variance.
      double sum = 0.0;
      double sum_sq = 0.0;
      for (int64_t i = 0; i < kPixels; ++i) {
        sum += plane[i];
        sum_sq += static_cast<double>(plane[i]) * plane[i];
      }
      const double mean = sum / kPixels;
      const double var = sum_sq / kPixels - mean * mean;
      const float inv_std = static_cast<float>(1.0 / std::sqrt(var + 1e-6));
      for (int64_t i = 0; i < kPixels; ++i) {
        plane[i] = (plane[i] - static_cast<float>(mean)) * inv_std;
      }
    }
    return {image, torch::tensor(label, torch::kLong)};
  }

  torch::optional<size_t> size() const override { return size_; }

private:
  size_t size_;
  uint64_t seed_;
};

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl()
      : conv1(torch::nn::Conv2dOptions(kChannels, 8, 3).padding(1)),
        conv2(torch::nn::Conv2dOptions(8, 16, 3).padding(1)),
        fc(16 * (kSide / 4) * (kSide / 4), kClasses) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("fc", fc);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    return fc(x.flatten(1));
  }

  torch::nn::Conv2d conv1;
  torch::nn::Conv2d conv2;
  torch::nn::Linear fc;
};
TORCH_MODULE(ConvNet);

// Reads --epochs N and --steps N; false on anything else.
bool parse_args(int argc, char **argv, int &epochs, int &steps) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    int *value = flag == "--epochs"  ? &epochs
                 : flag == "--steps" ? &steps
                                     : nullptr;
    if (value == nullptr || i + 1 >= argc) {
      return false;
    }
    char *end = nullptr;
    const long parsed = std::strtol(argv[++i], &end, 10);
    if (*end != '\0' || parsed < 1 || parsed > 1000000) {
      return false;
    }
    *value = static_cast<int>(parsed);
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int epochs = 3;
  int max_steps = 64; // the whole dataset: 64 batches
  if (!parse_args(argc, argv, epochs, max_steps)) {
    std::cerr << "usage: " << argv[0] << " [--epochs N] [--steps N]\n";
    return 2;
  }

  torch::manual_seed(0);
  const bool use_cuda = torch::cuda::is_available();
  const torch::Device dev(use_cuda ? torch::kCUDA : torch::kCPU);
  std::printf("device: %s\n", dev.str().c_str());

  // --steps limits the samples per epoch rather than breaking out of the loop:
  // with workers, a loader must be exhausted before it can be iterated again.
  const size_t samples =
      std::min(kDatasetSize, static_cast<size_t>(max_steps) * kBatchSize);
  auto dataset = ProceduralImages(samples, kDataSeed)
                     .map(torch::data::transforms::Stack<>());
  // Without .workers(n) every get() runs on this thread, between two steps,
  // while the GPU waits for the next batch.
  auto loader =
      torch::data::make_data_loader( // EXPECT: libtorch-dataloader-no-workers
          std::move(dataset),
          torch::data::DataLoaderOptions().batch_size(kBatchSize));

  ConvNet model;
  model->to(dev);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.02).momentum(0.9));

  // Check the flattened size feeding the linear layer with a dummy batch.
  // The dummy batch is drawn on the host and then copied, once, before
  // training: not worth a finding (it would be on every step).
  const std::vector<int64_t> shape = {2, kChannels, kSide, kSide};
  torch::Tensor probe = torch::randn(shape).to(dev);
  std::cout << "model output shape: " << model->forward(probe).sizes() << "\n";

  // Pinned host memory exists only with CUDA.
  const bool pin = use_cuda;
  int total_steps = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    model->train();
    torch::Tensor loss_sum = torch::zeros({}, dev);
    int step = 0;
    for (auto &batch : *loader) {
      // Module::to on every step: the model is already there, but each call
      // still visits every parameter and buffer. Move it once, before the
      // loop (as done above).
      model->to(dev); // EXPECT: libtorch-loop-invariant-setup

      // pin_memory() on the training thread is one more host copy per batch,
      // made while the GPU waits; a plain copy is faster. Pin inside the
      // dataset (on a worker thread), or not at all.
      torch::Tensor img = batch.data;
      torch::Tensor pinned =
          pin ? img.pin_memory() : img; // EXPECT: libtorch-pin-memory-in-loop
      torch::Tensor images = pinned.to(dev, /*non_blocking=*/true);
      torch::Tensor labels = batch.target.to(dev, /*non_blocking=*/true);

      optimizer.zero_grad();
      torch::Tensor logits = model->forward(images);
      torch::Tensor loss = torch::nn::functional::cross_entropy(logits, labels);
      loss.backward();
      optimizer.step();

      // Summed on the device: no host sync per step.
      loss_sum += loss.detach();
      if (step % kLogInterval == 0) {
        std::printf("epoch %d step %3d  loss %.4f\n", epoch, step,
                    loss.item<float>());
      }
      ++step;
      ++total_steps;
    }
    // Once per epoch: one sync.
    std::printf("epoch %d: mean loss %.4f over %d steps\n", epoch,
                loss_sum.item<float>() / step, step);
  }
  const std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;

  const double seconds = elapsed.count();
  std::printf("done: %d steps in %.2f s (%.2f steps/s)\n", total_steps, seconds,
              total_steps / seconds);
  return 0;
}
