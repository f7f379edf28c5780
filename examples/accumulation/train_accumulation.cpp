// train_accumulation: gradient accumulation over micro-batches, with the
// classic bugs.
//
// An MLP learns a fixed random nonlinear function of 128 inputs. Each
// optimizer step is meant to use the gradient of accum_steps micro-batches,
// as if the batch were accum_steps times larger. But zero_grad() runs on every
// micro-batch, so each step sees only the last micro-batch's gradient (divided
// by accum_steps): the other micro-batches are computed and thrown away.
// Validation runs without torch::NoGradGuard, and the loop reads the loss on
// the host on every micro-batch.
//
// Each line that libtorch-tidy reports ends with an EXPECT marker comment
// naming the check (see examples/README.md).
//
// Usage: train_accumulation [--epochs N] [--steps N]   (N >= 1; --steps is
// the maximum number of micro-batches per epoch)

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>

namespace {

constexpr int64_t kInputs = 128;
constexpr int64_t kOutputs = 8;
constexpr int64_t kHidden = 512;
constexpr int64_t kTrainSize = 4096;
constexpr int64_t kValSize = 1024;
constexpr int64_t kMicroBatch = 128;
// Stop when a (scaled) micro-batch loss exceeds this: training diverged.
constexpr float kMaxLoss = 1000.0f;

struct Samples {
  torch::Tensor inputs;  // [n, kInputs]
  torch::Tensor targets; // [n, kOutputs]
};

// y = sin(x W) + noise, for a fixed random W ("the teacher").
Samples make_samples(const torch::Tensor &teacher, int64_t n) {
  torch::Tensor x = torch::randn({n, kInputs});
  torch::Tensor noise = 0.05 * torch::randn({n, kOutputs});
  return {x, torch::sin(x.matmul(teacher)) + noise};
}

class RegressionDataset
    : public torch::data::datasets::Dataset<RegressionDataset> {
public:
  explicit RegressionDataset(Samples samples)
      : inputs_(std::move(samples.inputs)),
        targets_(std::move(samples.targets)) {}

  torch::data::Example<> get(size_t index) override {
    const auto i = static_cast<int64_t>(index);
    return {inputs_[i], targets_[i]};
  }

  torch::optional<size_t> size() const override {
    return static_cast<size_t>(inputs_.size(0));
  }

private:
  torch::Tensor inputs_;
  torch::Tensor targets_;
};

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(kInputs, kHidden))),
        fc2(register_module("fc2", torch::nn::Linear(kHidden, kHidden))),
        fc3(register_module("fc3", torch::nn::Linear(kHidden, kOutputs))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1(x));
    x = torch::relu(fc2(x));
    return fc3(x);
  }

  torch::nn::Linear fc1;
  torch::nn::Linear fc2;
  torch::nn::Linear fc3;
};
TORCH_MODULE(Net);

// Mean squared error on the validation set.
// No torch::NoGradGuard: every forward pass records an autograd graph that is
// never used, and since sq_err sums the losses, the graphs of all batches
// stay alive until the function returns. Add `torch::NoGradGuard no_grad;`.
template <typename Loader>
double validate(Net &model, Loader &loader, const torch::Device &dev) {
  model->eval();
  torch::Tensor sq_err = torch::zeros({}, dev);
  int64_t count = 0;
  for (auto &batch : loader) { // EXPECT: libtorch-eval-without-no-grad
    torch::Tensor x = batch.data.to(dev, /*non_blocking=*/true);
    torch::Tensor y = batch.target.to(dev, /*non_blocking=*/true);
    torch::Tensor pred = model->forward(x);
    sq_err += torch::mse_loss(pred, y, torch::Reduction::Sum);
    count += y.numel();
  }
  model->train();
  return sq_err.item<double>() / count;
}

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
  int epochs = 2;
  int max_steps = 16; // micro-batches per epoch (the data has 32)
  if (!parse_args(argc, argv, epochs, max_steps)) {
    std::cerr << "usage: " << argv[0] << " [--epochs N] [--steps N]\n";
    return 2;
  }
  const int accum_steps = 4; // micro-batches per optimizer step

  torch::manual_seed(7);
  torch::Device dev(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::printf("device: %s\n", dev.str().c_str());

  const torch::Tensor teacher =
      torch::randn({kInputs, kOutputs}) / std::sqrt(double(kInputs));
  Samples train = make_samples(teacher, kTrainSize);
  Samples val = make_samples(teacher, kValSize);
  // --steps limits the samples per epoch rather than breaking out of the loop:
  // with workers, a loader must be exhausted before it can be iterated again.
  const int64_t samples =
      std::min<int64_t>(kTrainSize, max_steps * kMicroBatch);
  train.inputs = train.inputs.narrow(0, 0, samples);
  train.targets = train.targets.narrow(0, 0, samples);
  auto train_set = RegressionDataset(std::move(train))
                       .map(torch::data::transforms::Stack<>());
  auto val_set =
      RegressionDataset(std::move(val)).map(torch::data::transforms::Stack<>());
  auto train_loader = torch::data::make_data_loader(
      std::move(train_set),
      torch::data::DataLoaderOptions().batch_size(kMicroBatch).workers(2));
  auto val_loader = torch::data::make_data_loader(
      std::move(val_set),
      torch::data::DataLoaderOptions().batch_size(256).workers(2));

  Net model;
  model->to(dev);
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(1e-3));

  std::printf("validation mse before training: %.4f\n",
              validate(model, *val_loader, dev));

  int total_steps = 0;
  int updates = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    int i = 0;
    for (auto &batch : *train_loader) {
      // A plain .to(dev) is a blocking copy: the host waits for it before it
      // can queue the forward pass. Use .to(dev, /*non_blocking=*/true), as
      // the target copy does.
      torch::Tensor x =
          batch.data.to(dev); // EXPECT: libtorch-blocking-host-to-device-copy
      torch::Tensor y = batch.target.to(dev, /*non_blocking=*/true);

      // BUG: zeroing on every micro-batch discards the gradients accumulated
      // so far. Zero right after optimizer.step(), inside the `if` below.
      optimizer.zero_grad(); // EXPECT: libtorch-zero-grad-accumulation
      torch::Tensor pred = model->forward(x);
      // Divided so that the accumulated gradient is a mean, not a sum.
      torch::Tensor loss = torch::mse_loss(pred, y) / accum_steps;
      loss.backward();

      // Debug output left in: printing a tensor copies it to the host, which
      // waits for the GPU, on every micro-batch.
      std::cout << "micro-batch " << i << ": loss ";
      std::cout << loss << '\n'; // EXPECT: libtorch-host-sync-in-loop

      // A divergence check that reads the loss on the host every micro-batch.
      // Check a device-side running value every N steps instead.
      if (loss.item<float>() > kMaxLoss) { // EXPECT: libtorch-host-sync-in-loop
        std::cerr << "diverged at micro-batch " << i << "\n";
        return 1;
      }

      if ((i + 1) % accum_steps == 0) {
        optimizer.step();
        ++updates;
      }
      ++i;
      ++total_steps;
    }
    std::printf("epoch %d: validation mse %.4f\n", epoch,
                validate(model, *val_loader, dev));
  }
  const std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;

  const double seconds = elapsed.count();
  std::printf("%d optimizer steps\n", updates);
  std::printf("done: %d steps in %.2f s (%.2f steps/s)\n", total_steps, seconds,
              total_steps / seconds);
  return 0;
}
