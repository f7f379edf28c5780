//===--- ExportFixesWriter.h - clang-tidy's --export-fixes YAML -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--export-fixes=<file>`: the YAML clang-tidy writes (clang::tooling's
// TranslationUnitDiagnostics), produced from the findings by clang's own
// YAML traits, so clang-apply-replacements reads it unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_EXPORTFIXESWRITER_H
#define LIBTORCH_TIDY_DRIVER_REPORT_EXPORTFIXESWRITER_H

#include "model/Findings.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace libtorch_tidy::report {

/// One diagnostic to export, with the build directory of its unit.
struct ExportedDiagnostic {
  const model::Finding *Diagnostic = nullptr;
  std::string BuildDirectory;
};

/// Writes \p Diagnostics (findings and compiler errors, in order) as
/// clang-tidy's export-fixes YAML with \p MainSourceFile.
void writeExportFixes(llvm::raw_ostream &OS, llvm::StringRef MainSourceFile,
                      llvm::ArrayRef<ExportedDiagnostic> Diagnostics);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_EXPORTFIXESWRITER_H
