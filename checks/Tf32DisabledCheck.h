//===--- Tf32DisabledCheck.h - libtorch-tidy --------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_TF32DISABLEDCHECK_H
#define LIBTORCH_TIDY_CHECKS_TF32DISABLEDCHECK_H

#include "MissingGlobalSettingCheck.h"

namespace clang::tidy::libtorch {

/// Finds float32 CUDA training in a translation unit that never sets the
/// float32 matmul precision (`setFloat32MatmulPrecision`,
/// `setAllowTF32CuBLAS`): matmuls run in full float32 and leave the Tensor
/// Cores of Ampere and newer GPUs idle. Reported once per translation unit,
/// at the first CUDA training loop that `main` runs (else at the first one);
/// the fix-it goes first in that `main`.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-tf32-disabled.md
class Tf32DisabledCheck : public MissingGlobalSettingCheck {
public:
  Tf32DisabledCheck(StringRef Name, ClangTidyContext *Context);

private:
  bool lacksSetting(analysis::CudaTrainingFacts &Cuda) override;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_TF32DISABLEDCHECK_H
