// The bodies of Inputs/sync-elsewhere-lengths.h, summarized by
// `libtorch-tidy --export-summaries`: each wait reads a tensor that one of
// the function's parameters gives.
#include "sync-elsewhere-lengths.h"

namespace text {

int64_t longest(const torch::Tensor &lengths) {
  return lengths.max().item<int64_t>();
}

int64_t padded_size(const torch::Tensor &lengths, int64_t multiple) {
  const int64_t size = longest(lengths);
  return (size + multiple - 1) / multiple * multiple;
}

int64_t shifted_first(const torch::Tensor &lengths,
                      const torch::Tensor &offsets) {
  return (lengths + offsets)[0].item<int64_t>();
}

float mean_score(const torch::Tensor &scores, const torch::Tensor &lengths) {
  auto total = scores.sum();
  return total.item<float>();
}

Decoder::Decoder() { step = register_module("step", torch::nn::Linear(8, 8)); }

torch::Tensor Decoder::forward(const torch::Tensor &features,
                               const torch::Tensor &lengths) {
  const auto steps = lengths[0].item<int64_t>();
  auto state = features;
  for (int64_t t = 0; t < steps; ++t)
    state = torch::tanh(step->forward(state));
  return state;
}

} // namespace text
