//===--- TextWriter.h - Findings in clang's text format ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--format=text`: each finding as clang prints a diagnostic (location,
// severity, message, `[check]`, the source line, a caret under the range and
// the fix-it line), rendered by clang's own TextDiagnosticPrinter so it
// looks exactly like clang-tidy's output, then the summary line. TextOrder
// gives the order, in which the output can be printed while later units
// are still being analyzed.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_TEXTWRITER_H
#define LIBTORCH_TIDY_DRIVER_REPORT_TEXTWRITER_H

#include "model/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace libtorch_tidy::report {

/// One diagnostic to print.
struct TextDiagnostic {
  const model::Finding *Diagnostic = nullptr;
  /// The directory relative file names of the unit resolve against.
  std::string BuildDirectory;
  /// With `--fix`: each replacement that was attempted and whether it was
  /// applied, printed as clang-tidy's "FIX-IT applied/failed" notes.
  std::vector<std::pair<model::Replacement, bool>> FixOutcome;
  /// The digests of the bytes the unit parsed (its ContentDigests). A file
  /// whose content no longer has its digest (edited while or after it was
  /// parsed) is not shown: its diagnostics name the line and column the
  /// analysis computed on the parsed bytes, without a source line.
  const std::map<std::string, std::string> *ParsedDigests = nullptr;
};

/// With `--fix`: the FIX-IT notes of each diagnostic (TextDiagnostic's
/// FixOutcome), by its key.
using FixOutcomes = std::map<model::FindingKey,
                             std::vector<std::pair<model::Replacement, bool>>>;

/// The order of the text output, which lets it stream while units are
/// analyzed: unit by unit in the order the units are given, each unit's
/// findings and compiler errors sorted by file, offset, check and message,
/// leaving out those an earlier unit reported (a finding in a header that
/// several units include is printed once, with the first of them).
class TextOrder {
public:
  /// The diagnostics of \p Unit that no unit before it reported, with
  /// compiler errors when \p WithCompilerErrors. The pointers point into
  /// \p Unit.
  std::vector<const model::Finding *>
  next(const model::TranslationUnitResult &Unit,
       bool WithCompilerErrors = true);

private:
  std::set<model::FindingKey> Seen;
};

/// Prints the diagnostics of \p Unit that \p Order has not given before,
/// with their FIX-IT notes from \p Outcomes when given, and source lines as
/// writeText() shows them.
void writeUnitText(
    llvm::raw_ostream &OS, TextOrder &Order,
    const model::TranslationUnitResult &Unit, bool Color,
    const FixOutcomes *Outcomes = nullptr,
    const std::map<std::string, std::string> *Originals = nullptr);

/// Prints \p Diagnostics in order, with ANSI colours when \p Color. The
/// source lines shown come from the files, except those in \p Originals
/// (absolute path to content): files `--fix` has rewritten, shown as they
/// were analyzed. A file that no longer holds the bytes its unit parsed
/// shows no source line (TextDiagnostic::ParsedDigests).
void writeText(llvm::raw_ostream &OS,
               llvm::ArrayRef<TextDiagnostic> Diagnostics, bool Color,
               const std::map<std::string, std::string> *Originals = nullptr);

/// "3 findings in 2 files (1 fixable)".
std::string summaryLine(llvm::ArrayRef<model::Finding> Findings);

/// True when \p F or one of its notes carries a fix-it.
bool isFixable(const model::Finding &F);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_TEXTWRITER_H
