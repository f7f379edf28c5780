//===--- ReportStage.h - From analyzed units to written reports -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The steps of the CLI's pipeline between the analysis and the exit code
// that concern the report: resolve the project root (`--sarif-root`), load
// `--baseline` (before analyzing, so a bad baseline fails fast), fingerprint
// every finding and drop the baseline's, render `--format=text|json|sarif`,
// and write it to `--output` atomically.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_REPORTSTAGE_H
#define LIBTORCH_TIDY_DRIVER_REPORT_REPORTSTAGE_H

#include "SourceText.h"
#include "TextWriter.h"
#include "model/Findings.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <set>
#include <string>

namespace libtorch_tidy::report {

enum class OutputFormat { Text, Json, Sarif };

/// `text`, `json` or `sarif`; otherwise an error saying which are allowed.
llvm::Expected<OutputFormat> parseOutputFormat(llvm::StringRef Name);

/// The project root: \p SarifRoot when given (it must be a directory), else
/// the git top-level of the current directory, else the current directory.
/// Always absolute and canonical.
llvm::Expected<std::string> resolveProjectRoot(llvm::StringRef SarifRoot);

/// Assigns every finding's fingerprint against \p ProjectRoot and, when
/// \p Baseline is given, removes the findings it already holds. Returns how
/// many distinct findings the baseline removed. Call it before fixes are
/// applied: it also reads into \p Sources every file that fix-its edit.
unsigned fingerprintAndFilter(model::RunResult &Run,
                              llvm::StringRef ProjectRoot,
                              const std::set<std::string> *Baseline,
                              SourceFiles &Sources);

/// What the text format shows beyond \p Run.
struct TextRendering {
  /// ANSI colours.
  bool Color = false;
  /// With `--fix`: the FIX-IT notes of each diagnostic.
  const FixOutcomes *Outcomes = nullptr;
  /// With `--fix`: the files it rewrote (absolute path to content), shown as
  /// they were analyzed.
  const std::map<std::string, std::string> *Originals = nullptr;
};

/// The report of \p Run in \p Format: the whole `--format=json` or
/// `--format=sarif` document, or every unit's text (TextWriter.h) as it is
/// printed when it does not stream.
std::string renderReport(const model::RunResult &Run, OutputFormat Format,
                         llvm::StringRef ProjectRoot, SourceFiles &Sources,
                         const TextRendering &Text = {});

/// Checks, before any work, that \p Output can be written (io::checkWritable):
/// not a directory, in an existing, writable directory. Empty and `-`
/// (standard output) pass, and so do devices and FIFOs, written through.
llvm::Error checkOutputPath(llvm::StringRef Output);

/// Writes \p Content to \p Output as io::writeFile does (a regular file
/// replaced atomically, a device or FIFO written through), or to standard
/// output when \p Output is empty or `-`, after flushing \p Stdout.
llvm::Error emitReport(llvm::StringRef Content, llvm::StringRef Output,
                       llvm::raw_ostream &Stdout);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_REPORTSTAGE_H
