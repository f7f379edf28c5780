//===--- ZeroGradAccumulationCheck.h - libtorch-tidy ------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ZEROGRADACCUMULATIONCHECK_H
#define LIBTORCH_TIDY_CHECKS_ZEROGRADACCUMULATIONCHECK_H

#include "LibTorchCheck.h"
#include "analysis/gradients/AccumulationWindow.h"
#include "analysis/gradients/GradientOrder.h"

namespace clang::tidy::libtorch {

/// Finds gradient handling that silently breaks training or gradient
/// accumulation, by ordering the zero_grad / backward / step calls of one
/// step loop (analysis/gradients/GradientOrder.h):
/// 1. `step()` under a periodic guard, `zero_grad()` unguarded;
/// 2. `zero_grad()` between `backward()` and `step()`;
/// 3. `step()` in a loop that never resets gradients;
/// 4. correct accumulation whose loss is not divided by the count;
/// 5. `zero_grad()` once per epoch while the accumulation counter runs
///    across epochs (analysis/gradients/AccumulationWindow.h).
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-zero-grad-accumulation.md
class ZeroGradAccumulationCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Which of the patterns the step loop \p Loop shows, if any.
  void handle(const Stmt *Loop, ASTContext &Context);
  void diagnoseUnguardedZeroGrad(const analysis::GradEvent &Zero,
                                 const analysis::GradEvent &Step,
                                 llvm::ArrayRef<analysis::GradEvent> Events,
                                 ASTContext &Context);
  void diagnoseCrossEpochWindow(const analysis::CrossEpochWindow &Window,
                                const IfStmt &Guard, ASTContext &Context);
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_ZEROGRADACCUMULATIONCHECK_H
