//===--- SummaryJson.h - Summaries in the summary file's form ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A unit's summaries as the summary file holds them (SummaryFile.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_SUMMARYJSON_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_SUMMARYJSON_H

#include "analysis/summaries/FunctionSummary.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <vector>

namespace clang::tidy::libtorch::analysis {

/// A unit's summaries as the summary file holds them, and back.
llvm::json::Array summariesToJson(llvm::ArrayRef<FunctionSummary> Summaries);
llvm::Expected<std::vector<FunctionSummary>>
summariesFromJson(const llvm::json::Array &Functions);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_SUMMARYJSON_H
