// RUN: %check_libtorch_tidy %s libtorch-tensor-created-off-device %t

// A factory's tensor made in host memory on every step and handed, never
// copied, to an operation whose other tensor is on the device: on a GPU
// the operation fails, on the CPU it allocates every step. The fix-it
// makes it on the device that placed the other tensor.

#include <torch/torch.h>

#include <cstdint>

struct Critic {
  torch::nn::Linear head{16, 1};
  torch::optim::Adam optimizer{head->parameters(), 1e-4};
  torch::Device device_{torch::kCUDA};

  void step(const torch::Tensor &real) {
    auto images = real.to(device_, /*non_blocking=*/true);
    auto scores = head(images);
    auto labels = torch::ones({images.size(0), 1});
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'torch::ones' makes the tensor in host memory on every training step and hands it, uncopied, to an operation with 'scores.sigmoid()' on the device: on a GPU it fails with tensors on two devices; pass the device to 'torch::ones' [libtorch-tensor-created-off-device]
    // CHECK-MESSAGES: :[[@LINE+2]]:17: note: the host tensor meets 'scores.sigmoid()' here
    // CHECK-FIXES: {{^}}    auto labels = torch::ones({images.size(0), 1}, device_);{{$}}
    auto loss = torch::binary_cross_entropy(scores.sigmoid(), labels);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
};

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor data, torch::Tensor unknown, torch::Device device) {
  model->to(device);
  auto setup = torch::ones({4, 16}) + data.to(device); // once: fine
  for (int64_t step = 0; step < 100; ++step) {
    auto x = data.to(device, /*non_blocking=*/true);
    auto noise = torch::randn({8, 16});
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'torch::randn' makes the tensor in host memory on every training step and hands it, uncopied, to an operation with 'x' on the device
    // CHECK-MESSAGES: :[[@LINE+2]]:24: note: the host tensor meets 'x' here
    // CHECK-FIXES: {{^}}    auto noise = torch::randn({8, 16}, device);{{$}}
    auto out = model(x + noise);
    auto loss = torch::mse_loss(out, torch::zeros({8, 1}));
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'torch::zeros' makes the tensor in host memory on every training step and hands it, uncopied, to an operation with 'out' on the device
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(out, torch::zeros({8, 1}, device));{{$}}
    auto hits = out.argmax(1).eq(torch::zeros({8}, torch::kLong));
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'torch::zeros' makes the tensor in host memory on every training step and hands it, uncopied, to an operation with 'out.argmax(1)' on the device
    // CHECK-FIXES: {{^}}    auto hits = out.argmax(1).eq(torch::zeros({8}, torch::TensorOptions(torch::kLong).device(device)));{{$}}
    auto y = data.cuda();
    auto scaled = y * torch::rand({16});
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'torch::rand' makes the tensor in host memory on every training step and hands it, uncopied, to an operation with 'y' on the device
    // CHECK-FIXES: {{^}}    auto scaled = y * torch::rand({16}, torch::kCUDA);{{$}}
    // The device is declared after the factory: a note, no fix-it.
    auto bias = torch::ones({16});
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::ones' makes the tensor in host memory on every training step and hands it, uncopied, to an operation with 'data.to(late, /*non_blocking=*/true)' on the device
    // CHECK-MESSAGES: :[[@LINE-2]]:17: note: pass the device in the factory's TensorOptions, e.g. 'torch::ones(..., torch::TensorOptions().device(late))'
    // CHECK-FIXES: {{^}}    auto bias = torch::ones({16});{{$}}
    torch::Device late = torch::kCUDA;
    auto z = data.to(late, /*non_blocking=*/true) - bias;
    auto gate = torch::rand({16});
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::rand' makes the tensor in host memory on every training step and hands it, uncopied, to an operation with 'x' on the device
    // CHECK-FIXES: {{^}}    auto gate = torch::rand({16}, device);{{$}}
    auto gated = gate.mul(x);

    // Negatives: a zero-dimensional tensor meets a GPU tensor legally; a
    // copied or reassigned tensor; host indices; a tensor we cannot place.
    auto halved = x * torch::ones({});
    auto weights = torch::ones({16});
    weights = weights.to(device);
    auto weighted = x * weights;
    auto picked = x.index_select(0, torch::arange(2));
    auto shifted = unknown + torch::ones({16});

    loss = loss + hits.sum() + scaled.sum() + z.sum() + gated.sum() +
           halved.sum() +
           weighted.sum() + picked.sum() + shifted.sum() + setup.sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}
