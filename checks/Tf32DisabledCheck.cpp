//===--- Tf32DisabledCheck.cpp - libtorch-tidy -------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Tf32DisabledCheck.h"

namespace clang::tidy::libtorch {

namespace {

constexpr char Setting[] =
    "at::globalContext().setFloat32MatmulPrecision(\"high\");";
constexpr char Message[] =
    "float32 CUDA training without TF32: every matmul runs in full float32 "
    "precision and leaves the Tensor Cores of Ampere and newer GPUs idle; "
    "allow TF32 with 'setFloat32MatmulPrecision(\"high\")'";

} // namespace

Tf32DisabledCheck::Tf32DisabledCheck(StringRef Name, ClangTidyContext *Context)
    : MissingGlobalSettingCheck(Name, Context, Message, Setting,
                                analysis::SetupSlot::AfterBrace) {}

bool Tf32DisabledCheck::lacksSetting(analysis::CudaTrainingFacts &Cuda) {
  // The precision was chosen (either spelling, any value), or the model
  // already runs in half / bfloat16, where TF32 hardly matters.
  return !Cuda.callsContextMethod("setFloat32MatmulPrecision") &&
         !Cuda.callsContextMethod("setAllowTF32CuBLAS") &&
         !Cuda.usesAutocast() && !Cuda.namesReducedPrecisionDtype();
}

} // namespace clang::tidy::libtorch
