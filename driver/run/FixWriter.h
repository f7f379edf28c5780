//===--- FixWriter.h - Apply fix-its to the files ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--fix` and `--fix-notes` as clang-tidy 16's ErrorReporter applies them:
// the chosen fix of each finding, conflicting replacements shifted or
// skipped, clang-format's cleanup (and formatting with --format-style) around
// them, each changed file replaced through a temporary file and a rename.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_FIXWRITER_H
#define LIBTORCH_TIDY_DRIVER_RUN_FIXWRITER_H

#include "report/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace libtorch_tidy::run {

/// The fix `--fix` applies for \p F: its own, or with \p FixNotes the fix
/// of its only note that has one (clang-tidy's getFixIt). Null if none.
const std::vector<report::Replacement> *chosenFix(const report::Finding &F,
                                                  bool FixNotes);

/// Which replacements will be applied, decided before any file is written
/// (the text output reports it next to each finding).
struct FixPlan {
  /// Per finding given, each attempted replacement and whether it applies.
  std::vector<std::vector<std::pair<report::Replacement, bool>>> PerFinding;
  unsigned Total = 0;
  unsigned Applied = 0;
  /// The replacements to apply, by absolute file.
  std::map<std::string, std::vector<report::Replacement>> PerFile;
};

/// Chooses the fixes of \p Findings and resolves conflicts among them.
FixPlan planFixes(llvm::ArrayRef<const report::Finding *> Findings,
                  bool FixNotes);

/// Writes \p Plan to the files. \p StyleFor gives the `FormatStyle`
/// configured for a file ("none" formats nothing). Returns one line per
/// file that could not be written.
std::vector<std::string>
writeFixes(const FixPlan &Plan,
           const std::function<std::string(llvm::StringRef)> &StyleFor);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_FIXWRITER_H
