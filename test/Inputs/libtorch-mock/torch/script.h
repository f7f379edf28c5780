// Mock of torch/script.h (TorchScript loading), as in LibTorch 1.13.
//
// Mirrors torch/csrc/jit/serialization/import.h (torch::jit::load) and
// torch/csrc/autograd/InferenceMode.h (torch::autograd::InferenceMode): both
// are reached through torch/script.h only, not through torch/torch.h.
#pragma once

#include <torch/torch.h>

#include <iosfwd>
#include <string>

// torch/csrc/autograd/InferenceMode.h (reached through torch/script.h only).
namespace torch {
namespace autograd {
using InferenceMode = c10::InferenceMode;
} // namespace autograd
} // namespace torch

namespace torch {
namespace jit {

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
// LibTorch 2.15: every overload takes load_debug_files.
TORCH_API Module load(std::istream &in,
                      std::optional<c10::Device> device = std::nullopt,
                      bool load_debug_files = true);

TORCH_API Module load(std::istream &in, std::optional<c10::Device> device,
                      ExtraFilesMap &extra_files, bool load_debug_files = true);

TORCH_API Module load(const std::string &filename,
                      std::optional<c10::Device> device = std::nullopt,
                      bool load_debug_files = true);

TORCH_API Module load(const std::string &filename,
                      std::optional<c10::Device> device,
                      ExtraFilesMap &extra_files, bool load_debug_files = true);
#else
TORCH_API Module load(std::istream &in,
                      c10::optional<c10::Device> device = c10::nullopt);

TORCH_API Module load(std::istream &in, c10::optional<c10::Device> device,
                      ExtraFilesMap &extra_files);

TORCH_API Module load(const std::string &filename,
                      c10::optional<c10::Device> device = c10::nullopt);

TORCH_API Module load(const std::string &filename,
                      c10::optional<c10::Device> device,
                      ExtraFilesMap &extra_files);
#endif

} // namespace jit
} // namespace torch
