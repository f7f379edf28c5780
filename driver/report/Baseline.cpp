//===--- Baseline.cpp - Report only findings not in a baseline ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "JsonReport.h"
#include "SarifWriter.h"
#include "io/FileIO.h"

#include <algorithm>

namespace libtorch_tidy::report {

using nlohmann::json;

namespace {

llvm::Error notABaseline(llvm::StringRef FileName, llvm::StringRef Why) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "baseline '%s' %s; write it with 'libtorch-tidy --format=json' or "
      "'--format=sarif'",
      FileName.str().c_str(), Why.str().c_str());
}

llvm::Expected<std::set<std::string>> sarifFingerprints(const json &Log,
                                                        llvm::StringRef Name) {
  std::set<std::string> Known;
  const json &Runs = Log.at("runs");
  if (!Runs.is_array())
    return notABaseline(Name, "has no 'runs' array");
  for (const json &Run : Runs) {
    if (!Run.is_object())
      return notABaseline(Name, "has a run that is not an object");
    auto Results = Run.find("results");
    if (Results == Run.end() || Results->is_null())
      continue;
    if (!Results->is_array())
      return notABaseline(Name, "has 'results' that are not an array");
    for (const json &Result : *Results) {
      if (!Result.is_object())
        return notABaseline(Name, "has a result that is not an object");
      auto Partial = Result.find("partialFingerprints");
      if (Partial == Result.end() || !Partial->is_object())
        continue;
      // Logs of libtorch-tidy 0.1.0 before GitHub's line hash was computed
      // held our fingerprint as `primaryLocationLineHash`.
      auto Hash = Partial->find(SarifFingerprintKey);
      if (Hash == Partial->end())
        Hash = Partial->find("primaryLocationLineHash");
      if (Hash != Partial->end() && Hash->is_string())
        Known.insert(Hash->get<std::string>());
    }
  }
  return Known;
}

} // namespace

llvm::Expected<std::set<std::string>>
baselineFingerprints(const json &Document, llvm::StringRef FileName) {
  if (isSarifLog(Document))
    return sarifFingerprints(Document, FileName);
  if (!isJsonReport(Document))
    return notABaseline(
        FileName, "is neither a libtorch-tidy JSON report nor a SARIF log");
  llvm::Expected<model::RunResult> Run = readJsonReport(Document, FileName);
  if (!Run)
    return notABaseline(FileName, "is not a complete libtorch-tidy JSON "
                                  "report (" +
                                      llvm::toString(Run.takeError()) + ")");
  std::set<std::string> Known;
  for (const model::TranslationUnitResult &Unit : Run->Units)
    for (const model::Finding &F : Unit.Findings)
      if (!F.Fingerprint.empty())
        Known.insert(F.Fingerprint);
  return Known;
}

llvm::Expected<std::set<std::string>> readBaseline(llvm::StringRef Path) {
  std::string Problem;
  std::optional<std::string> Content =
      io::readRegularFile(Path.str(), io::MaxReportBytes, "baseline", Problem);
  if (!Content)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Problem);
  llvm::StringRef Text = *Content;
  json Document;
  try {
    Document = json::parse(Text.begin(), Text.end());
  } catch (const json::parse_error &E) {
    return notABaseline(Path, "is not valid JSON (byte " +
                                  std::to_string(E.byte) + ")");
  }
  return baselineFingerprints(Document, Path);
}

unsigned applyBaseline(model::RunResult &Run,
                       const std::set<std::string> &Known) {
  std::set<std::string> Removed;
  for (model::TranslationUnitResult &Unit : Run.Units)
    Unit.Findings.erase(std::remove_if(Unit.Findings.begin(),
                                       Unit.Findings.end(),
                                       [&](const model::Finding &F) {
                                         if (!Known.count(F.Fingerprint))
                                           return false;
                                         Removed.insert(F.Fingerprint);
                                         return true;
                                       }),
                        Unit.Findings.end());
  return Removed.size();
}

} // namespace libtorch_tidy::report
