//===--- FunctionSummarizer.h - What a unit's functions do ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Facts about the functions a translation unit defines, for the units that
// call them without seeing their bodies: a step in `train.cpp` that calls
// `compute_metrics(out, target)` from `metrics.cpp`, which reads each value
// with `item()`. The first pass summarizes each function of each unit (what
// it waits for on every call, which functions of the project it calls on
// every call); the summaries of all units are written to one file
// (`libtorch-tidy --export-summaries`), and the checks of the second pass
// read it (SummaryTable.h). Functions are keyed by USR, Clang's name for a
// declaration that is the same in every unit that declares it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_FUNCTIONSUMMARIZER_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_FUNCTIONSUMMARIZER_H

#include "analysis/summaries/FunctionSummary.h"
#include "clang/AST/ASTContext.h"
#include <vector>

namespace clang::tidy::libtorch::analysis {

/// The summaries of the functions defined in \p Context's main file, each
/// with the waits and calls of project functions that run on every call of
/// it, the host tensors it makes and copies to the GPU on every call,
/// whether it returns a tensor on the device, and how far it is from a
/// backward pass and an optimizer step. Left out of
/// the waits, copies and calls, so that they say only what always happens:
/// - operations under an `if`, `switch`, `?:`, `&&`, `||` or in a `catch`
///   (a guard such as `if (step % 100 == 0)` is the caller's to see, and
///   the summary cannot show it), and after an early return on a test
///   (`if (!t.is_cuda()) return;`: a helper whose CPU path reads values
///   and whose CUDA path hands tensors to the device) other than an
///   integer equality (`if (n == 0) return;` leaves out one case);
/// - operations in lambdas (called when, and how often, is not known);
/// - a wait on a tensor provably in host memory;
/// - calls of virtual functions (another override may run);
/// - templates not instantiated, and functions with no USR.
/// Functions with no fact are left out too.
std::vector<FunctionSummary> summarizeUnit(ASTContext &Context);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_FUNCTIONSUMMARIZER_H
