// Batch inference tool for a scripted captioning model: for each image file
// it detects regions with the model's compiled `detect` method, keeps the
// confident ones, and decodes a caption greedily with `decode_step`. The
// host reads the GPU once per region and once per token.
#include <torch/script.h>
#include <torch/torch.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

struct Region {
  float x0, y0, x1, y1, score;
};

struct Caption {
  std::vector<Region> regions;
  std::vector<int64_t> tokens;
};

constexpr int64_t kBos = 1, kEos = 2, kMaxTokens = 40;

std::vector<Region> confident_regions(const torch::Tensor &dets, float min_score) {
  std::vector<Region> regions;
  for (int64_t r = 0; r < dets.size(0); ++r) {
    const float score = dets[r][4].item<float>(); // EXPECT: libtorch-host-sync-in-loop
    if (score < min_score)
      continue;
    regions.push_back({dets[r][0].item<float>(), // EXPECT: libtorch-host-sync-in-loop
                       dets[r][1].item<float>(), // EXPECT: libtorch-host-sync-in-loop
                       dets[r][2].item<float>(), // EXPECT: libtorch-host-sync-in-loop
                       dets[r][3].item<float>(), // EXPECT: libtorch-host-sync-in-loop
                       score});
  }
  return regions;
}

std::vector<int64_t> greedy_caption(torch::jit::script::Module &model, const torch::Tensor &features) {
  auto token = torch::full({1, 1}, kBos, torch::TensorOptions().dtype(torch::kLong).device(features.device()));
  auto state = model.run_method("init_state", features).toTensor();
  std::vector<int64_t> tokens;
  for (int64_t t = 0; t < kMaxTokens; ++t) {
    auto out = model.run_method("decode_step", token, state).toTuple();
    auto logits = out->elements()[0].toTensor();
    state = out->elements()[1].toTensor();
    token = logits.argmax(-1, /*keepdim=*/true);
    const int64_t id = token.item<int64_t>(); // OK: the host must know when the caption ends
    if (id == kEos)
      break;
    tokens.push_back(token.item<int64_t>()); // EXPECT: libtorch-host-sync-in-loop
  }
  return tokens;
}

Caption caption_image(torch::jit::script::Module &model, const torch::Tensor &image, torch::Device device) {
  torch::InferenceMode inference;
  auto batch = image.unsqueeze(0).to(device);
  auto features = model.forward({batch}).toTensor();
  auto dets = model.get_method("detect")({features}).toTensor();
  return {confident_regions(dets, 0.4f), greedy_caption(model, features)};
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: caption MODEL IMAGE...\n";
    return 2;
  }
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::jit::script::Module model = torch::jit::load(argv[1]);
  model.to(device);
  model.eval();
  std::ofstream out("captions.tsv");
  for (int i = 2; i < argc; ++i) {
    auto image = torch::rand({3, 384, 384});  // decoded image file, synthetic here
    Caption c = caption_image(model, image, device);
    out << argv[i] << '\t' << c.regions.size();
    for (int64_t id : c.tokens)
      out << ' ' << id;
    out << '\n';
  }
}
