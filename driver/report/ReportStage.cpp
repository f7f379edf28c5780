//===--- ReportStage.cpp - From analyzed units to written reports ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ReportStage.h"
#include "Baseline.h"
#include "Fingerprint.h"
#include "JsonReport.h"
#include "ProjectRoot.h"
#include "SarifWriter.h"
#include "io/FileIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#ifndef LIBTORCH_TIDY_INFORMATION_URI
#define LIBTORCH_TIDY_INFORMATION_URI ""
#endif

namespace libtorch_tidy::report {

llvm::Expected<OutputFormat> parseOutputFormat(llvm::StringRef Name) {
  if (Name == "text")
    return OutputFormat::Text;
  if (Name == "json")
    return OutputFormat::Json;
  if (Name == "sarif")
    return OutputFormat::Sarif;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown --format '%s'; use text, json or "
                                 "sarif",
                                 Name.str().c_str());
}

llvm::Expected<std::string> resolveProjectRoot(llvm::StringRef SarifRoot) {
  if (!SarifRoot.empty()) {
    if (!llvm::sys::fs::is_directory(SarifRoot))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--sarif-root '%s' is not a directory; name the repository's top "
          "directory",
          SarifRoot.str().c_str());
    return canonicalPath(SarifRoot);
  }
  llvm::SmallString<256> Current;
  if (std::error_code EC = llvm::sys::fs::current_path(Current))
    return llvm::createStringError(EC,
                                   "cannot read the current directory: %s; "
                                   "pass --sarif-root",
                                   EC.message().c_str());
  return findProjectRoot(Current);
}

unsigned fingerprintAndFilter(model::RunResult &Run,
                              llvm::StringRef ProjectRoot,
                              const std::set<std::string> *Baseline,
                              SourceFiles &Sources) {
  // Fingerprints are assigned over every finding first, so that occurrence
  // numbers are those of the run the baseline was written from.
  assignFingerprints(Run, ProjectRoot, Sources);
  // Read every file a fix-it edits now, as the analysis saw it: `--fix` may
  // rewrite it before the SARIF writer turns edits into lines and columns.
  for (const model::TranslationUnitResult &Unit : Run.Units)
    for (const model::Finding &F : Unit.Findings) {
      for (const model::Replacement &R : F.Fixes)
        Sources.get(R.File);
      for (const model::Note &N : F.Notes)
        for (const model::Replacement &R : N.Fixes)
          Sources.get(R.File);
    }
  return Baseline ? applyBaseline(Run, *Baseline) : 0;
}

std::string renderReport(const model::RunResult &Run, OutputFormat Format,
                         llvm::StringRef ProjectRoot, SourceFiles &Sources,
                         const TextRendering &Text) {
  switch (Format) {
  case OutputFormat::Sarif:
    return renderSarif(Run, {ProjectRoot.str(), LIBTORCH_TIDY_INFORMATION_URI},
                       Sources);
  case OutputFormat::Json:
    return renderJsonReport(Run);
  case OutputFormat::Text:
    break;
  }
  std::string Rendered;
  llvm::raw_string_ostream OS(Rendered);
  OS.enable_colors(Text.Color);
  TextOrder Order;
  for (const model::TranslationUnitResult &Unit : Run.Units)
    writeUnitText(OS, Order, Unit, Text.Color, Text.Outcomes, Text.Originals);
  OS.flush();
  return Rendered;
}

llvm::Error checkOutputPath(llvm::StringRef Output) {
  if (std::optional<std::string> Problem = io::checkWritable(Output.str()))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), *Problem);
  return llvm::Error::success();
}

llvm::Error emitReport(llvm::StringRef Content, llvm::StringRef Output,
                       llvm::raw_ostream &Stdout) {
  // Standard output is written directly, so that a failed write (a closed
  // pipe, a full disk) is an error here rather than a fatal one when the
  // stream is destroyed.
  Stdout.flush();
  const std::string Path = Output.empty() ? "-" : Output.str();
  if (std::optional<std::string> Problem =
          io::writeFile(Path, Content, io::FileMode::Fresh))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), *Problem);
  return llvm::Error::success();
}

} // namespace libtorch_tidy::report
