//===--- HostSyncInLoopCheck.h - libtorch-tidy ------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_HOSTSYNCINLOOPCHECK_H
#define LIBTORCH_TIDY_CHECKS_HOSTSYNCINLOOPCHECK_H

#include "LibTorchCheck.h"
#include "analysis/devices/HostSyncOperations.h"
#include "analysis/steps/CallerPaths.h"
#include <string>
#include <vector>

namespace clang::tidy::libtorch {

/// Finds operations that make the host wait for the GPU on every training
/// step or evaluation batch (analysis/steps/BatchScope.h): `item()`, `cpu()`,
/// printing a tensor, `torch::cuda::synchronize()`, ops with data-dependent
/// output sizes, `clip_grad_norm_`, and branching on device values.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-host-sync-in-loop.md
class HostSyncInLoopCheck : public LibTorchCheck {
public:
  HostSyncInLoopCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }
  /// Whether \p Sync waits on every training step or evaluation batch of a
  /// program that uses the GPU, for nothing.
  void handle(const analysis::HostSync &Sync, ASTContext &Context);
  /// The finding at \p Sync, the calls on \p Path, and the remedy.
  void diagnose(const analysis::HostSync &Sync, const analysis::StepPath &Path,
                bool PerStep, bool InCondition, ASTContext &Context);
  /// A call of a function whose body another unit holds, which waits.
  std::optional<analysis::HostSync> elsewhereSync(const CallExpr &Call,
                                                  ASTContext &Context);
  /// The calls from the function \p Sync calls to the wait, in their units.
  void noteElsewhere(const analysis::HostSync &Sync, ASTContext &Context);
  /// Extra functions that synchronize, as qualified names (`SyncFunctions`).
  const std::string RawSyncFunctions;
  const std::vector<std::string> ExtraSyncFunctions;
  /// Which functions the steps and evaluation batches call, per TU.
  utils::PerUnit<analysis::BatchCallPaths> Callers{
      unitScope(), [this](ASTContext &Context) {
        return std::make_unique<analysis::BatchCallPaths>(
            batchScope(Context), trainingFacts(Context).Loops,
            analysis::StepEntries::Accepted);
      }};
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_HOSTSYNCINLOOPCHECK_H
