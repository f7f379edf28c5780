//===--- SummaryExport.h - --export-summaries -------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--export-summaries=FILE`: the summaries of the units analyzed (or
// replayed from the cache) in this run, written over their earlier entries
// in FILE, with the entries of the units not analyzed now kept. The checks
// of later runs, the plugin's included, read it through the
// `libtorch-tidy.SummaryFile` option
// (checks/analysis/program/SummaryTable.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_TOOL_SUMMARYEXPORT_H
#define LIBTORCH_TIDY_DRIVER_TOOL_SUMMARYEXPORT_H

#include "model/Findings.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace libtorch_tidy {

/// Why \p Path cannot take the summaries: it exists and is not a summary
/// file (we never replace a file we did not write), or cannot be written.
/// Asked before the analysis.
std::optional<std::string> summaryExportProblem(const std::string &Path);

/// Writes the summaries of \p Run's units into \p Path, keeping the
/// entries of other units; a unit that failed keeps its earlier entry.
/// One line naming the file when it fails.
std::optional<std::string> exportSummaries(const std::string &Path,
                                           const model::RunResult &Run);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_TOOL_SUMMARYEXPORT_H
