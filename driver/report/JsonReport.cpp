//===--- JsonReport.cpp - The `--format=json` document --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "JsonReport.h"
#include "model/FindingsJson.h"

#include <algorithm>
#include <set>

namespace libtorch_tidy::report {

using nlohmann::json;

namespace {

bool isFixable(const model::Finding &F) {
  if (!F.Fixes.empty())
    return true;
  return std::any_of(F.Notes.begin(), F.Notes.end(),
                     [](const model::Note &N) { return !N.Fixes.empty(); });
}

} // namespace

json jsonReport(const model::RunResult &Run) {
  model::RunResult Sorted = Run;
  std::stable_sort(Sorted.Units.begin(), Sorted.Units.end(),
                   [](const model::TranslationUnitResult &A,
                      const model::TranslationUnitResult &B) {
                     return A.MainFile < B.MainFile;
                   });
  json Document = Sorted;
  // A report describes the code, not how this run obtained each result: a
  // unit replayed from the cache reads the same as one analyzed now, so a
  // report (and a merge of shards) does not depend on the cache's state.
  for (json &Unit : Document["units"]) {
    Unit.erase("fromCache");
    Unit.erase("preamble");
    Unit.erase("functionSummaries");
    Unit.erase("calledElsewhere");
    Unit.erase("summaryAnswers");
  }

  std::vector<model::Finding> Unique = model::uniqueFindings(Sorted);
  std::set<std::string> FilesWithFindings;
  unsigned Fixable = 0;
  for (const model::Finding &F : Unique) {
    FilesWithFindings.insert(F.Where.AbsoluteFile);
    Fixable += isFixable(F);
  }
  json Analyzed = json::array();
  json Failed = json::array();
  for (const model::TranslationUnitResult &Unit : Sorted.Units) {
    if (Unit.State != model::TranslationUnitResult::Status::Failed)
      Analyzed.push_back(Unit.MainFile);
    if (Unit.State != model::TranslationUnitResult::Status::Analyzed)
      Failed.push_back({{"file", Unit.MainFile},
                        {"status", json(Unit)["status"]},
                        {"reason", Unit.FailureMessage}});
  }
  Document["findings"] = Unique;
  Document["filesAnalyzed"] = std::move(Analyzed);
  Document["filesFailed"] = std::move(Failed);
  Document["summary"] = {{"findings", Unique.size()},
                         {"filesWithFindings", FilesWithFindings.size()},
                         {"fixable", Fixable}};
  return Document;
}

std::string renderJsonReport(const model::RunResult &Run) {
  // Paths are bytes; one that is not UTF-8 is written with U+FFFD for each
  // stray byte (docs/output-formats.md).
  return jsonReport(Run).dump(2, ' ', false, json::error_handler_t::replace) +
         "\n";
}

bool isJsonReport(const json &Document) {
  return Document.is_object() && Document.contains("units") &&
         !Document.contains("runs");
}

llvm::Expected<model::RunResult> readJsonReport(const json &Document,
                                                llvm::StringRef FileName) {
  try {
    return Document.get<model::RunResult>();
  } catch (const json::exception &E) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'%s' is not a libtorch-tidy JSON report (%s); write it with "
        "--format=json",
        FileName.str().c_str(), E.what());
  }
}

llvm::Expected<json> parseJsonFile(llvm::StringRef Text,
                                   llvm::StringRef FileName) {
  try {
    return json::parse(Text.begin(), Text.end());
  } catch (const json::parse_error &E) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s' is not valid JSON (byte %zu)",
                                   FileName.str().c_str(), E.byte);
  }
}

} // namespace libtorch_tidy::report
