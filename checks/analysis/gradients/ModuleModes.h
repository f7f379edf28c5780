//===--- ModuleModes.h - Which module is trained, evaluated, frozen -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a translation unit does with each module it names: where it is
// switched to eval or train mode, where its forward pass runs, whether its
// parameters are handed on (to an optimizer, a vector of parameters, a
// parameter group) or frozen with `requires_grad_(false)`.
//
// A module is named by a declaration (a local variable, a parameter, a
// member: analysis::holderDecl). The same module passed to a function of
// this TU is that function's parameter there: aliases() joins the two, so
// `model` in main() and `net` in `train_epoch(Net &net, ...)` are one
// module.
//
// The training-loop model (TrainingLoopModel) says which loops train; this
// index says which module a loop trains. Template code is read as written
// only: a call on a dependent type names no module.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_MODULEMODES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_MODULEMODES_H

#include "analysis/steps/TrainingLoopModel.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// The module a member call is made on: `model` of `model->eval()`,
/// `model.eval()`, `this->model->eval()`; null when it is not named by a
/// variable or member.
const ValueDecl *moduleOfMemberCall(const CXXMemberCallExpr *Call);

/// An `eval()` or `train(...)` call on a module. `train(false)` switches to
/// eval mode; `train()`, `train(true)` and `train(flag)` count as restoring
/// train mode (a flag we cannot read may be true).
struct ModeCall {
  const CXXMemberCallExpr *Call = nullptr;
  const ValueDecl *Module = nullptr;
  bool Eval = false;
};

/// An eval() that a training loop runs on every iteration while the same
/// loop trains the module, with no train() in between.
struct UnrestoredEval {
  /// The training loop (usually the epoch loop) whose iterations run both.
  const Stmt *Loop = nullptr;
  /// A forward pass of the module on every training step of that loop.
  const Expr *TrainingForward = nullptr;
  /// The module as named in the loop's function, or null when that
  /// function does not name it (then no fix-it can name it either).
  const ValueDecl *ModuleInLoop = nullptr;
};

class ModuleModes {
public:
  ModuleModes(ASTContext &Context, TrainingLoopModel &Loops);

  /// \p Call switches a module to eval mode (`eval()`, `train(false)`).
  std::optional<ModeCall> evalCall(const CXXMemberCallExpr *Call) const;

  /// \p Module and every declaration that names the same module through
  /// the calls of this TU (an argument and the parameter it binds).
  llvm::SmallVector<const ValueDecl *, 4> aliases(const ValueDecl *Module);

  /// The parameters of \p Module (or an alias) leave a range-for over them:
  /// passed to an optimizer, a vector, a parameter group; or the module is
  /// passed to something that may do so (`register_module`, a function
  /// whose body this TU lacks).
  bool parametersHandedOn(const ValueDecl *Module);
  /// A range-for over the parameters of \p Module (or an alias) calls
  /// `requires_grad_` / `set_requires_grad`.
  bool parametersFrozen(const ValueDecl *Module);
  /// \p Module looks frozen: this TU constructs an optimizer (or hands some
  /// module's parameters on: the optimizer is here) but never hands on the
  /// parameters of \p Module, and it is not a member of a
  /// module class (a submodule, trained with its parent's parameters).
  bool isUntrainedModule(const ValueDecl *Module);
  /// Some module of this TU hands its parameters on: the optimizer is here.
  bool anyParametersHandedOn() const { return !HandedOn.empty(); }

  /// \p S runs on every iteration of \p Loop: in its body, condition or
  /// increment, or in a function or lambda called there (up to
  /// CallDepth::TrainingStep calls deep).
  bool runsInIterationOf(const Stmt *S, const Stmt *Loop);
  /// The training loops that run \p S on every iteration, the innermost of
  /// each path (through the calls of \p S's function) first.
  llvm::SmallVector<const Stmt *, 2> trainingLoopsAround(const Stmt *S);

  /// The eval() call \p Eval leaves its module in eval mode for the
  /// training that follows in the same training loop: the loop (or a
  /// function it calls) runs a forward pass of the module on every training
  /// step, not under a no-grad guard, the module's parameters are handed on
  /// (it is the model being trained), and nothing in the loop's iteration
  /// calls train() on it or passes it to code we cannot see. An eval() that
  /// is followed in its block by `break` or `return`, or sits under an
  /// `if (a == b)` (the last epoch), leaves no training behind it.
  std::optional<UnrestoredEval> unrestoredEval(const CXXMemberCallExpr *Eval);

private:
  void index();
  bool anyAlias(const ValueDecl *Module,
                const llvm::DenseSet<const ValueDecl *> &Set);
  bool endsTraining(const Stmt *Eval, const Stmt *Loop) const;
  bool runsIn(const Stmt *S, const Stmt *Loop, unsigned Depth);
  void loopsAround(const Stmt *S, unsigned Depth,
                   llvm::SmallVectorImpl<const Stmt *> &Found);

  ASTContext &Context;
  TrainingLoopModel &Loops;
  llvm::SmallVector<ModeCall, 8> ModeCalls;
  /// Module forward calls (`m(x)`, `m->forward(x)`) and their module.
  llvm::SmallVector<std::pair<const Expr *, const ValueDecl *>, 8> Forwards;
  /// Calls of functions whose body this TU lacks, and a module passed to
  /// them (null for a member call of a user class: MemberOf says which).
  struct UnseenCall {
    const CallExpr *Call;
    const ValueDecl *Module;
    const CXXRecordDecl *MemberOf;
  };
  llvm::SmallVector<UnseenCall, 8> Unseen;
  /// Argument <-> parameter: both name the same module.
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<const ValueDecl *, 2>>
      Links;
  llvm::DenseSet<const ValueDecl *> HandedOn;
  llvm::DenseSet<const ValueDecl *> Frozen;
  bool ConstructsOptimizer = false;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_MODULEMODES_H
