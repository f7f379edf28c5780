//===--- Summaries.h - What a host does with summaries ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The cross-unit summaries as a host of the checks (the libtorch-tidy CLI)
// sees them. The checks of one unit read what other units' functions do
// (analysis/summaries/FunctionSummary.h); a host gets those facts to them:
// it asks each parsed unit for the summaries of its own functions, as text
// it can cache and ship between processes, reads such texts back, and
// builds from many units the summary file (`--export-summaries`,
// `libtorch-tidy.SummaryFile`) or the table a run answers from.
//
// With Catalog.h, this is what the driver includes of the check module
// (test/driver/layering.test): what a summary holds, how a unit is
// summarized and what the checks ask of a table stay the checks' own.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_SUMMARIES_H
#define LIBTORCH_TIDY_CHECKS_SUMMARIES_H

#include "analysis/summaries/FunctionSummary.h"
#include "analysis/summaries/SummaryFile.h"
#include "analysis/summaries/SummaryTable.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace clang::tidy::libtorch::summaries {

using analysis::FunctionSummary;
using analysis::SummarizedUnit;
using analysis::SummaryTable;

/// What the first pass over a unit hands on to the others.
struct UnitSummaries {
  /// The summaries of the functions its main file defines, as text; empty
  /// when it has none.
  std::string Text;
  /// The USRs of the project's functions it calls without holding their
  /// bodies, sorted: the only ones whose summaries its checks may ask for,
  /// so the only ones a cached result of the unit depends on.
  std::vector<std::string> CalledElsewhere;
};

/// Summarizes the functions of \p Context's main file.
UnitSummaries summarizeUnit(ASTContext &Context);

/// The summaries in \p Text, as summarizeUnit wrote it; an error saying
/// what is wrong.
llvm::Expected<std::vector<FunctionSummary>>
readUnitSummaries(llvm::StringRef Text);

/// The summary file's text for \p Units: the same summaries make the same
/// bytes.
std::string summaryFileText(std::vector<SummarizedUnit> Units);

/// Every unit of a summary file's text; an error saying what is wrong.
llvm::Expected<std::vector<SummarizedUnit>>
parseSummaryFile(llvm::StringRef Text);

} // namespace clang::tidy::libtorch::summaries

#endif // LIBTORCH_TIDY_CHECKS_SUMMARIES_H
