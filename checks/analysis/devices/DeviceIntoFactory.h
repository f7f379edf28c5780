//===--- DeviceIntoFactory.h - Device given to a factory --------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `torch::randn({n}).to(device)` makes the tensor in host memory and copies
// it; `torch::randn({n}, torch::TensorOptions().device(device))` makes it
// on the device. Whether a factory can take the copy's device, and the edit
// that gives it (libtorch-tensor-created-off-device's fix-it).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEINTOFACTORY_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEINTOFACTORY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Diagnostic.h"
#include <optional>
#include <string>

namespace clang::tidy::libtorch::analysis {

/// \p Factory, a call of \p Callee, is given a generator (`at::Generator`
/// or an optional of one): it draws from that one, and a CPU generator
/// cannot draw on the GPU.
bool takesGenerator(const CallExpr &Factory, const FunctionDecl &Callee);

/// The device a copy names, and the edit that gives it to the factory.
struct FactoryDevice {
  /// The device as the copy spells it (`torch::kCUDA` for `cuda()`);
  /// empty when it cannot be read.
  std::string DeviceText;
  /// The edit of the factory's TensorOptions argument that adds the
  /// device; none when the device cannot move into the factory as written.
  std::optional<FixItHint> AddDevice;
};

/// How the device of \p Copy (`.to(device)` or `.cuda()` applied to
/// \p Factory's tensor) goes into \p Factory's TensorOptions. The edit is
/// given only when the copy does nothing else (a Device or DeviceType
/// destination, no dtype, memory format or forced copy), the whole copy is
/// rewritable, and the options are ours to extend: the factory's
/// TensorOptions parameter is the last argument written, either left out
/// (the device is passed after the argument before it) or written without a
/// device and without `requires_grad` (a leaf tensor moved is no longer the
/// copy that gets `.grad`).
FactoryDevice deviceIntoFactory(const CallExpr &Factory,
                                const CXXMemberCallExpr &Copy,
                                ASTContext &Context,
                                const LangOptions &LangOpts);

/// The edit that gives \p Factory's TensorOptions the device \p DeviceText
/// (spelled as it may be written at the factory), under the rules of
/// deviceIntoFactory for the options; none when they are not ours to
/// extend.
std::optional<FixItHint> deviceIntoOptions(const CallExpr &Factory,
                                           llvm::StringRef DeviceText,
                                           ASTContext &Context,
                                           const LangOptions &LangOpts);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEINTOFACTORY_H
