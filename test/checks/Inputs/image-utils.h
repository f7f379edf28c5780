// Image helpers of a vision project, shared by its training programs: they
// move their result to the device "to be sure", whatever they are given.
#ifndef IMAGE_UTILS_H
#define IMAGE_UTILS_H

#include <torch/torch.h>

#include <vector>

namespace image_utils {

inline torch::Tensor stack_on(const std::vector<torch::Tensor> &images,
                              torch::Device device) {
  return torch::stack(images).to(device);
}

inline torch::Tensor normalized_on(const torch::Tensor &image,
                                   torch::Device device) {
  return ((image - 0.5) / 0.25).to(device);
}

} // namespace image_utils

#endif
