//===--- UnifiedDiff.h - Changed lines from a unified diff ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Reads the output of `git diff` (any -U, renames, new and deleted files,
// quoted names, names with spaces, `\ No newline at end of file`) or of
// `diff -u`, and says which lines of each file's new version changed.
//
// A line counts as changed when the diff adds it (`+`). A pure deletion adds
// no line, but it can create a finding next to it (deleting a NoGradGuard
// makes the loop below it a finding), so it marks the new-version lines on
// either side of the place it was removed from.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_SELECT_UNIFIEDDIFF_H
#define LIBTORCH_TIDY_DRIVER_SELECT_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace libtorch_tidy::select {

/// Line numbers (1-based) of one file's new version, as closed ranges.
class ChangedLines {
public:
  void add(unsigned First, unsigned Last);
  bool contains(unsigned Line) const;
  bool empty() const { return Ranges.empty(); }
  /// Sorted, merged, non-overlapping ranges.
  const std::vector<std::pair<unsigned, unsigned>> &ranges() const {
    return Ranges;
  }

private:
  std::vector<std::pair<unsigned, unsigned>> Ranges;
};

struct ParsedDiff {
  /// Changed lines by the new file's path as the diff spells it, without the
  /// `b/` prefix of git. Files the diff deletes are absent; a file that is
  /// only renamed or only loses lines at its end may map to no lines.
  std::map<std::string, ChangedLines> Files;
  /// True when the text came from git (`diff --git` headers): its paths are
  /// relative to the repository's top-level.
  bool FromGit = false;
};

/// Parses \p Text. Fails, on one line naming the line number, only when a
/// hunk header is malformed or a hunk is cut short; text outside hunks that
/// is not a header (e.g. a commit message) is ignored.
llvm::Expected<ParsedDiff> parseUnifiedDiff(llvm::StringRef Text);

/// Decodes a path git printed in C quotes (`"a/tab\there\303\251.cpp"`);
/// other text is returned unchanged.
std::string unquoteGitPath(llvm::StringRef Text);

} // namespace libtorch_tidy::select

#endif // LIBTORCH_TIDY_DRIVER_SELECT_UNIFIEDDIFF_H
