//===--- TrainingFacts.h - Per-TU facts a check holds -----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The training-loop model and the device facts of one translation unit,
// built on a check's first match and dropped at the end of the TU, so their
// caches serve every match of that TU. A check instance sees one TU at a
// time; no state outlives it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_TRAININGFACTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_TRAININGFACTS_H

#include "DeviceFacts.h"
#include "TrainingLoopModel.h"
#include <memory>

namespace clang::tidy::libtorch::analysis {

struct TrainingFacts {
  TrainingFacts(ASTContext &Context, llvm::ArrayRef<std::string> GuardMacros)
      : Loops(Context, GuardMacros), Devices(Context) {}
  TrainingLoopModel Loops;
  DeviceScopeFacts Devices;
};

class TrainingFactsCache {
public:
  TrainingFacts &get(ASTContext &Context,
                     llvm::ArrayRef<std::string> GuardMacros = {}) {
    if (!Facts || For != &Context) {
      Facts = std::make_unique<TrainingFacts>(Context, GuardMacros);
      For = &Context;
    }
    return *Facts;
  }
  void reset() {
    Facts.reset();
    For = nullptr;
  }

private:
  std::unique_ptr<TrainingFacts> Facts;
  const ASTContext *For = nullptr;
};

/// The function whose body holds \p S, looking through lambdas to the
/// function that defines them; null at namespace scope.
const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Context);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_TRAININGFACTS_H
