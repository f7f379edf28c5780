// RUN: %check_libtorch_tidy %s libtorch-blocking-host-to-device-copy %t
//
// State that a class keeps in host memory and copies to the device on every
// step: the fix keeps it on the device, not a non-blocking copy.

#include <torch/torch.h>

#include <string>
#include <utility>

// A running normalizer: statistics made on the host, updated in place.
struct RunningNormalizer {
  torch::Tensor mean = torch::zeros({4});
  torch::Tensor var = torch::ones({4});
  torch::Tensor normalize(const torch::Tensor &x) {
    mean.mul_(0.99);
    return (x - mean.to(x.device())) / var.to(x.device()).sqrt();
  }
};

torch::Tensor make_anchors(int64_t n) { return torch::rand({n, 4}); }

// Anchors made once by a helper, in a constructor defined out of line.
class AnchorLoss {
public:
  explicit AnchorLoss(int64_t n);
  torch::Tensor operator()(const torch::Tensor &pred) {
    return (pred - anchors_.to(pred.device()).mean()).pow(2).mean();
  }

private:
  torch::Tensor anchors_;
};

AnchorLoss::AnchorLoss(int64_t n) : anchors_(make_anchors(n)) {}

// A module whose table is a plain member, not a buffer.
struct HeadImpl : torch::nn::Module {
  HeadImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {
    table_ = torch::rand({4});
  }
  torch::Tensor forward(const torch::Tensor &x) {
    return fc(x) * table_.to(x.device());
  }
  torch::nn::Linear fc;
  torch::Tensor table_;
};
TORCH_MODULE(Head);

// Negatives: the member is a buffer, is moved into place, or holds data
// given from outside.
struct BufferedImpl : torch::nn::Module {
  BufferedImpl() {
    scale_ = register_buffer("scale", torch::ones({4}));
    register_buffer("shift", shift_);
  }
  torch::Tensor forward(const torch::Tensor &x) {
    return x * scale_.to(x.device()) + shift_.to(x.device());
  }
  torch::Tensor scale_;
  torch::Tensor shift_ = torch::zeros({4});
};
TORCH_MODULE(Buffered);

struct MovedOnce {
  torch::Tensor offsets = torch::zeros({4});
  void to(torch::Device device) { offsets = offsets.to(device); }
  torch::Tensor apply(const torch::Tensor &x) {
    return x + offsets.to(x.device());
  }
};

struct Sample {
  explicit Sample(torch::Tensor values) : values(std::move(values)) {}
  torch::Tensor on(torch::Device device) const { return values.to(device); }
  torch::Tensor values;
};

struct Reloaded {
  torch::Tensor weights = torch::ones({4});
  void load(const std::string &path) { torch::load(weights, path); }
  torch::Tensor apply(const torch::Tensor &x) {
    return x * weights.to(x.device());
  }
};

void train(torch::Device device, Head &head, Buffered &buffered,
           torch::optim::SGD &optimizer, const torch::Tensor &batch) {
  RunningNormalizer normalizer;
  AnchorLoss anchor_loss(8);
  MovedOnce moved;
  moved.to(device);
  Reloaded reloaded;
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    auto x = batch.to(device, /*non_blocking=*/true);
    Sample sample(batch);
    auto y = head->forward(normalizer.normalize(x)) + buffered->forward(x) +
             moved.apply(x) +
             sample.on(device) + reloaded.apply(x);
    anchor_loss(y).backward();
    optimizer.step();
  }
}

// The positives, in the order they are reported:
// CHECK-MESSAGES: :17:22: warning: 'to(x.device())' copies 'mean', which its class keeps in host memory, to the GPU on every step: the same tensor crosses the bus each time; keep it on the device [libtorch-blocking-host-to-device-copy]
// CHECK-MESSAGES: :98:28: note: called here on every training step
// CHECK-MESSAGES: :13:24: note: 'mean' is made in host memory here: make it on the device, or move it there once where the device is known{{$}}
// CHECK-MESSAGES: :17:44: warning: 'to(x.device())' copies 'var', which its class keeps in host memory
// CHECK-MESSAGES: :98:28: note: called here on every training step
// CHECK-MESSAGES: :14:23: note: 'var' is made in host memory here
// CHECK-MESSAGES: :28:29: warning: 'to(pred.device())' copies 'anchors_', which its class keeps in host memory
// CHECK-MESSAGES: :101:5: note: called here on every training step
// CHECK-MESSAGES: :35:46: note: 'anchors_' is made in host memory here
// CHECK-MESSAGES: :43:27: warning: 'to(x.device())' copies 'table_', which its class keeps in host memory
// CHECK-MESSAGES: :98:14: note: called here on every training step
// CHECK-MESSAGES: :40:14: note: 'table_' is made in host memory here: make it on the device, or move it there once where the device is known, or register it ('register_buffer') so that the module's 'to(device)' moves it
// The buffers (line 58) are the module's own, and the offsets (line 69)
// are moved to the device by their class: silent. Data given from outside,
// a member loaded from a file: where the tensor is then is not known, and
// the copy is only a blocking one.
// CHECK-MESSAGES: :75:64: warning: 'to(device)' copies to the GPU synchronously
// CHECK-MESSAGES: :75:64: note: the copy overlaps
// CHECK-MESSAGES: :83:24: warning: 'to(x.device())' copies to the GPU synchronously
// CHECK-MESSAGES: :83:24: note: the copy overlaps
