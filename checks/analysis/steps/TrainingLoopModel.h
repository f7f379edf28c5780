//===--- TrainingLoopModel.h - Where training steps happen ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The shared model of a LibTorch training loop (docs/architecture.md, "The
// training-loop model"):
//
// - A *training loop* is a for / range-for / while / do loop whose body
//   reaches a backward pass (`Tensor::backward`, `torch::autograd::backward`)
//   or an optimizer step (`Optimizer::step`): directly, through a lambda
//   called in it, or through a function of this translation unit called in
//   it (up to CallDepth::TrainingStep calls deep).
// - A *step loop* reaches one outside any nested training loop: its body
//   runs once per step. An epoch loop around a step loop is a training loop
//   but not a step loop, so what it runs outside the step loop runs once per
//   epoch. A function called in an epoch loop that holds the whole step loop
//   (`train_epoch()`) does not make the epoch loop a step loop.
// - A statement runs *per step* when its innermost enclosing step loop is
//   reached without passing a periodic guard, or when it sits in a function
//   or lambda that is called per step (same TU, up to CallDepth::TrainingStep).
// - A *training-step function* is one whose call runs one training step
//   and that no loop of this TU runs: it reaches a backward pass and an
//   optimizer step (directly or through functions of this TU, up to
//   CallDepth::TrainingStep calls deep) outside any training loop of its own,
//   and nothing in this TU calls it (`train_step()`, `update()`, `learn()` of a
//   library, called per step by another TU, another language's bindings or
//   a callback). `main` is not one: it runs once; nor is a function that
//   builds an optimizer, or an object holding one (setup that runs a
//   first step once, `trainer_create()`). A statement in such a
//   function, or in a function it calls, runs per step for the walks that
//   accept step functions (perStep with StepEntries::Accepted, CallerPaths).
// - A *periodic guard* is an `if` whose then-branch holds the statement and
//   whose condition uses a modulo (`i % N == 0`, `(i + 1) % N != 0`,
//   `batch_idx++ % N == 0`, `!(i % N)`), compares integers for equality
//   (`i == 0`, `step == last`), or is a plain `bool` variable or member
//   (`verbose`, `!options.quiet`); or a user macro named as a guard. An
//   earlier `if (<periodic>) continue;` (or break/return) in the same block
//   guards what follows it.
//
// A call of a function whose body another TU holds counts as the update
// that function's summary says it reaches (summaries/FunctionSummary.h), when
// the check reads summaries: a loop that calls `trainer.train_step(batch)` of
// `trainer.cpp` is a step loop. Only that function's own unit is seen: an
// update two units away is not.
//
// When the model cannot see something (a function pointer, a call into
// another TU without summaries) it answers "not per step": checks stay
// silent on what they cannot prove.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_TRAININGLOOPMODEL_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_TRAININGLOOPMODEL_H

#include "analysis/steps/CallSiteIndex.h"
#include "analysis/summaries/FunctionSummary.h"
#include "analysis/vocabulary/WalkDepths.h"
#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::libtorch::analysis {

/// A call of a function defined in another TU whose summary reaches a
/// parameter update outside its own training loops.
struct UpdateElsewhere {
  const CallExpr *Call = nullptr;
  bool Backward = false; ///< it reaches a backward pass
  bool Step = false;     ///< it reaches an optimizer step
};

/// How a statement comes to run on every training step.
struct StepPath {
  /// The step loop whose every iteration runs the statement.
  const Stmt *StepLoop = nullptr;
  /// The calls walked from the step loop down to the statement's function,
  /// outermost first; empty when the statement is in the loop's own body.
  llvm::SmallVector<const CallExpr *, 2> Calls;
  /// When no loop of this TU runs the statement: the training-step
  /// function the walk ended in (StepLoop is null then; see the file
  /// comment). Calls lead from it down to the statement.
  const FunctionDecl *StepFunction = nullptr;
  /// Why StepLoop trains, when a function defined in another TU is the
  /// reason (updateElsewhere).
  std::optional<UpdateElsewhere> LoopUpdate = std::nullopt;
  /// The virtual calls among Calls that the walk followed into an override
  /// of the method they name (CallSiteIndex.h), with that override.
  llvm::SmallVector<std::pair<const CallExpr *, const CXXMethodDecl *>, 1>
      Dispatches = {};
};

class SummaryTable;

/// The summaries of the project's other units, read on first use (a unit
/// that calls no function of another unit never reads them); empty for a
/// check that does not read summaries.
using SummaryAccess = std::function<const SummaryTable &()>;

/// Whether a walk up to the step may end in a training-step function that
/// no loop of this TU runs (see the file comment).
enum class StepEntries { Ignored, Accepted };

class TrainingLoopModel {
public:
  /// \p GuardMacros: names of user macros whose expansion counts as a
  /// periodic guard (check option PeriodicGuardMacros).
  TrainingLoopModel(ASTContext &Context, const utils::UserCodeParents &Parents,
                    llvm::ArrayRef<std::string> GuardMacros = {},
                    SummaryAccess Summaries = {});

  /// The parents of user code the model walks up with.
  const utils::UserCodeParents &parents() const { return Parents; }

