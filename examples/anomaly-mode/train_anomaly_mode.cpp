// train_anomaly_mode: a small regression net trained with autograd anomaly
// detection left on after a debugging session.
//
// AnomalyMode::set_enabled(true) makes every forward op record a stack trace
// and every backward pass check each gradient it computes for NaNs, reading
// one value back to the host per gradient (aten::_local_scalar_dense): on a
// GPU, a host sync per autograd node on every step. The rest of the program
// is idiomatic: the loss is summed on the device and read once, after the
// loop, so without anomaly mode no step reads anything back.
// libtorch-anomaly-detection-enabled (opt-in) deletes the statement; the
// computed values do not change.
//
// It includes only the LibTorch headers it uses, so that it compiles in a
// fraction of the time of <torch/torch.h> (it is built twice by the verify
// test).
//
// Usage: train_anomaly_mode [--steps N]   (N >= 1, default 200)

#include <torch/autograd.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>
#include <torch/optim/sgd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
  long steps = 200;
  if (argc == 3 && std::strcmp(argv[1], "--steps") == 0) {
    steps = std::strtol(argv[2], nullptr, 10);
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--steps N]\n", argv[0]);
    return 2;
  }
  if (steps < 1) {
    std::fprintf(stderr, "--steps needs a positive number\n");
    return 2;
  }

  torch::manual_seed(0);
  // Left on after hunting a NaN.
  torch::autograd::AnomalyMode::set_enabled(true);

  torch::nn::Sequential model(torch::nn::Linear(16, 32), torch::nn::ReLU(),
                              torch::nn::Linear(32, 1));
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.01));
  const torch::Tensor inputs = torch::randn({256, 16});
  const torch::Tensor targets = inputs.sum(1, /*keepdim=*/true).sin();

  torch::Tensor loss_sum = torch::zeros({});
  const auto start = std::chrono::steady_clock::now();
  for (long step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    const torch::Tensor loss = torch::mse_loss(model->forward(inputs), targets);
    loss.backward();
    optimizer.step();
    loss_sum += loss.detach();
  }
  // One read after training: a copy, not a per-step sync.
  const float mean_loss =
      loss_sum.to(torch::kCPU).contiguous().data_ptr<float>()[0] /
      static_cast<float>(steps);
  const std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  std::printf("mean loss %.5f\n", mean_loss);
  std::printf("done: %ld steps in %.2f s (%.2f steps/s)\n", steps,
              elapsed.count(), static_cast<double>(steps) / elapsed.count());
  return 0;
}
