//===--- CallSiteIndex.h - The calls of each function of a unit -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Where each function of the unit is called, in the unit's user code: the
// index every walk up through callers uses (TrainingLoopModel::callSitesOf).
//
// - A call whose callee is known statically is a site of that callee.
// - A virtual call (`buffer->sample(n)` through a `ReplayBuffer *`) is also
//   a site of every override defined in the unit's user code that it may
//   run: an override of the called method (directly or through an override
//   in between) in a class derived from the class of the object the call
//   goes through. The unit cannot tell which object the pointer holds at
//   run time; a replay buffer's sampler or a callback's `on_step()` called
//   per step through its base class runs per step whichever it is.
//   Where the unit makes objects of that hierarchy (`std::make_unique<
//   UniformBuffer>()`, `new`, a variable), only the overrides of the
//   classes it makes count: a test double or an alternative the unit never
//   creates is not what it calls. A unit that makes none (the object comes
//   from another unit) counts every override.
// - A call written `obj.Base::f()` or on an object (not through a pointer
//   or a reference) runs the method it names only (Clang's
//   MemberExpr::performsVirtualDispatch).
//
// Function pointers, std::function and other units are not seen.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_CALLSITEINDEX_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_CALLSITEINDEX_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis {

class CallSiteIndex {
public:
  explicit CallSiteIndex(ASTContext &Context) : Context(Context) {}

  /// The calls in user code that may run \p Function: its direct calls and
  /// the virtual calls that may dispatch to it (see the file comment).
  llvm::ArrayRef<const CallExpr *> sitesOf(const FunctionDecl *Function);
  /// Some instantiation of the template whose pattern is \p Pattern is
  /// called.
  bool isPatternCalled(const FunctionDecl *Pattern);
  /// \p Site is among sitesOf(\p Override) as a virtual call of a method
  /// that \p Override overrides, not as a call of \p Override itself.
  bool dispatchesTo(const CallExpr *Site, const FunctionDecl *Override);

private:
  void index();

  ASTContext &Context;
  bool Indexed = false;
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const CallExpr *, 2>>
      Sites;
  llvm::DenseSet<const FunctionDecl *> CalledPatterns;
  /// (call, override it may run) for the sites added by dispatch.
  llvm::DenseSet<std::pair<const CallExpr *, const FunctionDecl *>> Dispatches;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_CALLSITEINDEX_H