  /// The loop reaches a parameter update at all (step or epoch loop).
  bool isTrainingLoop(const Stmt *Loop);
  /// A loop around \p S in its own function (or lambda) is a training loop.
  bool isInsideTrainingLoop(const Stmt *S);
  /// The loop reaches a parameter update outside nested training loops.
  bool isStepLoop(const Stmt *Loop);
  /// One call of \p Function runs (at most) one training step: its body
  /// reaches an update outside any training loop of its own.
  bool isStepFunction(const FunctionDecl *Function);
  /// How far a call of \p Function is from each kind of update, through
  /// this TU's functions: what its summary says (summaries/FunctionSummary.h).
  SummarizedUpdates updatesOf(const FunctionDecl *Function);
  /// The first call in one iteration of \p Loop (outside lambdas and
  /// nested training loops) of a function defined in another TU that
  /// reaches an update outside its own training loops: why \p Loop trains,
  /// for a note, when it does through another TU. Nothing when the
  /// iteration itself holds a backward() or step().
  std::optional<UpdateElsewhere> updateElsewhere(const Stmt *Loop);
  /// \p Function is a training-step function that no code of this TU calls
  /// (see the file comment): each of its calls is one training step.
  bool isStepEntry(const FunctionDecl *Function);
  /// \p Path runs on every training step: its loop is a step loop, or it
  /// ends in a training-step function.
  bool isPerStep(const StepPath &Path);

  /// How \p S runs on every training step, or nothing if it does not (once
  /// per epoch, after training, under a periodic guard, outside training).
  std::optional<StepPath> perStep(const Stmt *S,
                                  StepEntries Entries = StepEntries::Ignored);

  /// The same walk as perStep, with \p IsRepeatedLoop instead of
  /// isStepLoop: how \p S runs on every iteration of the innermost loop
  /// around it (through calls and lambdas) that \p IsRepeatedLoop accepts,
  /// without a periodic guard in between (BatchScope adds evaluation loops).
  /// StepPath::StepLoop is that loop.
  std::optional<StepPath>
  perIteration(const Stmt *S,
               llvm::function_ref<bool(const Stmt *Loop)> IsRepeatedLoop);

  /// True for a condition that makes its then-branch run periodically.
  bool isPeriodicCondition(const Expr *Condition) const;
  /// True when a statement before \p Child in \p Block leaves the block
  /// unless a periodic condition holds (`if (i % N != 0) continue;`).
  bool isSkippedPeriodically(const CompoundStmt &Block,
                             const Stmt *Child) const;
  /// True when \p Loc is inside an expansion of a guard macro.
  bool isInGuardMacro(SourceLocation Loc) const;

  /// The calls in this TU's user code that may run \p Function: its own,
  /// and the virtual calls that may dispatch to it (CallSiteIndex.h).
  llvm::ArrayRef<const CallExpr *> callSitesOf(const FunctionDecl *Function);
  /// \p Site, one of callSitesOf(\p Override), is a virtual call of a
  /// method that \p Override overrides.
  bool dispatchesTo(const CallExpr *Site, const FunctionDecl *Override);

private:
  /// Calls between \p S and a parameter update: 0 when S holds one itself,
  /// Unreachable when none is within CallDepth::TrainingStep.
  /// Which parameter update a distance is measured to.
  enum class Update { Any, Backward, OptimizerStep };
  unsigned updateDistance(const Stmt *S, bool SkipTrainingLoops,
                          Update Kind = Update::Any);
  unsigned functionUpdateDistance(const FunctionDecl *Function,
                                  bool SkipTrainingLoops,
                                  Update Kind = Update::Any);
  /// The distance through \p Call when its callee's body is in another TU:
  /// its summary's, one call further.
  unsigned distanceElsewhere(const CallExpr &Call, bool SkipTrainingLoops,
                             Update Kind);
  std::optional<UpdateElsewhere> findUpdateElsewhere(const Stmt *S);
  /// Some call in this TU's user code runs \p Function, an instantiation
  /// of it, or a method it overrides.
  bool isCalledInUnit(const FunctionDecl *Function);
  /// One iteration of \p Loop (body, condition, increment) reaches an update.
  bool iterationReachesUpdate(const Stmt *Loop, bool SkipTrainingLoops);
  static constexpr unsigned Unreachable = ~0U;
  using LoopFilter = llvm::function_ref<bool(const Stmt *Loop)>;
  std::optional<StepPath> perIteration(const Stmt *S, unsigned Depth,
                                       LoopFilter IsRepeatedLoop,
                                       StepEntries Entries);
  std::optional<StepPath> viaCallers(const FunctionDecl *Callable,
                                     unsigned Depth, LoopFilter IsRepeatedLoop,
                                     StepEntries Entries);

  ASTContext &Context;
  const utils::UserCodeParents &Parents;
  llvm::StringSet<> GuardMacros;
  SummaryAccess Summaries;
  llvm::DenseMap<const Stmt *, bool> TrainingLoops;
  llvm::DenseMap<const Stmt *, bool> StepLoops;
  llvm::DenseMap<const Stmt *, std::optional<UpdateElsewhere>> UpdatesElsewhere;
  /// What the summaries say of each callee defined elsewhere (canonical).
  llvm::DenseMap<const FunctionDecl *, std::optional<SummarizedUpdates>>
      CalleeUpdates;
  /// Per function: the distance to an update of each kind ([Update]),
  /// [..][0] anywhere, [..][1] outside its loops.
  llvm::DenseMap<const FunctionDecl *, unsigned> FunctionDistance[3][2];
  CallSiteIndex CallSites;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_TRAININGLOOPMODEL_H
