// Mock of torch/nn/parallel/data_parallel.h (torch::nn::parallel), as in
// LibTorch 1.13. Like the real header, torch/torch.h does not include it.
// (Debian's CPU-only LibTorch ships the real header, but it cannot be
// included there: it needs the generated c10/cuda headers.)
#pragma once

#include <torch/cuda.h>
#include <torch/nn.h>

namespace torch {
namespace nn {
namespace parallel {

template <typename ModuleType>
std::vector<std::shared_ptr<ModuleType>>
replicate(const std::shared_ptr<ModuleType> &module,
          const std::vector<Device> &devices) {
  return std::vector<std::shared_ptr<ModuleType>>(devices.size(), module);
}

template <typename ModuleType>
std::vector<ModuleHolder<ModuleType>>
replicate(const ModuleHolder<ModuleType> &module,
          const std::vector<Device> &devices) {
  return std::vector<ModuleHolder<ModuleType>>(devices.size(), module);
}

template <typename ModuleType>
std::vector<Tensor>
parallel_apply(std::vector<ModuleType> &modules,
               const std::vector<Tensor> &inputs,
               const optional<std::vector<Device>> &devices = nullopt) {
  return inputs;
}

/// Evaluates `module(input)` in parallel across the given `devices`,
/// replicating the module on every call.
template <typename ModuleType>
Tensor data_parallel(ModuleType module, Tensor input,
                     optional<std::vector<Device>> devices = nullopt,
                     optional<Device> output_device = nullopt,
                     int64_t dim = 0) {
  return module->forward(std::move(input));
}

} // namespace parallel
} // namespace nn
} // namespace torch
