//===--- CudnnBenchmarkCheck.cpp - libtorch-tidy -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CudnnBenchmarkCheck.h"

namespace clang::tidy::libtorch {

namespace {

constexpr char Setting[] = "at::globalContext().setBenchmarkCuDNN(true);";
constexpr char Message[] =
    "CUDA training of a convolutional model without the cuDNN autotuner: "
    "every convolution uses cuDNN's heuristic algorithm instead of the "
    "fastest one measured for its shapes; enable "
    "'setBenchmarkCuDNN(true)'";

} // namespace

CudnnBenchmarkCheck::CudnnBenchmarkCheck(StringRef Name,
                                         ClangTidyContext *Context)
    : MissingGlobalSettingCheck(Name, Context, Message, Setting,
                                analysis::SetupSlot::BeforeFirstStatement) {}

bool CudnnBenchmarkCheck::lacksSetting(analysis::CudaTrainingFacts &Cuda) {
  if (!Cuda.buildsConvolutionModules())
    return false;
  // Set either way, or determinism asked for (the autotuner picks
  // algorithms by timing, which is not deterministic).
  return !Cuda.callsContextMethod("setBenchmarkCuDNN") &&
         !Cuda.callsContextMethod("setDeterministicCuDNN") &&
         !Cuda.callsContextMethod("setDeterministicAlgorithms");
}

} // namespace clang::tidy::libtorch
