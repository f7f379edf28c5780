//===--- TextWriter.h - Findings in clang's text format ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--format=text`: each finding as clang prints a diagnostic (location,
// severity, message, `[check]`, the source line, a caret under the range and
// the fix-it line), rendered by clang's own TextDiagnosticPrinter so it
// looks exactly like clang-tidy's output, then the summary line.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_TEXTWRITER_H
#define LIBTORCH_TIDY_DRIVER_REPORT_TEXTWRITER_H

#include "report/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace libtorch_tidy::report {

/// One diagnostic to print.
struct TextDiagnostic {
  const Finding *Diagnostic = nullptr;
  /// The directory relative file names of the unit resolve against.
  std::string BuildDirectory;
  /// With `--fix`: each replacement that was attempted and whether it was
  /// applied, printed as clang-tidy's "FIX-IT applied/failed" notes.
  std::vector<std::pair<Replacement, bool>> FixOutcome;
};

/// Prints \p Diagnostics in order, with ANSI colours when \p Color. The
/// source lines shown come from the files, except those in \p Originals
/// (absolute path to content): files `--fix` has rewritten, shown as they
/// were analyzed.
void writeText(llvm::raw_ostream &OS,
               llvm::ArrayRef<TextDiagnostic> Diagnostics, bool Color,
               const std::map<std::string, std::string> *Originals = nullptr);

/// "3 findings in 2 files (1 fixable)".
std::string summaryLine(llvm::ArrayRef<Finding> Findings);

/// True when \p F or one of its notes carries a fix-it.
bool isFixable(const Finding &F);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_TEXTWRITER_H
