//===--- FindingsJson.cpp - The JSON form of findings ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "model/FindingsJson.h"

#include <cstdint>
#include <limits>
#include <string>

namespace libtorch_tidy::model {

using nlohmann::json;

namespace {

/// A position, offset, length or count: a non-negative integer that fits in
/// \p T. Reports given to `merge` and `--baseline` and cache entries are
/// input from elsewhere: -5 must be refused, not read as 4294967291.
template <typename T> void getCount(const json &J, const char *Key, T &Out) {
  const json &Value = J.at(Key);
  if (!Value.is_number_unsigned() ||
      Value.get<std::uint64_t>() > std::numeric_limits<T>::max())
    throw json::out_of_range::create(
        406,
        std::string("'") + Key + "' must be an integer from 0 to " +
            std::to_string(std::numeric_limits<T>::max()) + ", not " +
            Value.dump(),
        &J);
  Out = Value.get<T>();
}

} // namespace

void to_json(json &J, const Position &P) {
  J = json{
      {"line", P.Line}, {"column", P.Column}, {"columnUtf16", P.ColumnUtf16}};
}
void from_json(const json &J, Position &P) {
  getCount(J, "line", P.Line);
  getCount(J, "column", P.Column);
  getCount(J, "columnUtf16", P.ColumnUtf16);
}

void to_json(json &J, const Location &L) {
  J = json{{"file", L.File},
           {"absoluteFile", L.AbsoluteFile},
           {"offset", L.Offset},
           {"begin", L.Begin},
           {"end", L.End}};
}
void from_json(const json &J, Location &L) {
  J.at("file").get_to(L.File);
  J.at("absoluteFile").get_to(L.AbsoluteFile);
  getCount(J, "offset", L.Offset);
  J.at("begin").get_to(L.Begin);
  J.at("end").get_to(L.End);
}

void to_json(json &J, const Replacement &R) {
  J = json{{"file", R.File},
           {"offset", R.Offset},
           {"length", R.Length},
           {"replacementText", R.Text}};
}
void from_json(const json &J, Replacement &R) {
  J.at("file").get_to(R.File);
  getCount(J, "offset", R.Offset);
  getCount(J, "length", R.Length);
  J.at("replacementText").get_to(R.Text);
}

void to_json(json &J, const ByteRange &R) {
  J = json{{"file", R.File}, {"offset", R.Offset}, {"length", R.Length}};
}
void from_json(const json &J, ByteRange &R) {
  J.at("file").get_to(R.File);
  getCount(J, "offset", R.Offset);
  getCount(J, "length", R.Length);
}

void to_json(json &J, const Note &N) {
  J = json{{"message", N.Message},
           {"location", N.Where},
           {"fixes", N.Fixes},
           {"ranges", N.Ranges}};
}
void from_json(const json &J, Note &N) {
  J.at("message").get_to(N.Message);
  J.at("location").get_to(N.Where);
  J.at("fixes").get_to(N.Fixes);
  J.at("ranges").get_to(N.Ranges);
}

void to_json(json &J, const Finding &F) {
  J = json{{"checkId", F.CheckId},
           {"tier", F.Tier},
           {"severity", F.Severity},
           {"message", F.Message},
           {"location", F.Where},
           {"notes", F.Notes},
           {"fixes", F.Fixes},
           {"ranges", F.Ranges},
           {"fingerprint", F.Fingerprint}};
}
void from_json(const json &J, Finding &F) {
  J.at("checkId").get_to(F.CheckId);
  J.at("tier").get_to(F.Tier);
  J.at("severity").get_to(F.Severity);
  J.at("message").get_to(F.Message);
  J.at("location").get_to(F.Where);
  J.at("notes").get_to(F.Notes);
  J.at("fixes").get_to(F.Fixes);
  J.at("ranges").get_to(F.Ranges);
  J.at("fingerprint").get_to(F.Fingerprint);
}

void to_json(json &J, const SuppressedCounts &S) {
  J = json{{"nolint", S.NoLint},
           {"nonUserCode", S.NonUserCode},
           {"lineFilter", S.LineFilter},
           {"checkFilter", S.CheckFilter},
           {"unparsedCode", S.UnparsedCode}};
}
void from_json(const json &J, SuppressedCounts &S) {
  getCount(J, "nolint", S.NoLint);
  getCount(J, "nonUserCode", S.NonUserCode);
  getCount(J, "lineFilter", S.LineFilter);
  getCount(J, "checkFilter", S.CheckFilter);
  // Absent from the reports of versions before it.
  if (J.contains("unparsedCode"))
    getCount(J, "unparsedCode", S.UnparsedCode);
}

namespace {
const char *statusName(TranslationUnitResult::Status S) {
  switch (S) {
  case TranslationUnitResult::Status::Analyzed:
    return "analyzed";
  case TranslationUnitResult::Status::CompileErrors:
    return "compile-errors";
  case TranslationUnitResult::Status::Failed:
    return "failed";
  }
  return "failed";
}

TranslationUnitResult::Status statusFromName(const std::string &Name) {
  if (Name == "analyzed")
    return TranslationUnitResult::Status::Analyzed;
  if (Name == "compile-errors")
    return TranslationUnitResult::Status::CompileErrors;
  if (Name == "failed")
    return TranslationUnitResult::Status::Failed;
  throw json::other_error::create(501, "unknown unit status '" + Name + "'",
                                  nullptr);
}
} // namespace

void to_json(json &J, const TranslationUnitResult &U) {
  J = json{{"mainFile", U.MainFile},
           {"status", statusName(U.State)},
           {"failureMessage", U.FailureMessage},
           {"findings", U.Findings},
           {"compilerErrors", U.CompilerErrors},
           {"missingHeaders", U.MissingHeaders},
           {"libtorchVersion", U.LibTorchVersion},
           {"contentDigests", U.ContentDigests},
           {"fromCache", U.FromCache},
           {"preamble", U.Preamble},
           {"buildDirectory", U.BuildDirectory},
           {"suppressed", U.Suppressed},
           {"checkProfile", U.CheckProfile}};
  if (!U.FunctionSummaries.empty())
    J["functionSummaries"] = json::parse(U.FunctionSummaries);
  if (!U.CalledElsewhere.empty())
    J["calledElsewhere"] = U.CalledElsewhere;
  if (!U.SummaryAnswers.empty())
    J["summaryAnswers"] = U.SummaryAnswers;
}
void from_json(const json &J, TranslationUnitResult &U) {
  J.at("mainFile").get_to(U.MainFile);
  U.State = statusFromName(J.at("status").get<std::string>());
  J.at("failureMessage").get_to(U.FailureMessage);
  J.at("findings").get_to(U.Findings);
  J.at("compilerErrors").get_to(U.CompilerErrors);
  // Absent from the reports of versions before it.
  U.MissingHeaders = J.value("missingHeaders", std::vector<std::string>());
  J.at("libtorchVersion").get_to(U.LibTorchVersion);
  J.at("contentDigests").get_to(U.ContentDigests);
  // Reports leave it out (JsonReport.cpp); the cache and workers keep it.
  U.FromCache = J.value("fromCache", false);
  U.Preamble = J.value("preamble", "");
  J.at("buildDirectory").get_to(U.BuildDirectory);
  J.at("suppressed").get_to(U.Suppressed);
  J.at("checkProfile").get_to(U.CheckProfile);
  // The cache and workers keep it; reports and older entries have none.
  if (auto It = J.find("functionSummaries"); It != J.end())
    U.FunctionSummaries = It->dump();
  U.CalledElsewhere = J.value("calledElsewhere", std::vector<std::string>());
  U.SummaryAnswers = J.value("summaryAnswers", "");
}

void to_json(json &J, const RunResult &R) {
  J = json{{"version", FindingsJsonVersion},
           {"tool", {{"name", R.ToolName}, {"version", R.ToolVersion}}},
           {"libtorchVersion", R.LibTorchVersion},
           {"checksEnabled", R.EnabledChecks},
           {"units", R.Units}};
}
void from_json(const json &J, RunResult &R) {
  if (J.at("version").get<int>() != FindingsJsonVersion)
    throw json::other_error::create(
        501, "unsupported findings JSON version " + J.at("version").dump(),
        nullptr);
  J.at("tool").at("name").get_to(R.ToolName);
  J.at("tool").at("version").get_to(R.ToolVersion);
  J.at("libtorchVersion").get_to(R.LibTorchVersion);
  J.at("checksEnabled").get_to(R.EnabledChecks);
  J.at("units").get_to(R.Units);
}

} // namespace libtorch_tidy::model
