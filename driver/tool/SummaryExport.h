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
// (checks/Summaries.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_TOOL_SUMMARYEXPORT_H
#define LIBTORCH_TIDY_DRIVER_TOOL_SUMMARYEXPORT_H

#include "model/Findings.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>

namespace libtorch_tidy {

/// Why \p Path cannot take the summaries: it exists and is not a summary
/// file (we never replace a file we did not write), or cannot be written.
/// Asked before the analysis.
std::optional<std::string> summaryExportProblem(const std::string &Path);

/// Writes the summaries of \p Run's units into \p Path, keeping the
/// entries of other units of \p DatabaseUnits (absolute paths; every other
/// unit when it is null, a command line without a compile database): a
/// unit deleted or renamed since leaves the file. A unit that failed keeps
/// its earlier entry. Exports into one file at once (CI jobs, editors)
/// take turns, each reading what the last one wrote, so that none loses
/// another's entries. One line naming the file when it fails.
std::optional<std::string>
exportSummaries(const std::string &Path, const model::RunResult &Run,
                const llvm::StringSet<> *DatabaseUnits);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_TOOL_SUMMARYEXPORT_H
