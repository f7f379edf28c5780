//===--- HostSyncOperations.h - Calls that wait for the GPU -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The LibTorch operations that make the host wait for the GPU
// (libtorch-host-sync-in-loop), and what kind of wait each is.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTSYNCOPERATIONS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTSYNCOPERATIONS_H

#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang::tidy::libtorch::analysis {

/// What kind of wait an operation causes; decides the message and remedy.
enum class SyncKind {
  ReadScalar,   ///< item(): one value copied to the host
  CopyToHost,   ///< cpu(), to(kCPU)
  Print,        ///< operator<<, at::print
  DynamicShape, ///< nonzero, masked_select, unique*
  HostBool,     ///< equal, allclose, is_nonzero
  HostMemory,   ///< data_ptr read on the host, accessor
  SizedOnHost,  ///< bincount, histc, repeat_interleave: values read back
                ///< to the host to size the output
  Synchronize,  ///< torch::cuda::synchronize and friends
  HiddenRead,   ///< a LibTorch function that returns a host scalar computed
                ///< from device tensors (clip_grad_norm_'s double)
  Listed,       ///< a function named in SyncFunctions whose body this TU
                ///< does not hold
  Elsewhere,    ///< a function whose body another unit holds, and whose
                ///< summary (analysis/summaries/FunctionSummary.h) waits
};

/// The name of \p Kind in a summary file ("read-scalar"), and back.
llvm::StringRef syncKindName(SyncKind Kind);
std::optional<SyncKind> syncKindFromName(llvm::StringRef Name);

/// Tensor methods that wait for the device (whether `to()` copies to the
/// host is the caller's to decide).
llvm::ArrayRef<llvm::StringRef> syncTensorMethods();

/// Free functions that wait for the device, qualified with a leading "::".
/// The `at::` ops are also the `torch::` ones (LibTorch re-exports them
/// with using-declarations).
llvm::ArrayRef<llvm::StringRef> syncFunctions();

/// The wait a method of syncTensorMethods() causes.
SyncKind syncKindOfMethod(llvm::StringRef Name);

/// The wait a free function causes, by its qualified name.
SyncKind syncKindOfFunction(llvm::StringRef QualifiedName);

/// Whether a call of syncTensorMethods() or syncFunctions() waits as its
/// arguments are given. The ops whose wait depends on them (audited in
/// ATen's CUDA kernels):
/// - `histc` reads the input's min and max back only when `min == max`
///   (the defaults, 0 and 0): both left out waits, given ones do not;
/// - `repeat_interleave` with a tensor of repeats sums them on the host
///   unless `output_size` is given; an integer count of repeats does not
///   wait;
/// - `index` waits when an index is a boolean mask (isBooleanMask): it
///   runs nonzero() to find the selected rows.
/// Every other operation waits however it is called.
bool waitsAsCalled(const CallExpr *Call);

/// \p E is provably a boolean mask tensor: a comparison of tensors (`t >
/// 0`, `t.eq(u)`), `isnan`/`isinf`/`isfinite`, a logical operation or `~`,
/// `&`, `|`, `^` of masks, or a local variable whose every value is one.
bool isBooleanMask(const Expr *E);

/// One operation of user code that makes the host wait, as a finding names
/// it.
struct HostSync {
  /// The call (or `<<`) that waits.
  const Expr *Operation = nullptr;
  /// The tensor waited for, if the operation names one.
  const Expr *Tensor = nullptr;
  /// Where to report it: the method's name, the `<<`, else the call.
  SourceLocation Loc;
  SyncKind Kind = SyncKind::Synchronize;
  /// How a message names it: `item<float>()`, `to(torch::kCPU)`,
  /// `torch::cuda::synchronize()`; empty for printing.
  std::string Name;
};

/// Where a finding about \p Call goes: the name of the method it calls,
/// else the start of the call.
SourceLocation calledNameLoc(const CallExpr &Call);

/// A call of one of syncTensorMethods() on a tensor, when it waits as
/// called: a `to()` only when it copies to the CPU.
std::optional<HostSync> tensorMethodSync(const CXXMemberCallExpr &Call,
                                         ASTContext &Context,
                                         const LangOptions &LangOpts);

/// `stream << tensor`: printing copies the tensor to the host.
HostSync tensorPrintSync(const CXXOperatorCallExpr &Print);

/// A call of one of syncFunctions() (not a method, not an operator), when
/// it waits as called.
std::optional<HostSync> functionSync(const CallExpr &Call,
                                     const PrintingPolicy &Policy);

/// A copy from a tensor provably on the device into one provably in host
/// memory, which waits for the GPU like `cpu()`: `host[i] = device[j]`
/// (Tensor's assignment to a view copies into it), `host.copy_(device)`
/// (not given `non_blocking`), `host.index_put_({i}, device)`.
std::optional<HostSync> deviceToHostCopySync(const CallExpr &Call,
                                             ASTContext &Context,
                                             const LangOptions &LangOpts);

/// Any of the waits above that \p Call is, as a summary of its function
/// records it (analysis/summaries/FunctionSummary.h): a tensor method, a
/// printed tensor or a LibTorch function that waits as called. Copies into
/// host memory are left out: a helper's tensors are its caller's, and
/// where they live is not known where the helper is.
std::optional<HostSync> syncOfCall(const CallExpr &Call, ASTContext &Context,
                                   const LangOptions &LangOpts);

/// \p Sync makes the host wait where the code uses it: every sync but one
/// on a tensor that a device test puts in host memory there
/// (`if (t.is_cuda()) return;` before it; DeviceTests.h), and a
/// `data_ptr()` whose pointer is not read through on the host
/// (HostPointerReads.h), which waits for nothing.
bool waitsWhereUsed(const HostSync &Sync,
                    const utils::UserCodeParents &Parents);

/// A call of a function the user lists as waiting (the SyncFunctions
/// option), taken at its word only when this unit holds no body of it to
/// follow and it is not one of syncFunctions() already.
std::optional<HostSync> listedFunctionSync(const CallExpr &Call,
                                           const PrintingPolicy &Policy);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTSYNCOPERATIONS_H
