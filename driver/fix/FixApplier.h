//===--- FixApplier.h - --fix: write the fix-its into the files -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Applies the fix-its of a RunResult to the files on disk.
//
// - One finding's fix is applied whole or not at all. Findings are taken in
//   the order given (uniqueFindings() order: file, offset, check); a fix
//   that overlaps one
//   already taken (different text on overlapping bytes, or two different
//   insertions at one place) is skipped and reported, as clang-tidy does.
//   The same edit from several units (a finding in a shared header) is
//   applied once.
// - With FixNotes, a finding without a fix of its own takes the fix of its
//   notes when exactly one note has one (clang-tidy's --fix-notes rule; with
//   several, which to apply is a choice the user must make).
// - A file is only written when its SHA-256 still equals the digest the
//   analysis recorded (TranslationUnitResult::ContentDigests). Every file is
//   checked before any is written, and again right before it is written; a
//   mismatch is an error that names the file.
// - Every edit must lie inside the file it is for (edits replayed from the
//   result cache are data read back from disk); one that does not is an
//   error and nothing is written.
// - Each file is written by io::writeFile in FileMode::Preserve: to a
//   temporary file in its own directory, given the original's mode and
//   owner, flushed to disk, and renamed over the original: a reader, or a
//   run killed at any moment, sees the old or the new content, never a mix.
//   A symbolic link is followed and the file it points to is replaced; what
//   is not a regular file is never replaced; hard links to the file are not
//   updated (the rename gives the path a new inode).
// - As clang-tidy does, clang-format's cleanup runs around the edits (it
//   removes what an edit leaves dangling, e.g. a comma), and with a
//   FormatStyle other than "none" the edited lines are formatted.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_FIX_FIXAPPLIER_H
#define LIBTORCH_TIDY_DRIVER_FIX_FIXAPPLIER_H

#include "model/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace libtorch_tidy::fix {

struct FixOptions {
  /// clang-tidy's --fix-notes.
  bool FixNotes = false;
  /// The `FormatStyle` configured for a file (`--format-style`,
  /// `.clang-tidy`); unset or "none": cleanup only, no formatting.
  std::function<std::string(llvm::StringRef)> StyleFor;
};

/// A fix that was not applied because it overlaps another.
struct FixConflict {
  std::string File;
  unsigned Offset = 0;
  std::string CheckId;
  /// The check whose fix was applied there instead.
  std::string OtherCheckId;
  unsigned OtherOffset = 0;
};

/// What would be written: per file (absolute), the edits sorted by offset,
/// none overlapping, each once.
struct FixPlan {
  std::map<std::string, std::vector<model::Replacement>> Edits;
  std::vector<FixConflict> Conflicts;
  /// Findings whose fix is in the plan.
  unsigned Fixes = 0;
  /// For each finding given: its fix is in the plan.
  std::vector<bool> Accepted;
};

/// Whether applying both \p A and \p B is ambiguous: in a file both edit,
/// they replace overlapping text differently or insert different text at
/// one place. The rule planFixes() drops the later of two fixes by.
bool fixesOverlap(llvm::ArrayRef<model::Replacement> A,
                  llvm::ArrayRef<model::Replacement> B);

/// Chooses the fixes of \p Findings and drops those that conflict; pure.
FixPlan planFixes(llvm::ArrayRef<const model::Finding *> Findings,
                  const FixOptions &Options);

/// The fix `--fix` applies for \p F: its own, or with FixNotes the fix of
/// its only note that has one. Null if none.
const std::vector<model::Replacement> *chosenFix(const model::Finding &F,
                                                 bool FixNotes);

/// \p Content with \p Edits (sorted, non-overlapping) applied. Fails when an
/// edit reaches past the end of the content.
llvm::Expected<std::string>
applyReplacements(llvm::StringRef Content,
                  llvm::ArrayRef<model::Replacement> Edits);

/// What `--fix` did.
struct FixOutcome {
  /// For each finding given, each replacement of its chosen fix and whether
  /// it was written (for the text output's "FIX-IT applied" notes).
  std::vector<std::vector<std::pair<model::Replacement, bool>>> PerFinding;
  /// Replacements attempted, and written: clang-tidy's "applied N of M
  /// suggested fixes".
  unsigned Suggested = 0;
  unsigned AppliedReplacements = 0;
  /// Findings whose fix was written.
  unsigned AppliedFixes = 0;
  std::vector<std::string> WrittenFiles;
  /// The content of each file written as it was before the fixes, so that
  /// the text output can still show the code it reports on.
  std::map<std::string, std::string> Originals;
  std::vector<FixConflict> Conflicts;
  /// One line per conflict, `<file>:<line>:<col>: warning: ...`.
  std::vector<std::string> ConflictMessages;
  /// Files that changed since the analysis, cannot be read or cannot be
  /// written: one line each, saying which file and what to do (exit code 2).
  /// A file found stale before anything was written means nothing is.
  std::vector<std::string> Errors;
};

/// The fix step: plans the fixes of \p Findings (found in \p Run, whose
/// ContentDigests say what the analysis read; planFixes()), checks every
/// file to change against its digest before any is written, then writes
/// each (checked again, cleaned up and formatted as clang-tidy does,
/// replaced atomically).
FixOutcome applyFixes(const model::RunResult &Run,
                      llvm::ArrayRef<const model::Finding *> Findings,
                      const FixOptions &Options);

} // namespace libtorch_tidy::fix

#endif // LIBTORCH_TIDY_DRIVER_FIX_FIXAPPLIER_H
