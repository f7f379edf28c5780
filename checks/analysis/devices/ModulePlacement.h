//===--- ModulePlacement.h - Which modules are moved ------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A module is held through a *handle*: a `torch::nn::ModuleHolder` (`Linear`,
// a `TORCH_MODULE(Net)` class) or a `std::shared_ptr<T>` of a
// `torch::nn::Module` subclass. This file answers whether the module a handle
// holds may have been moved with `Module::to(device)`:
//
// - a `->to(device)` on the handle (through `->`, `*`, `.get()`, `.ptr()`);
// - in a helper of this TU the handle is passed to (up to
// CallDepth::ModuleHandOff calls
//   deep), by value, reference or pointer;
// - in a constructor of the module class itself (`to(device)` on `this`);
// - for a member of a class that owns it: in any member function or
//   constructor of that class, or wherever else the TU touches the member.
//
// Whenever the handle escapes where we cannot follow it (a function of
// another TU, a LibTorch function, a copy into another variable, a
// reassignment, a return) the answer is "may be moved": checks stay silent
// on what they cannot prove.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_MODULEPLACEMENT_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_MODULEPLACEMENT_H

#include "analysis/vocabulary/WalkDepths.h"
#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis {

/// A `torch::nn::ModuleHolder` (or subclass) or a `std::shared_ptr<T>` with T
/// a `torch::nn::Module` subclass (references and cv looked through).
bool isModuleHandleType(QualType Type);

/// The module class a handle type holds (`NetImpl` for `Net`), or null.
const CXXRecordDecl *moduleClassOf(QualType HandleType);

/// The local variable, parameter or field whose module a forward call runs:
/// `model->forward(x)`, `model(x)`, `member_->forward(x)`; null for anything
/// else (a temporary, an element of a container, `other.member`).
const ValueDecl *moduleOfForwardCall(const Expr *ForwardCall);

/// What the TU says about where a module handle's module may be.
struct ModuleMoves {
  /// It may have been moved, or it escapes where we cannot follow it.
  bool MaybeMoved = false;
  /// A `Module::to` to a CUDA or maybe-CUDA device is seen.
  bool MovedToDevice = false;
};

class ModulePlacement {
public:
  ModulePlacement(ASTContext &Context, const utils::UserCodeParents &Parents)
      : Context(Context), Parents(Parents) {}

  /// For a local variable, a parameter, or a field of a module handle type.
  ModuleMoves movesOf(const ValueDecl *Handle);

private:
  ModuleMoves movesOfVariable(const VarDecl *Variable, unsigned Depth);
  ModuleMoves movesOfField(const FieldDecl *Field);
  /// How one use of the handle (a DeclRefExpr or MemberExpr) may move it.
  ModuleMoves movesOfUse(const Expr *Use, unsigned Depth);
  /// Whether a constructor of the module class moves `this`.
  bool constructorMoves(const CXXRecordDecl *ModuleClass);
  void indexFieldUses();

  ASTContext &Context;
  const utils::UserCodeParents &Parents;
  llvm::DenseMap<const ValueDecl *, ModuleMoves> Known;
  llvm::DenseMap<const CXXRecordDecl *, bool> ConstructorMoves;
  bool FieldUsesIndexed = false;
  llvm::DenseMap<const FieldDecl *, llvm::SmallVector<const MemberExpr *, 4>>
      FieldUses;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_MODULEPLACEMENT_H
