//===--- DiffFilter.h - --diff: analyze and report what changed -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The pre-merge mode. `--diff=<git-ref>` runs `git diff -U0 <ref>` at the top
// of the repository that holds the working directory; `--diff=-` reads a
// unified diff from standard input (paths relative to the repository's top
// when it is a git diff run inside one, else to the working directory).
//
// Units selected: a unit whose own file has changed lines, and a unit that
// includes a changed file directly or through other headers of the project.
// Includes are found by a textual scan (IncludeScan.h), which errs towards
// selecting too much: it ignores #if, and a unit with an include it cannot
// resolve (`#include MACRO`) is selected whenever any non-unit file changed.
//
// Findings kept: those whose reported line (its begin) changed, like
// clang-tidy-diff's line filter. Compiler errors are always kept: they decide
// whether a unit could be analyzed at all.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_SELECT_DIFFFILTER_H
#define LIBTORCH_TIDY_DRIVER_SELECT_DIFFFILTER_H

#include "model/Findings.h"
#include "select/UnifiedDiff.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <vector>

namespace libtorch_tidy::select {

/// Changed lines by absolute, normalized path.
struct ChangedFiles {
  std::map<std::string, ChangedLines> Lines;

  /// The changed lines of \p AbsoluteFile, or null when it did not change.
  const ChangedLines *find(llvm::StringRef AbsoluteFile) const;
};

/// Resolves the paths of \p Diff against \p BaseDir (absolute).
ChangedFiles resolveDiff(const ParsedDiff &Diff, llvm::StringRef BaseDir);

/// Reads the changes `--diff=<Spec>` names: a git ref (run `git diff` in the
/// repository holding \p WorkingDir), or `-` for a diff on standard input.
/// \p StdinText, when given, replaces standard input (tests). Errors are one
/// line saying what to do.
llvm::Expected<ChangedFiles>
readChanges(llvm::StringRef Spec, llvm::StringRef WorkingDir,
            const std::string *StdinText = nullptr);

/// The units of \p Units (absolute paths, order kept) that the changes
/// concern, as the file comment says.
std::vector<std::string>
selectChangedUnits(llvm::ArrayRef<std::string> Units,
                   const ChangedFiles &Changes,
                   const clang::tooling::CompilationDatabase &Compilations);

/// Removes from \p Run the findings whose begin line did not change, and
/// returns how many were removed.
unsigned keepFindingsOnChangedLines(model::RunResult &Run,
                                    const ChangedFiles &Changes);

} // namespace libtorch_tidy::select

#endif // LIBTORCH_TIDY_DRIVER_SELECT_DIFFFILTER_H
