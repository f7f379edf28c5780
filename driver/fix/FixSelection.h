//===--- FixSelection.h - Which findings' fixes --fix may apply -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Fix-its are applied per unit. clang-tidy applies none when the compiler
// reported errors, because a fix computed from a broken AST is unsafe; that
// reasoning is about the unit with the errors, so here a unit with compiler
// errors contributes no fixes (unless `--fix-errors`) and every clean unit's
// fixes are applied. A finding in a header that several units report is
// fixed only when all of them are clean and suggest the same edits. Two
// findings whose fixes overlap and that no one unit reports together (the
// units see a shared header differently: two configurations) are both left
// unfixed: which one --fix applied would depend on the order of the units,
// and a second run would not apply the other.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_FIX_FIXSELECTION_H
#define LIBTORCH_TIDY_DRIVER_FIX_FIXSELECTION_H

#include "model/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace libtorch_tidy::fix {

struct FixSelection {
  /// For each diagnostic given: its fix may be applied.
  std::vector<bool> Eligible;
  /// Findings with a fix that was withheld.
  unsigned Withheld = 0;
  /// One line per unit whose fixes were withheld, per finding whose units
  /// disagree and per pair of overlapping fixes from units that see a file
  /// differently, saying why and what to do.
  std::vector<std::string> Reasons;
};

/// Chooses which of \p Diagnostics (uniqueDiagnostics() of \p Run) `--fix`
/// may apply, as the file comment says. \p FixNotes is `--fix-notes`.
FixSelection selectFixes(const model::RunResult &Run,
                         llvm::ArrayRef<model::ReportedDiagnostic> Diagnostics,
                         bool FixErrors, bool FixNotes);

} // namespace libtorch_tidy::fix

#endif // LIBTORCH_TIDY_DRIVER_FIX_FIXSELECTION_H
