//===--- Baseline.cpp - Report only findings not in a baseline ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "JsonReport.h"
#include "SarifWriter.h"
#include "io/FileIO.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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

namespace {

/// \p Path as a real path where it exists, else with `.` and `..` removed.
std::string canonicalFile(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  llvm::SmallString<256> Lexical(Path);
  llvm::sys::path::remove_dots(Lexical, /*remove_dot_dot=*/true);
  return std::string(Lexical);
}

} // namespace

std::set<std::string> baselineFiles(const json &Document,
                                    llvm::StringRef Root) {
  std::vector<std::string> Named;
  try {
    if (isSarifLog(Document)) {
      for (const json &Run : Document.at("runs"))
        for (const json &Result : Run.value("results", json::array()))
          for (const json &Location : Result.value("locations", json::array()))
            Named.push_back(Location.value("physicalLocation", json::object())
                                .value("artifactLocation", json::object())
                                .value("uri", ""));
    } else {
      for (const json &Unit : Document.at("units"))
        for (const json &Finding : Unit.value("findings", json::array()))
          Named.push_back(Finding.value("location", json::object())
                              .value("absoluteFile", ""));
    }
  } catch (const json::exception &) {
    return {};
  }
  std::set<std::string> Files;
  for (const std::string &Name : Named) {
    if (Name.empty())
      continue;
    llvm::SmallString<256> Path(Name);
    if (llvm::sys::path::is_relative(Path)) {
      Path = Root;
      llvm::sys::path::append(Path, Name);
    }
    Files.insert(canonicalFile(Path));
  }
  return Files;
}

bool namesNoFileOf(const std::set<std::string> &Named,
                   const model::RunResult &Run,
                   llvm::ArrayRef<std::string> DatabaseFiles) {
  if (Named.empty())
    return false;
  std::set<std::string> Spelled(DatabaseFiles.begin(), DatabaseFiles.end());
  for (const model::TranslationUnitResult &Unit : Run.Units) {
    Spelled.insert(Unit.MainFile);
    for (const model::Finding &F : Unit.Findings)
      Spelled.insert(F.Where.AbsoluteFile);
  }
  for (const std::string &File : Spelled)
    if (!File.empty() && Named.count(canonicalFile(File)))
      return false;
  return true;
}

llvm::Expected<json> readBaselineDocument(llvm::StringRef Path) {
  std::string Problem;
  std::optional<std::string> Content =
      io::readRegularFile(Path.str(), io::MaxReportBytes, "baseline", Problem);
  if (!Content)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Problem);
  llvm::StringRef Text = *Content;
  try {
    return json::parse(Text.begin(), Text.end());
  } catch (const json::parse_error &E) {
    return notABaseline(Path, "is not valid JSON (byte " +
                                  std::to_string(E.byte) + ")");
  }
}

llvm::Expected<std::set<std::string>> readBaseline(llvm::StringRef Path) {
  llvm::Expected<json> Document = readBaselineDocument(Path);
  if (!Document)
    return Document.takeError();
  return baselineFingerprints(*Document, Path);
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
