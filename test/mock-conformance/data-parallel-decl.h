// Used by modules.cpp when it is compiled against Debian's CPU-only LibTorch:
// that package ships torch/nn/parallel/data_parallel.h, but the header cannot
// be included without the generated c10/cuda headers. This declares the real
// LibTorch 1.13.1 signature (torch/nn/parallel/data_parallel.h) instead.
#pragma once

#include <torch/torch.h>

#include <vector>

namespace torch {
namespace nn {
namespace parallel {
template <typename ModuleType>
Tensor data_parallel(ModuleType module, Tensor input,
                     optional<std::vector<Device>> devices = nullopt,
                     optional<Device> output_device = nullopt,
                     int64_t dim = 0);
} // namespace parallel
} // namespace nn
} // namespace torch
