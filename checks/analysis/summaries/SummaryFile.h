//===--- SummaryFile.h - The summary file's text ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The summary file (`libtorch-tidy --export-summaries=FILE`) as text: one
// header line, then one line per function of each unit, sorted by the
// function's USR, so that a unit's checks find the few summaries they ask
// for by a binary search over the file's bytes, without parsing, or even
// holding, the rest (a whole project's table is megabytes; parsed whole, in
// every worker and for every unit, it cost more than the analysis):
//
//   {"format":"libtorch-tidy-summaries","version":4}
//   {"usr":"","mainFile":"/p/a.cpp"}                        each unit, once
//   {"usr":"c:@F@f#","mainFile":"/p/a.cpp","function":{...}}
//
// A function defined in several units (inline, in a header) has a line for
// each, in the order of their main files; the first is the one asked.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_SUMMARYFILE_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_SUMMARYFILE_H

#include "analysis/summaries/FunctionSummary.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::libtorch::analysis {

/// The summaries of one unit's main file.
struct SummarizedUnit {
  std::string MainFile;
  std::vector<FunctionSummary> Functions;
};

/// The summary file's text for \p Units: the same summaries make the same
/// bytes.
std::string summaryFileText(std::vector<SummarizedUnit> Units);

/// Every unit of a summary file's text (sorted by main file, each unit's
/// functions by USR); an error saying what is wrong.
llvm::Expected<std::vector<SummarizedUnit>>
parseSummaryFile(llvm::StringRef Text);

/// The lines of a summary file's text, searched by USR. Holds no copy of
/// the text, which must outlive it.
class SummaryLines {
public:
  SummaryLines() = default;
  /// \p Text's lines, checked for their form and order (not their
  /// content, which is parsed when asked for): an error saying what is
  /// wrong.
  static llvm::Expected<SummaryLines> of(llvm::StringRef Text);

  /// The summary of the function with USR \p Usr, parsed now; nothing when
  /// the file has none, or its line does not hold a valid summary.
  std::optional<FunctionSummary> find(llvm::StringRef Usr) const;

  bool empty() const { return Functions.empty(); }

private:
  /// The function lines, each ending with a newline.
  llvm::StringRef Functions;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_SUMMARYFILE_H
