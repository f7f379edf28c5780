// train_classifier: an MNIST-style MLP classifier on synthetic data.
//
// Ten classes of 784-feature "images" (28x28, flattened), each class a
// Gaussian blob around its own random center. The program trains with a
// custom Dataset, a stacked DataLoader and SGD, reports once per epoch and
// evaluates on a held-out test set.
//
// It mixes two anti-patterns that leave a GPU idle with the idiomatic code
// that does not. Each line that libtorch-tidy reports ends with an EXPECT
// marker comment naming the check (see examples/README.md); every other line
// is meant to stay silent.
//
// Usage: train_classifier [--epochs N] [--steps N]   (N >= 1; --steps is the
// maximum number of steps per epoch)

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>

namespace {

constexpr int64_t kFeatures = 28 * 28;
constexpr int64_t kClasses = 10;
constexpr int64_t kTrainSize = 12800;
constexpr int64_t kTestSize = 2048;
constexpr double kCenterScale = 0.3;
constexpr double kNoise = 2.0;
constexpr size_t kBatchSize = 64;
constexpr int kLogInterval = 50;

struct Blobs {
  torch::Tensor images; // [n, kFeatures], float
  torch::Tensor labels; // [n], int64
};

// n samples: a random class each, its center plus Gaussian noise.
Blobs make_blobs(const torch::Tensor &centers, int64_t n) {
  torch::Tensor labels = torch::randint(kClasses, {n}, torch::kLong);
  torch::Tensor noise = kNoise * torch::randn({n, kFeatures});
  return {centers.index_select(0, labels) + noise, labels};
}

// A map-style dataset over tensors kept in host memory.
class BlobDataset : public torch::data::datasets::Dataset<BlobDataset> {
public:
  explicit BlobDataset(Blobs blobs)
      : images_(std::move(blobs.images)), labels_(std::move(blobs.labels)) {}

  torch::data::Example<> get(size_t index) override {
    const auto i = static_cast<int64_t>(index);
    return {images_[i], labels_[i]};
  }

  torch::optional<size_t> size() const override {
    return static_cast<size_t>(images_.size(0));
  }

private:
  torch::Tensor images_;
  torch::Tensor labels_;
};

struct MlpImpl : torch::nn::Module {
  MlpImpl()
      : fc1(register_module("fc1", torch::nn::Linear(kFeatures, 128))),
        fc2(register_module("fc2", torch::nn::Linear(128, 64))),
        fc3(register_module("fc3", torch::nn::Linear(64, kClasses))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1(x));
    x = torch::relu(fc2(x));
    return torch::log_softmax(fc3(x), /*dim=*/1);
  }

  torch::nn::Linear fc1;
  torch::nn::Linear fc2;
  torch::nn::Linear fc3;
};
TORCH_MODULE(Mlp);

// Evaluation done right: no autograd graph (NoGradGuard), batches copied
// asynchronously, results summed on the device and read once at the end.
template <typename Loader>
void evaluate(Mlp &model, Loader &loader, const torch::Device &device) {
  torch::NoGradGuard no_grad;
  model->eval();
  torch::Tensor loss_sum = torch::zeros({}, device);
  torch::Tensor correct = torch::zeros({}, device);
  int64_t count = 0;
  for (auto &batch : loader) {
    torch::Tensor data = batch.data.to(device, /*non_blocking=*/true);
    torch::Tensor target = batch.target.to(device, /*non_blocking=*/true);
    torch::Tensor output = model->forward(data);
    loss_sum +=
        torch::nll_loss(output, target, /*weight=*/{}, torch::Reduction::Sum);
    correct += output.argmax(1).eq(target).sum();
    count += data.size(0);
  }
  std::printf("test: mean loss %.4f, accuracy %.2f%% (%lld samples)\n",
              loss_sum.item<double>() / count,
              100.0 * correct.item<double>() / count,
              static_cast<long long>(count));
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
  int epochs = 3;
  int max_steps = 200; // the whole training set: 200 batches
  if (!parse_args(argc, argv, epochs, max_steps)) {
    std::cerr << "usage: " << argv[0] << " [--epochs N] [--steps N]\n";
    return 2;
  }

  torch::manual_seed(1);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  std::printf("device: %s\n", device.str().c_str());

  // Class centers first, then both splits: the same seed gives the same data.
  const torch::Tensor centers =
      kCenterScale * torch::randn({kClasses, kFeatures});
  Blobs train = make_blobs(centers, kTrainSize);
  Blobs test = make_blobs(centers, kTestSize);
  // --steps limits the samples per epoch rather than breaking out of the loop:
  // with workers, a loader must be exhausted before it can be iterated again.
  const int64_t samples =
      std::min<int64_t>(kTrainSize, max_steps * int64_t{kBatchSize});
  train.images = train.images.narrow(0, 0, samples);
  train.labels = train.labels.narrow(0, 0, samples);
  auto train_set =
      BlobDataset(std::move(train)).map(torch::data::transforms::Stack<>());
  auto test_set =
      BlobDataset(std::move(test)).map(torch::data::transforms::Stack<>());

  // A bare batch size converts to DataLoaderOptions(kBatchSize): zero
  // workers, so batches are assembled on the training thread, between two
  // steps, while the GPU waits.
  auto train_loader =
      torch::data::make_data_loader( // EXPECT: libtorch-dataloader-no-workers
          std::move(train_set), kBatchSize);
  // The test loader has worker threads, and evaluation does not care about
  // batch order, so it also lets batches arrive out of order.
  auto test_loader = torch::data::make_data_loader(
      std::move(test_set), torch::data::DataLoaderOptions()
                               .batch_size(256)
                               .workers(2)
                               .enforce_ordering(false));

  Mlp model;
  model->to(device); // once, before training
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.01).momentum(0.9));

  int total_steps = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    model->train();
    double loss_sum = 0.0;
    torch::Tensor correct = torch::zeros({}, device); // created on the device
    int64_t seen = 0;
    int batch_idx = 0;
    for (auto &batch : *train_loader) {
      torch::Tensor data = batch.data.to(device, /*non_blocking=*/true);
      torch::Tensor target = batch.target.to(device, /*non_blocking=*/true);

      optimizer.zero_grad();
      torch::Tensor output = model->forward(data);
      torch::Tensor loss = torch::nll_loss(output, target);
      loss.backward();
      optimizer.step();

      // item() copies the loss to the host and waits for the GPU to finish
      // every step. Sum on the device instead (loss.detach()) and read the
      // sum once per epoch, as `correct` does.
      loss_sum += loss.item<float>(); // EXPECT: libtorch-host-sync-in-loop
      correct += output.argmax(1).eq(target).sum();
      seen += data.size(0);

      // Fine: a sync every kLogInterval steps only.
      if (batch_idx % kLogInterval == 0) {
        std::printf("epoch %d step %3d  loss %.4f\n", epoch, batch_idx,
                    loss.item<float>());
      }
      ++batch_idx;
      ++total_steps;
    }
    // Fine: once per epoch, after the step loop.
    std::printf("epoch %d: mean loss %.4f, train accuracy %.2f%%\n", epoch,
                loss_sum / batch_idx, 100.0 * correct.item<double>() / seen);
  }
  const std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;

  evaluate(model, *test_loader, device);

  const double seconds = elapsed.count();
  std::printf("done: %d steps in %.2f s (%.2f steps/s)\n", total_steps, seconds,
              total_steps / seconds);
  return 0;
}
