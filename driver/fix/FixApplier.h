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

#include "report/Findings.h"
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
  std::map<std::string, std::vector<report::Replacement>> Edits;
  std::vector<FixConflict> Conflicts;
  /// Findings whose fix is in the plan.
  unsigned Fixes = 0;
  /// For each finding given: its fix is in the plan.
  std::vector<bool> Accepted;

  // Filled by prepareFixes():
  /// For each finding given, each replacement of its chosen fix and whether
  /// it will be written (the text output's "FIX-IT applied" notes).
  std::vector<std::vector<std::pair<report::Replacement, bool>>> PerFinding;
  /// Replacements attempted and to be applied (clang-tidy's "applied N of M
  /// suggested fixes").
  unsigned Total = 0;
  unsigned Applied = 0;
  /// One line per conflict, `<file>:<line>:<col>: warning: ...`.
  std::vector<std::string> ConflictMessages;
  /// Files that changed since the analysis, or cannot be read: one line
  /// each, naming the file and what to do. When there are any, nothing is
  /// written (exit code 2).
  std::vector<std::string> Errors;
};

/// Chooses the fixes of \p Findings and drops those that conflict; pure.
FixPlan planFixes(llvm::ArrayRef<const report::Finding *> Findings,
                  const FixOptions &Options);

/// planFixes(), then checks every file to change against the digests of
/// \p Run, and says per finding what will be written. Writes nothing.
FixPlan prepareFixes(const report::RunResult &Run,
                     llvm::ArrayRef<const report::Finding *> Findings,
                     const FixOptions &Options);

/// Writes a prepared plan without Errors: each file checked again against
/// its digest, cleaned up and formatted as clang-tidy does, and replaced
/// atomically. Returns one line per file that could not be written; adds
/// the files written to \p Written, with their content before the fixes to
/// \p Originals (so the text output can still show the code it reports on).
std::vector<std::string>
writeFixes(const report::RunResult &Run, const FixPlan &Plan,
           const FixOptions &Options,
           std::vector<std::string> *Written = nullptr,
           std::map<std::string, std::string> *Originals = nullptr);

/// For each finding of \p Plan, each replacement of its fix and whether it
/// was written: planned, and every file it edits in \p Written.
std::vector<std::vector<std::pair<report::Replacement, bool>>>
writtenOutcome(const FixPlan &Plan, llvm::ArrayRef<std::string> Written);

/// The fix `--fix` applies for \p F: its own, or with FixNotes the fix of
/// its only note that has one. Null if none.
const std::vector<report::Replacement> *chosenFix(const report::Finding &F,
                                                  bool FixNotes);

/// \p Content with \p Edits (sorted, non-overlapping) applied. Fails when an
/// edit reaches past the end of the content.
llvm::Expected<std::string>
applyReplacements(llvm::StringRef Content,
                  llvm::ArrayRef<report::Replacement> Edits);

/// Lowercase hex SHA-256 of \p Content, as ContentDigests holds it.
std::string contentDigest(llvm::StringRef Content);

struct FixOutcome {
  /// For each finding given, each replacement of its chosen fix and whether
  /// it was written (for the text output's "FIX-IT applied" notes).
  std::vector<std::vector<std::pair<report::Replacement, bool>>> PerFinding;
  /// Findings whose fix was written.
  unsigned AppliedFixes = 0;
  std::vector<std::string> WrittenFiles;
  std::vector<FixConflict> Conflicts;
  /// One line per conflict, `<file>:<line>:<col>: warning: ...`.
  std::vector<std::string> ConflictMessages;
  /// One line each, saying which file and what to do (exit code 2).
  std::vector<std::string> Errors;
};

/// prepareFixes() and writeFixes() in one: plans the fixes of \p Findings
/// (found in \p Run, whose ContentDigests say what the analysis read) and
/// writes them.
FixOutcome applyFixes(const report::RunResult &Run,
                      llvm::ArrayRef<const report::Finding *> Findings,
                      const FixOptions &Options);

/// The same for every finding of \p Run, once (uniqueFindings()).
FixOutcome applyFixes(const report::RunResult &Run, const FixOptions &Options);

} // namespace libtorch_tidy::fix

#endif // LIBTORCH_TIDY_DRIVER_FIX_FIXAPPLIER_H
