//===--- DeviceFacts.h - Which devices and tensors are where ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Device facts (docs/architecture.md, "Device facts"): which `c10::Device` /
// `DeviceType` / `TensorOptions` expressions are CUDA, may be CUDA, or are
// provably CPU; which tensors are provably host tensors, and which are
// provably on the device (whether a function or a whole program touches a
// GPU at all is DeviceScopeFacts.h's). Where a value comes from
// somewhere we cannot see (a parameter, a member, a call), the answer is the
// one that produces no finding: "may be CUDA" for devices, "not provably host"
// for tensors, "not provably CPU-only" for functions.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEFACTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEFACTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::libtorch::analysis {

enum class DeviceKind {
  Cpu,       ///< provably the CPU
  Cuda,      ///< provably a CUDA device
  MaybeCuda, ///< `is_available() ? kCUDA : kCPU`, a parameter, a member...
  NoDevice,  ///< options that name no device (`TensorOptions().dtype(...)`)
};

/// Classifies an expression of type c10::Device, c10::DeviceType,
/// c10::TensorOptions, or a string naming a device ("cuda:0").
DeviceKind classifyDevice(const Expr *E, ASTContext &Context);

/// \p Copy, a call of `Tensor::cuda` or `Tensor::to`, moves the tensor to a
/// GPU, or to a device that may be one: `cuda()`, or `to()` given a Device
/// or TensorOptions that classifyDevice calls (maybe) CUDA. A copy to the
/// CPU is no transfer; `to(dtype)` and `to(other_tensor)` are not read.
bool copiesToGpu(const CXXMemberCallExpr &Copy, ASTContext &Context);

/// What a variable of one of those types holds: its initializer's kind when
/// it is a local never reassigned (or a const constant), else MaybeCuda.
DeviceKind classifyDeviceVariable(const VarDecl *Variable, ASTContext &Context);

/// True when \p E certainly evaluates to a tensor in host memory: the
/// result of `.cpu()`, `.to(<CPU device>)`, `from_blob`, a factory without
/// a device, a local variable never reassigned that is given to a LibTorch
/// function that requires a host tensor (the `lengths` of
/// `pack_padded_sequence`), or a local variable initialized so and never
/// reassigned, or reassigned only with `=` from such values (`state =
/// next_state;`) and never changed otherwise (its address taken, bound to a
/// mutable reference, a compound assignment, a non-const or `set_` member
/// call).
bool isProvablyHostTensor(const Expr *E, ASTContext &Context);

/// True when \p E (implicit nodes ignored) is a call of a tensor factory
/// (tensorFactoryNames()) that makes its tensor in host memory: no device
/// among its options, or for a `*_like` factory a host model tensor.
bool isHostTensorFactoryCall(const Expr *E, ASTContext &Context);

/// The host factory call (isHostTensorFactoryCall) that \p Function, a
/// function or lambda of user code, returns: its only return statement
/// returns that call as it is (`return torch::zeros({n});`). Null for
/// anything else: several returns, a tensor changed before it is returned,
/// a body we cannot see.
const CallExpr *hostFactoryReturnedBy(const FunctionDecl *Function,
                                      ASTContext &Context);

/// When \p E, as written, calls a helper of the project that returns a host
/// factory call (hostFactoryReturnedBy): that factory call. A free function
/// or a lambda only: a method may return a member, or another override.
const CallExpr *hostFactoryOfHelperCall(const Expr *E, ASTContext &Context);

/// True when \p E certainly evaluates to a tensor already placed on a
/// (maybe-)CUDA device: the result of `.cuda()`, `.to(<CUDA or maybe-CUDA
/// device>)`, a factory given such a device, a module's output on such an
/// input, `torch::stack` / `torch::cat` of such tensors (a braced list, or a
/// local vector filled only with them), the result of a function of the
/// project whose every return is such a tensor, or a local variable
/// initialized so
/// and never reassigned (or reassigned only from such values, as for
/// isProvablyHostTensor).
/// \p CallsOnTheWay: the calls that lead to E's function from where it runs
/// (outermost first, a StepPath's Calls); a parameter that its function
/// never reassigns is then what the innermost call that runs the function
/// gave it.
/// Every return of \p Function's body (in user code, lambdas' left out)
/// returns a tensor, by value, that isProvablyOnDevice: what a call of it
/// gives (`return torch::stack(crops).to(device);`).
bool returnsTensorOnDevice(const FunctionDecl *Function, ASTContext &Context);

bool isProvablyOnDevice(const Expr *E, ASTContext &Context,
                        llvm::ArrayRef<const CallExpr *> CallsOnTheWay = {});

/// The parameter of its function whose tensor \p E is, or is computed from
/// alone, where that tensor lives: the parameter itself, an element or a
/// slice of it (`lengths[0]`), a method that keeps its placement and takes
/// no other tensor (`lengths.sum()`, `lengths.to(torch::kLong)`), arithmetic
/// with plain numbers (`lengths > i`), or a local variable initialized so and
/// never reassigned. Null otherwise, and for a parameter its function
/// reassigns. A caller that gives that parameter a tensor in host memory
/// knows \p E is one.
const ParmVarDecl *parameterPlacingTensor(const Expr *E);

/// How a tensor provably on the device got there, for an edit that puts
/// another tensor on the same device.
struct PlacingDevice {
  /// The Device or DeviceType given to the `.to()` or the factory that
  /// placed it, as written; null when that was `.cuda()`, options, or
  /// cannot be read.
  const Expr *Device = nullptr;
  /// It was placed with `.cuda()`: on torch::kCUDA.
  bool Cuda = false;
};

/// How \p DeviceTensor, a tensor isProvablyOnDevice finds on the device
/// (without calls on the way), got there, followed as that follows it.
PlacingDevice placingDevice(const Expr *DeviceTensor, ASTContext &Context);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEFACTS_H
