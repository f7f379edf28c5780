//===--- LibTorchCalls.h - Recognizing LibTorch calls and types -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Small predicates over the AST that many checks need: is this type a
// tensor, a module, an optimizer; is this call a tensor method, a backward
// pass, an optimizer step. Types are compared by their fully qualified
// declaring names (LibTorchNames.h), so aliases such as torch::Tensor and
// derived user classes are recognized.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_LIBTORCHCALLS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_LIBTORCHCALLS_H

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::libtorch::analysis {

/// \p Decl is the entity named \p QualifiedName (written with a leading
/// "::", as LibTorchNames.h spells it).
bool hasQualifiedName(const NamedDecl *Decl, llvm::StringRef QualifiedName);

/// \p Decl is one of the entities named \p QualifiedNames (each written with
/// a leading "::").
bool hasAnyQualifiedName(const NamedDecl *Decl,
                         llvm::ArrayRef<llvm::StringRef> QualifiedNames);

/// \p Decl is declared in the namespace (or class) \p QualifiedNamespace,
/// written with a leading "::", or in one nested in it.
bool isInNamespace(const NamedDecl *Decl, llvm::StringRef QualifiedNamespace);

/// \p Decl belongs to LibTorch: it is declared in the namespace torch, at or
/// c10 (or one nested in them).
bool isLibTorchDecl(const NamedDecl *Decl);

/// Whether \p Call involves LibTorch: its callee is LibTorch's, or one of
/// its arguments is, holds or points to an object of a LibTorch class (or
/// of a class derived from one: a user's module). A call that does not
/// (`strstr(name, ".jpg")`) tells the checks nothing, whichever function of
/// its name it resolves to.
bool involvesLibTorch(const CallExpr &Call);

/// True when \p Record is, or derives from, the class named \p QualifiedName
/// (written with a leading "::").
bool isSameOrDerivedFrom(const CXXRecordDecl *Record,
                         llvm::StringRef QualifiedName);

/// \p Record (null: false) is a module class: torch::nn::Module or a
/// subclass, a ModuleHolder (`Net` from TORCH_MODULE), a torch::jit::Module.
bool isModuleClass(const CXXRecordDecl *Record);

/// \p Function (null: false) is a member function of a torch::nn::Module
/// subclass: a module's own forward() or constructor, whose layers are
/// trained, frozen and switched with the module that holds them.
bool isModuleMethod(const FunctionDecl *Function);

/// \p D (null: false) is named \p Name, a plain identifier (not an
/// operator, a constructor or a conversion).
bool isNamed(const NamedDecl *D, llvm::StringRef Name);

/// True when \p Type (references and cv looked through) is exactly the class
/// named \p QualifiedName (written with a leading "::").
bool isRecordNamed(QualType Type, llvm::StringRef QualifiedName);

/// at::Tensor / at::TensorBase (references, cv and typedefs looked through).
bool isTensorType(QualType Type);

/// \p Type is `c10::DeviceType` (`torch::kCUDA`), or a reference to it.
bool isDeviceTypeEnum(QualType Type);

/// \p Type (references and cv looked through) names a device: a
/// `c10::Device`, a `c10::DeviceType` or a `c10::TensorOptions` (which a
/// Device converts to).
bool isDeviceLikeType(QualType Type);

/// The method called by \p E if it is a member call on a tensor, else null.
const CXXMethodDecl *tensorMethodCalled(const Expr *E);

/// \p E is `tensor.to(...)` or `tensor.cuda(...)`: a member call of
/// Tensor::to or Tensor::cuda, whichever overload (to a device, a dtype,
/// another tensor's options).
bool isTensorDeviceCopy(const Expr *E);

/// \p Call is `module->to(...)`: `to` of a torch::nn::Module (or subclass);
/// with \p WithScripted, of a torch::jit::Module too.
bool isModuleToCall(const CXXMemberCallExpr *Call, bool WithScripted = false);

/// The LibTorch functions that make a new tensor (`torch::randn`,
/// `at::zeros_like`, ...), fully qualified as matchers spell them.
llvm::ArrayRef<llvm::StringRef> tensorFactoryNames();

/// The arguments of \p Call from \p From on that are tensors, but
/// \p Except.
llvm::SmallVector<const Expr *, 4>
tensorArguments(const CallExpr &Call, unsigned From = 0,
                const Expr *Except = nullptr);

/// \p E (implicit nodes ignored) calls one of tensorFactoryNames().
bool isTensorFactoryCall(const Expr *E);

/// `t.backward(...)` or `torch::autograd::backward(...)`.
bool isBackwardCall(const Expr *E);

/// `optimizer.step(...)` on a torch::optim::Optimizer (or subclass).
bool isOptimizerStepCall(const Expr *E);

/// A backward pass or an optimizer step: what makes a loop a training loop.
inline bool isParameterUpdateCall(const Expr *E) {
  return isBackwardCall(E) || isOptimizerStepCall(E);
}

/// `m->forward(x)`, `m.forward(x)` on a torch::nn::Module or
/// torch::jit::Module, or `m(x)` on a torch::nn::ModuleHolder (`Linear`,
/// `Net` from TORCH_MODULE).
bool isModuleForwardCall(const Stmt *S);

/// isModuleForwardCall, or a TorchScript module's other compiled methods:
/// `m.run_method("decode", ys, memory)`, `m.get_method("decode")(inputs)`.
/// What an inference loop runs per item when it decodes or post-processes
/// through a scripted model.
bool isModuleComputation(const Stmt *S);

/// A range-for over a LibTorch data loader (`for (auto &batch : *loader)`).
bool iteratesDataLoader(const Stmt *Loop);

/// The variable (or member) holding the data loader that \p Loop walks:
/// `loader` in `for (auto &batch : *loader)`; null for any other loop.
const ValueDecl *iteratedLoaderVariable(const Stmt *Loop);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_LIBTORCHCALLS_H
