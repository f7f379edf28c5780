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

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_TRAININGFACTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_TRAININGFACTS_H

#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceScopeFacts.h"
#include "analysis/steps/TrainingLoopModel.h"
#include "utils/UserCode.h"

namespace clang::tidy::libtorch::analysis {

struct TrainingFacts {
  TrainingFacts(ASTContext &Context, const utils::UserCodeParents &Parents,
                llvm::ArrayRef<std::string> GuardMacros,
                SummaryAccess Summaries = {})
      : Parents(Parents),
        Loops(Context, Parents, GuardMacros, std::move(Summaries)),
        Devices(Context) {}
  const utils::UserCodeParents &Parents;
  TrainingLoopModel Loops;
  DeviceScopeFacts Devices;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_TRAININGFACTS_H
