//===--- CudnnBenchmarkCheck.h - libtorch-tidy ------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_CUDNNBENCHMARKCHECK_H
#define LIBTORCH_TIDY_CHECKS_CUDNNBENCHMARKCHECK_H

#include "MissingGlobalSettingCheck.h"

namespace clang::tidy::libtorch {

/// Finds CUDA training programs with convolution modules that never enable
/// the cuDNN autotuner (`setBenchmarkCuDNN(true)`). Reported once per
/// translation unit, at the first CUDA training loop that `main` runs (else
/// at the first one); the fix-it goes first in that `main`.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-cudnn-benchmark.md
class CudnnBenchmarkCheck : public MissingGlobalSettingCheck {
public:
  CudnnBenchmarkCheck(StringRef Name, ClangTidyContext *Context);

private:
  bool lacksSetting(analysis::CudaTrainingFacts &Cuda) override;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_CUDNNBENCHMARKCHECK_H
