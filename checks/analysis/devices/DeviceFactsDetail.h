//===--- DeviceFactsDetail.h - What DeviceFacts' parts share ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The functions behind DeviceFacts.h, which three files implement:
// DeviceFacts.cpp classifies devices, TensorPlacement.cpp tells where a
// tensor lives, TensorOrigins.cpp how it got there (the device that placed
// it, the host factory a helper returns). Classifying `x.device()` asks
// where x lives, and placing `x.to(d)` asks what d is: the two recurse into
// each other with one depth bound. Not for the checks: they use
// DeviceFacts.h.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEFACTSDETAIL_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEFACTSDETAIL_H

#include "analysis/devices/DeviceFacts.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis::device_facts {

constexpr unsigned MaxDepth = 8;

/// \p E without implicit nodes and explicit casts:
/// `static_cast<torch::Device>(d)` is still d.
const Expr *strip(const Expr *E);

/// Whether a local variable is assigned after its declaration (so its
/// initializer no longer tells its value).
bool isReassigned(const VarDecl *Variable);

/// The initializer of a variable whose value it still holds: a local that
/// is never reassigned, or a const namespace-scope constant (c10::kCUDA).
const Expr *stableInitializer(const VarDecl *Variable);

/// classifyDevice, \p Depth steps in.
DeviceKind classify(const Expr *E, ASTContext &Context, unsigned Depth);

/// Where a tensor expression certainly lives, if the source tells.
enum class Placement { Host, Device, Unknown };

/// The calls a walk came through from the step down to the code asked
/// about (outermost first). A parameter of the function that the last of
/// the first \c Open calls runs is followed to that call's argument.
struct CallsOnTheWay {
  ArrayRef<const CallExpr *> Calls;
  size_t Open = 0;
};

/// Where \p E lives, \p Depth steps in. \p FollowReassigned: whether a
/// variable assigned after its declaration is followed to the values it is
/// given (once: their own reassigned variables are not, which keeps the
/// cost linear).
Placement placement(const Expr *E, ASTContext &Context, unsigned Depth,
                    bool FollowReassigned = true, CallsOnTheWay Way = {});

/// Where a device of \p Kind puts a tensor (no device: the CPU).
Placement placementOfDevice(DeviceKind Kind);

/// A factory of LibTorch's (`zeros`, `randn`, `tensor`, ...), by name.
bool isFactoryName(StringRef Name);

/// Tensor methods whose result lives where their object lives.
bool preservesDevice(StringRef Method);

/// `torch::stack` and `torch::cat` (and at::): their tensor lives where the
/// tensors they join live.
bool joinsTensors(const FunctionDecl *Callee);

/// The tensors of a braced list (`{a, b}`) that a TensorList parameter is
/// given; empty for anything else (a vector variable, say).
llvm::SmallVector<const Expr *, 4> bracedTensors(const Expr *List);

/// The return statements of \p Function's definition in user code, not
/// those of its lambdas; none when it has no body there or does not return
/// a tensor by value.
llvm::SmallVector<const ReturnStmt *, 2>
tensorReturns(const FunctionDecl *Function, const SourceManager &SM);

} // namespace clang::tidy::libtorch::analysis::device_facts

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEFACTSDETAIL_H
