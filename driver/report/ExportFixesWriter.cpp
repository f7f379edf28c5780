//===--- ExportFixesWriter.cpp - clang-tidy's --export-fixes YAML ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/ExportFixesWriter.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/YAMLTraits.h"

using namespace llvm;
namespace tooling = clang::tooling;

namespace libtorch_tidy::report {
namespace {

tooling::DiagnosticMessage
message(const std::string &Text, const model::Location &Where,
        const std::vector<model::Replacement> &Fixes,
        const std::vector<model::ByteRange> &Ranges) {
  tooling::DiagnosticMessage M(Text);
  M.FilePath = Where.File;
  M.FileOffset = Where.Offset;
  for (const model::Replacement &R : Fixes)
    consumeError(M.Fix[R.File].add(
        tooling::Replacement(R.File, R.Offset, R.Length, R.Text)));
  for (const model::ByteRange &R : Ranges) {
    tooling::FileByteRange Range;
    Range.FilePath = R.File;
    Range.FileOffset = R.Offset;
    Range.Length = R.Length;
    M.Ranges.push_back(std::move(Range));
  }
  return M;
}

} // namespace

void writeExportFixes(raw_ostream &OS, StringRef MainSourceFile,
                      ArrayRef<ExportedDiagnostic> Diagnostics) {
  tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainSourceFile.str();
  for (const ExportedDiagnostic &E : Diagnostics) {
    const model::Finding &F = *E.Diagnostic;
    tooling::Diagnostic D;
    D.DiagnosticName = F.CheckId;
    D.Message = message(F.Message, F.Where, F.Fixes, F.Ranges);
    for (const model::Note &N : F.Notes)
      D.Notes.push_back(message(N.Message, N.Where, N.Fixes, N.Ranges));
    D.DiagLevel = F.Severity == "error" ? tooling::Diagnostic::Error
                                        : tooling::Diagnostic::Warning;
    D.BuildDirectory = E.BuildDirectory;
    TUD.Diagnostics.push_back(std::move(D));
  }
  yaml::Output YAML(OS);
  YAML << TUD;
}

} // namespace libtorch_tidy::report
