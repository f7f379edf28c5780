//===--- MissingAutocastCheck.h - libtorch-tidy -----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_MISSINGAUTOCASTCHECK_H
#define LIBTORCH_TIDY_CHECKS_MISSINGAUTOCASTCHECK_H

#include "LibTorchCheck.h"
#include "analysis/program/CudaTrainingFacts.h"

namespace clang::tidy::libtorch {

/// Finds CUDA training loops in a translation unit that never enables
/// autocast and names no half or bfloat16 dtype: float32 matmuls and
/// convolutions leave the Tensor Cores idle. Note only: the suggested code is
/// spelled for the LibTorch version the code is compiled against.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-missing-autocast.md
class MissingAutocastCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override {
    this->PP = PP;
  }

private:
  Preprocessor *PP = nullptr;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_MISSINGAUTOCASTCHECK_H
