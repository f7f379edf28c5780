//===--- BatchScope.h - Code run per training step or eval batch -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Where code runs once for every batch the program computes on: every
// training step (TrainingLoopModel::perStep) or every evaluation batch.
//
// - An *evaluation loop* is a loop that is not a training loop, is not
//   written in a method of a torch::nn::Module (a module's loop over its
//   layers runs in its caller's scope), runs a module's forward pass on
//   every iteration (in its body, or through a lambda or a function of this
//   TU called there, up to CallDepth::TrainingStep calls deep), and
//   evaluates: it walks a LibTorch data loader, or runs under a no-grad
//   guard (in its body, before it in an enclosing block, or around every
//   call of its function seen in this TU), or calls an inference helper (a
//   function of this TU that reaches the forward pass and holds a no-grad
//   guard of its own), or follows the module's `eval()` (the last `eval()`
//   / `train()` call before it in its function, on a torch::nn or a
//   TorchScript module). A TorchScript module's `run_method()` and
//   `get_method(...)(...)` count as forward passes (isModuleComputation).
// - A statement runs *per batch* when its innermost enclosing step or
//   evaluation loop runs it on every iteration, without a periodic guard in
//   between (the same walk, through calls and lambdas, as perStep).
// - The *data pipeline* (`get()` / `get_batch()` of a dataset, the `apply`,
//   `apply_batch` or `operator()` of a transform, a lambda given to a
//   transform, and the functions of this TU those call) runs on the
//   loader's worker threads, on tensors that are on the CPU by design:
//   nothing in it runs per batch, even when a step calls it.
//
// What the model cannot see (calls into other TUs, function pointers, a
// module's loop reached only through an unseen caller) is "not per batch".
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_BATCHSCOPE_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_BATCHSCOPE_H

#include "analysis/steps/TrainingLoopModel.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// `get()` / `get_batch()` of a dataset (torch::data::datasets::BatchDataset
/// and what derives from it), or `apply`, `apply_batch`, `operator()` of a
/// transform (torch::data::transforms::BatchTransform).
bool isDataPipelineFunction(const FunctionDecl *Function);

/// \p Path, unless one of the calls on it is the data pipeline's code
/// (`dataset.get(i)` called from the loop itself).
std::optional<StepPath> outsideDataPipeline(std::optional<StepPath> Path);

class BatchScope {
public:
  BatchScope(ASTContext &Context, TrainingLoopModel &Loops);

  /// How \p S runs on every training step or evaluation batch: the loop is
  /// a step loop or an evaluation loop. Nothing when it runs less often, or
  /// in the data pipeline.
  std::optional<StepPath> perBatch(const Stmt *S);

  /// See the file comment.
  bool isEvaluationLoop(const Stmt *Loop);

  /// \p S is in the data pipeline: in a dataset or transform function, in a
  /// lambda given to a transform, or in a function of this TU that one of
  /// those calls (up to CallDepth::TrainingStep calls up).
  bool isInDataPipeline(const Stmt *S);

private:
  /// Calls between \p S and a module's forward pass, Unreachable if none is
  /// within CallDepth::TrainingStep.
  unsigned forwardDistance(const Stmt *S);
  unsigned functionForwardDistance(const FunctionDecl *Function);
  bool stmtInDataPipeline(const Stmt *S, unsigned Depth);
  bool functionInDataPipeline(const FunctionDecl *Function, unsigned Depth);
  bool evaluates(const Stmt *Loop, const FunctionDecl *Function);
  /// \p S calls a function of this TU that holds a no-grad guard and
  /// reaches a module's forward pass.
  bool callsInferenceHelper(const Stmt *S);
  static constexpr unsigned Unreachable = ~0U;

  ASTContext &Context;
  TrainingLoopModel &Loops;
  llvm::DenseMap<const Stmt *, bool> EvaluationLoops;
  llvm::DenseMap<const FunctionDecl *, unsigned> ForwardDistance;
  /// Per definition reaching a forward pass: it holds a no-grad guard
  /// (callsInferenceHelper asks for each of its calls in each loop).
  llvm::DenseMap<const FunctionDecl *, bool> GuardedFunctions;
  llvm::DenseMap<const FunctionDecl *, bool> Pipeline;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_BATCHSCOPE_H
