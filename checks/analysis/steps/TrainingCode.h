//===--- TrainingCode.h - Functions that train ------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Whether a function is code that trains, through the calls of this
// translation unit: what a setting meant for debugging must not be left
// switched on in (libtorch-anomaly-detection-enabled).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_TRAININGCODE_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_TRAININGCODE_H

#include "analysis/steps/TrainingLoopModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace clang::tidy::libtorch::analysis {

/// \p Function is code that trains: it holds a training loop, calls
/// (within CallDepth::TrainingStep) a function of this TU that
/// does, or is called (within CallDepth::TrainingStep) from inside a training
/// loop. A function that only runs a backward pass once (a gradient check, a
/// debugging helper) and is never reached from a training loop does not
/// train.
bool isTrainingCode(const FunctionDecl *Function, ASTContext &Context,
                    TrainingLoopModel &Loops);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_TRAININGCODE_H
