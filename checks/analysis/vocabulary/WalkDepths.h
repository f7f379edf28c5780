//===--- WalkDepths.h - How far each walk goes ------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The bounds of the walks through calls and up through parents, one per
// concept, each with the reason for its value. A walk names the bound of
// what it looks for, so that two walks that answer the same question go
// equally far, and a change of one bound is one line.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_WALKDEPTHS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_WALKDEPTHS_H

namespace clang::tidy::libtorch::analysis {

/// How many calls deep a walk follows functions of this translation unit.
namespace CallDepth {
/// What runs per training step, and what counts as a step: the step loop,
/// the step function it calls, and the helpers of that one (`train()` ->
/// `train_step()` -> `compute_loss()`): three calls cover that shape, and
/// TrainingLoopModel walks the chains again for every statement it is
/// asked about, without a memo, so each call more costs on every question.
inline constexpr unsigned TrainingStep = 3;
/// CallerPaths: a statement's chain of callers up to the loop that runs it
/// (the step calls `compute_loss()`, which calls `detection_loss()`, which
/// calls a logging helper). Longer than TrainingStep because the walk
/// keeps what it learns per function, so a long chain is walked once per
/// translation unit.
inline constexpr unsigned CallerChain = 8;
/// ModulePlacement: the helpers a module handle is passed to where it may
/// be moved to a device (`setup(model)` -> `to_device(model)`).
inline constexpr unsigned ModuleHandOff = 3;
/// LoopInvariance: the functions a variable is passed to where it may be
/// written; past the bound a call counts as writing it.
inline constexpr unsigned LoopInvariance = 3;
} // namespace CallDepth

/// How many parents a walk up from an expression passes through.
namespace ParentHops {
/// ConstantHostData: from a host table's name up to what is done with it
/// (casts, parentheses, member and element accesses around a read), one
/// parent each; past eight the use counts as a write, the answer that
/// keeps the table out of a finding.
inline constexpr unsigned ReadOfTable = 8;
/// ConstantHostData: from a host table's name to the pointer, reference
/// or address that makes an alias of it, through the same accesses; past
/// eight it is not taken for an alias.
inline constexpr unsigned AliasOfTable = 8;
/// BatchScope: from a lambda to the transform it is given to, through the
/// conversions, temporaries and std::function wrappers between them; a
/// constructor further up is not the one the lambda is given to.
inline constexpr unsigned LambdaToTransform = 6;
} // namespace ParentHops

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_WALKDEPTHS_H
