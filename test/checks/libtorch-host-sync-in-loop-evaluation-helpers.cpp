// RUN: %check_libtorch_tidy %s libtorch-host-sync-in-loop %t

// Inference tooling around a TorchScript model: greedy decoding through the
// model's compiled `decode` method, and detection post-processing that
// reads each box from the output. They read the GPU per token and per box,
// inside loops that run per input; the notes say how to read once.

#include <torch/script.h>
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

struct Box {
  float x, y, score;
};

// Per box, from an output the loop never writes: one host copy before it.
std::vector<Box> postprocess(torch::Tensor out, float threshold) {
  std::vector<Box> boxes;
  for (int64_t i = 0; i < out.size(0); ++i) {
    const float score = out[i][2].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'item<float>()' copies the value to the host and waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE+73]]:18: note: called here on every evaluation batch
    // CHECK-MESSAGES: :[[@LINE+15]]:10: note: called here on every evaluation batch
    // CHECK-MESSAGES: :[[@LINE-4]]:35: note: the loop around it reads 'out' element by element, and waits for the GPU each time: copy it to the host once, before the loop ('auto out_host = out.cpu();'), and read the elements from the copy
    if (score > threshold)
      boxes.push_back({out[i][0].item<float>(), 0.0f, score});
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'item<float>()' copies the value
    // CHECK-MESSAGES: :[[@LINE-2]]:34: note: the loop around it reads 'out' element by element
  }
  return boxes;
}

// An inference helper: the forward pass under a no-grad guard of its own.
std::vector<Box> detect(torch::jit::script::Module &model, torch::Tensor image,
                        torch::Device device) {
  torch::NoGradGuard no_grad;
  auto out = model.forward({image.to(device)}).toTensor();
  return postprocess(out, 0.5f);
}

// Greedy decoding through a compiled method other than forward.
std::vector<int64_t> decode(torch::jit::script::Module &model,
                            torch::Tensor memory, int64_t eos) {
  torch::NoGradGuard no_grad;
  auto ys = torch::zeros({1, 1}, torch::TensorOptions()
                                     .dtype(torch::kLong)
                                     .device(memory.device()));
  std::vector<int64_t> tokens;
  for (int t = 0; t < 64; ++t) {
    auto logits = model.run_method("decode", ys, memory).toTensor();
    auto next = logits.select(1, -1).argmax(-1, /*keepdim=*/true);
    ys = torch::cat({ys, next}, 1);
    tokens.push_back(next.item<int64_t>());
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item<long>()' copies the value to the host and waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-2]]:27: note: collect the values on the device instead ('torch::stack' or 'torch::cat' of the tensors) and copy them to the host once, after the loop, with one '.cpu()'
    // The host must know when the sequence ends: not reported.
    if (next.item<int64_t>() == eos)
      break;
  }
  return tokens;
}

// The same through get_method(): the best box left, read on each pass of a
// loop that changes what it reads.
std::vector<int64_t> greedy_nms(torch::jit::script::Module &model,
                                torch::Tensor boxes) {
  torch::NoGradGuard no_grad;
  auto order = model.get_method("rank")({boxes}).toTensor();
  std::vector<int64_t> keep;
  while (order.numel() > 0) {
    const int64_t best = order[0].item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'item<long>()' copies the value to the host
    // CHECK-MESSAGES: :[[@LINE+32]]:18: note: called here on every evaluation batch
    // CHECK-MESSAGES: :[[@LINE-3]]:35: note: the loop around it waits for the GPU on each of its iterations: run it on host copies of its inputs, made once before it with '.cpu()', or keep its work on the device
    keep.push_back(best);
    order = order.slice(0, 1);
  }
  return keep;
}

// Writes files: a guard, but no forward pass. A loop that calls it is not
// an evaluation loop.
void save(torch::Tensor out, const std::string &path) {
  torch::NoGradGuard no_grad;
  std::cout << path << ' ' << out.sum().item<float>() << '\n';
}

int main(int argc, char **argv) {
  torch::Device device(torch::kCUDA);
  auto model = torch::jit::load(argv[1]);
  model.to(device);
  std::vector<std::string> paths(argv + 2, argv + argc);
  for (const std::string &path : paths) {
    auto image = torch::rand({1, 3, 224, 224});
    std::cout << detect(model, image, device).size() << '\n';
    auto memory = torch::rand({1, 10, 16}, device);
    std::cout << decode(model, memory, 2).size() << '\n';
  }
  for (const std::string &path : paths)
    save(torch::rand({4}, device), path);
  // After eval() on the scripted model, a loop of forward passes evaluates.
  model.eval();
  for (int i = 0; i < 100; ++i) {
    auto boxes = model.forward({torch::rand({8, 4}, device)}).toTensor();
    std::cout << greedy_nms(model, boxes).size() << '\n';
  }
}
