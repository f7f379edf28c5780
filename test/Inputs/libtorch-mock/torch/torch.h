// Mock of torch/torch.h (via torch/all.h), for fast check tests.
//
// Includes the same areas as the real umbrella header of LibTorch 1.13:
// autograd, cuda, data, jit (torch::jit::Module, c10::IValue), nn, optim,
// serialize, types, utils, version. Like the real one it does NOT include
// ATen/autocast_mode.h, torch/nn/parallel/data_parallel.h or torch/script.h
// (torch::jit::load).
//
// LibTorch 2.15 (-DLIBTORCH_MOCK_VERSION_MAJOR=2) requires C++20, as the real
// torch/all.h does.
#pragma once

#if defined(LIBTORCH_MOCK_VERSION_MAJOR) &&                                    \
    LIBTORCH_MOCK_VERSION_MAJOR >= 2 && __cplusplus < 202002L
#error C++20 or later compatible compiler is required to use PyTorch.
#endif

#include <torch/cuda.h>
#include <torch/data.h>
#include <torch/jit.h>
#include <torch/nn.h>
#include <torch/optim.h>
#include <torch/serialize.h>
#include <torch/types.h>
#include <torch/version.h>

// The real torch/torch.h pulls in most of the standard library, and training
// code relies on that (std::cout, std::isnan, std::chrono, ... without their
// own #include). The mock provides the most common ones; a test that uses
// other standard headers (<algorithm>, <map>, <sstream>, ...) includes them.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>
