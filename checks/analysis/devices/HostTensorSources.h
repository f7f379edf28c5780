//===--- HostTensorSources.h - Host tensors that reach device work -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Tensors made in host memory on every step that reach work on the device,
// and where they come from.
//
// Copied (`x.to(device)`, `x.cuda()`): a factory written before the copy
// (`torch::randn({n}).to(device)`), a helper that returns a factory's
// tensor, a narrow host tensor widened before the copy (HostDtypes.h), or
// another tensor provably in host memory (a constant table,
// ConstantHostData.h, is one).
//
// Uncopied: `auto labels = torch::ones({n, 1});` in the step, then
// `torch::binary_cross_entropy(output, labels)` with `output` on the GPU: a
// factory's tensor made in host memory on every step and handed, as it is,
// to an operation whose other tensor is on the device. On a GPU the
// operation fails (its tensors are on two devices); on the CPU the program
// runs and allocates the host tensor every step. Made on the device, it is
// right everywhere.
//
// Operations that count: tensor arithmetic and comparisons (`a - b`),
// LibTorch's functions (`torch::mse_loss`, `torch::nn::functional::...`),
// tensor methods that compute from their arguments (`output.sub(labels)`),
// and LibTorch's own modules (`criterion(output, labels)` with a
// torch::nn loss). Not: indexing (`t.index({idx})`, `t[idx]`: host indices
// are allowed), copies (`labels.to(device)`), a module of the project (its
// forward may move its inputs), a zero-dimensional factory (`torch::ones({})`:
// a host scalar tensor meets a GPU tensor legally).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTTENSORSOURCES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTTENSORSOURCES_H

#include "analysis/devices/DeviceIntoFactory.h"
#include "analysis/devices/HostDtypes.h"
#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <optional>
#include <string>

namespace clang::tidy::libtorch::analysis {

/// What a copy to the GPU moves, when it is made in host memory.
struct HostCopySource {
  enum Kind {
    Direct,     ///< `factory(...)` written before the copy
    Returned,   ///< `helper(...)`, whose only return is Factory
    Widening,   ///< a narrow host tensor widened before the copy
    HostTensor, ///< any other tensor provably in host memory
  } What = HostTensor;
  /// The factory (Direct, Returned).
  const CallExpr *Factory = nullptr;
  /// The helper's call that the copy moves (Returned).
  const CallExpr *Helper = nullptr;
  /// The conversion (Widening).
  std::optional<HostWidening> Widened;
};

/// What \p Copy (`.to(<device>)`, `.cuda()`) moves, cheapest test first;
/// none when it is not provably made in host memory, or is a factory
/// written in a macro (which may serve other call sites). A copy that
/// converts as well (`to(device, dtype)`) is not a Widening: what to
/// suggest depends on which conversion the author meant.
std::optional<HostCopySource> hostCopySource(const CXXMemberCallExpr &Copy,
                                             ASTContext &Context);

/// A host factory's tensor that meets a tensor on the device.
struct HostOperand {
  /// The factory call (isHostTensorFactoryCall).
  const CallExpr *Factory = nullptr;
  /// The operation that takes both tensors.
  const Expr *Operation = nullptr;
  /// The factory's tensor as the operation takes it: the call itself, or a
  /// reference to the local variable that holds it.
  const Expr *HostTensor = nullptr;
  /// The operand provably on the device (isProvablyOnDevice).
  const Expr *DeviceTensor = nullptr;
};

/// The first operation (see the file comment) that takes \p Factory's
/// tensor, directly or through a local variable initialized with it and
/// never given another value, together with a tensor on the device.
std::optional<HostOperand> hostOperandOf(const CallExpr &Factory,
                                         ASTContext &Context,
                                         const utils::UserCodeParents &Parents);

/// The device to give \p Operand's factory: the device that placed the
/// other tensor (placingDevice; DeviceText empty when it cannot be read),
/// and the edit that gives it to the factory (deviceIntoOptions) when it can
/// be written there as spelled: a constant (`torch::kCUDA`, also for
/// `.cuda()`), a global, a parameter of the factory's function, a local of
/// it declared before the factory in a block around it, or a field of the
/// class whose member function holds the factory.
FactoryDevice deviceForFactory(const HostOperand &Operand, ASTContext &Context,
                               const utils::UserCodeParents &Parents,
                               const LangOptions &LangOpts);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTTENSORSOURCES_H
