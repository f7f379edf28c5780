//===--- SarifWriter.cpp - The `--format=sarif` log -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SarifWriter.h"
#include "FingerprintLineHash.h"
#include "ProjectRoot.h"
#include "SarifRules.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace libtorch_tidy::report {

using nlohmann::json;

namespace {

class SarifBuilder {
public:
  SarifBuilder(const SarifOptions &Options, SourceFiles &Sources)
      : Options(Options), Sources(Sources) {}

  json artifactLocation(llvm::StringRef AbsoluteFile) const {
    if (std::optional<std::string> Relative =
            relativeToRoot(AbsoluteFile, Options.ProjectRoot))
      return {{"uri", encodeUriPath(*Relative)},
              {"uriBaseId", SarifRootBaseId}};
    return {{"uri", fileUri(canonicalPath(AbsoluteFile))}};
  }

  /// The region a diagnostic points at. A point (no range known) covers the
  /// character under clang's caret.
  static json region(const model::Location &Where) {
    const unsigned StartColumn = column(Where.Begin);
    json Region = {{"startLine", Where.Begin.Line},
                   {"startColumn", StartColumn}};
    const unsigned EndColumn = column(Where.End);
    if (std::tie(Where.End.Line, EndColumn) >
        std::tie(Where.Begin.Line, StartColumn)) {
      Region["endLine"] = Where.End.Line;
      Region["endColumn"] = EndColumn;
    } else {
      Region["endLine"] = Where.Begin.Line;
      Region["endColumn"] = StartColumn + 1;
    }
    return Region;
  }

  json physicalLocation(const model::Location &Where) const {
    json Physical = {
        {"artifactLocation", artifactLocation(Where.AbsoluteFile)}};
    if (Where.Begin.Line > 0)
      Physical["region"] = region(Where);
    return Physical;
  }

  /// A replacement's deleted region in lines and UTF-16 columns and offsets
  /// when the file can be read, in bytes otherwise.
  json deletedRegion(const model::Replacement &R) const {
    const SourceText *Text = Sources.get(R.File);
    if (!Text)
      return {{"byteOffset", R.Offset}, {"byteLength", R.Length}};
    model::Position Begin = Text->positionOf(R.Offset);
    model::Position End = Text->positionOf(R.Offset + R.Length);
    unsigned CharOffset = Text->utf16Offset(R.Offset);
    return {
        {"startLine", Begin.Line},
        {"startColumn", Begin.ColumnUtf16},
        {"endLine", End.Line},
        {"endColumn", End.ColumnUtf16},
        {"charOffset", CharOffset},
        {"charLength", Text->utf16Offset(R.Offset + R.Length) - CharOffset}};
  }

  json fix(const std::string &Description,
           const std::vector<model::Replacement> &Replacements) const {
    std::map<std::string, json> ByFile;
    for (const model::Replacement &R : Replacements) {
      json &Change = ByFile[R.File];
      if (Change.is_null())
        Change = {{"artifactLocation", artifactLocation(R.File)},
                  {"replacements", json::array()}};
      Change["replacements"].push_back(
          {{"deletedRegion", deletedRegion(R)},
           {"insertedContent", {{"text", R.Text}}}});
    }
    json Changes = json::array();
    for (auto &[File, Change] : ByFile)
      Changes.push_back(std::move(Change));
    return {{"description", {{"text", Description}}},
            {"artifactChanges", std::move(Changes)}};
  }

  /// GitHub's line hash of \p Line of \p File; empty when the file cannot
  /// be read or has no such line (GitHub then computes none either).
  std::string githubLineHash(const std::string &File, unsigned Line) {
    auto Found = LineHashes.find(File);
    if (Found == LineHashes.end()) {
      const SourceText *Text = Sources.get(File);
      Found = LineHashes
                  .emplace(File, Text ? githubLineHashes(Text->content())
                                      : std::vector<std::string>())
                  .first;
    }
    if (Line == 0 || Line > Found->second.size())
      return {};
    return Found->second[Line - 1];
  }

  json result(const model::Finding &F) {
    json Result = {{"ruleId", F.CheckId},
                   {"level", F.Severity == "error" ? "error" : "warning"},
                   {"message", {{"text", F.Message}}}};
    if (!F.Where.AbsoluteFile.empty())
      Result["locations"] = {{{"physicalLocation", physicalLocation(F.Where)}}};
    json Fingerprints = json::object();
    if (!F.Fingerprint.empty())
      Fingerprints[SarifFingerprintKey] = F.Fingerprint;
    // GitHub hashes the start line of a result that has a region.
    if (!F.Where.AbsoluteFile.empty() && F.Where.Begin.Line > 0) {
      std::string LineHash =
          githubLineHash(F.Where.AbsoluteFile, F.Where.Begin.Line);
      if (!LineHash.empty())
        Fingerprints["primaryLocationLineHash"] = LineHash;
    }
    if (!Fingerprints.empty())
      Result["partialFingerprints"] = std::move(Fingerprints);
    json Related = json::array();
    json Fixes = json::array();
    if (!F.Fixes.empty())
      Fixes.push_back(fix("Apply the fix-it of " + F.CheckId, F.Fixes));
    for (const model::Note &N : F.Notes) {
      json Location = {{"id", Related.size()},
                       {"message", {{"text", N.Message}}}};
      if (!N.Where.AbsoluteFile.empty())
        Location["physicalLocation"] = physicalLocation(N.Where);
      Related.push_back(std::move(Location));
      // The schema wants distinct fixes: notes repeating one edit give one.
      if (!N.Fixes.empty()) {
        json NoteFix = fix(N.Message, N.Fixes);
        if (std::find(Fixes.begin(), Fixes.end(), NoteFix) == Fixes.end())
          Fixes.push_back(std::move(NoteFix));
      }
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    if (!Fixes.empty())
      Result["fixes"] = std::move(Fixes);
    return Result;
  }

  json notification(const std::string &Level, const std::string &Message,
                    llvm::StringRef File, const model::Location *Where) const {
    json Notification = {{"level", Level}, {"message", {{"text", Message}}}};
    if (Where && !Where->AbsoluteFile.empty())
      Notification["locations"] = {
          {{"physicalLocation", physicalLocation(*Where)}}};
    else if (!File.empty())
      Notification["locations"] = {
          {{"physicalLocation",
            {{"artifactLocation", artifactLocation(File)}}}}};
    return Notification;
  }

  static unsigned column(const model::Position &P) {
    return P.ColumnUtf16 ? P.ColumnUtf16 : P.Column ? P.Column : 1;
  }

private:
  const SarifOptions &Options;
  SourceFiles &Sources;
  std::map<std::string, std::vector<std::string>> LineHashes;
};

std::string locationKey(const json &Result) {
  auto Found = Result.find("locations");
  if (Found == Result.end() || Found->empty())
    return {};
  const json &Physical = (*Found)[0].value("physicalLocation", json::object());
  return Physical.value("artifactLocation", json::object()).value("uri", "");
}

unsigned regionValue(const json &Result, const char *Member) {
  auto Found = Result.find("locations");
  if (Found == Result.end() || Found->empty())
    return 0;
  return (*Found)[0]
      .value("physicalLocation", json::object())
      .value("region", json::object())
      .value(Member, 0u);
}

} // namespace

bool isSarifLog(const json &Document) {
  return Document.is_object() && Document.contains("runs") &&
         Document.contains("version");
}

void canonicalizeSarifRun(json &Run) {
  json &Rules = Run["tool"]["driver"]["rules"];
  std::sort(Rules.begin(), Rules.end(), [](const json &A, const json &B) {
    return A.at("id").get<std::string>() < B.at("id").get<std::string>();
  });
  std::map<std::string, unsigned> IndexOf;
  for (unsigned I = 0; I < Rules.size(); ++I)
    IndexOf[Rules[I].at("id").get<std::string>()] = I;

  json &Results = Run["results"];
  for (json &Result : Results) {
    auto Index = IndexOf.find(Result.value("ruleId", ""));
    if (Index != IndexOf.end())
      Result["ruleIndex"] = Index->second;
    else
      Result.erase("ruleIndex");
  }
  std::stable_sort(
      Results.begin(), Results.end(), [](const json &A, const json &B) {
        auto Key = [](const json &R) {
          return std::make_tuple(
              locationKey(R), regionValue(R, "startLine"),
              regionValue(R, "startColumn"), R.value("ruleId", ""),
              R.value("message", json::object()).value("text", ""), R.dump());
        };
        return Key(A) < Key(B);
      });

  auto SortUnique = [](json &Array, auto Less) {
    std::sort(Array.begin(), Array.end(), Less);
    Array.erase(std::unique(Array.begin(), Array.end()), Array.end());
  };
  for (json &Invocation : Run["invocations"])
    if (Invocation.contains("toolExecutionNotifications"))
      SortUnique(Invocation["toolExecutionNotifications"], [](const json &A,
                                                              const json &B) {
        return std::make_tuple(locationKey(A), regionValue(A, "startLine"),
                               A.dump()) <
               std::make_tuple(locationKey(B), regionValue(B, "startLine"),
                               B.dump());
      });
  if (Run.contains("properties") && Run["properties"].contains("filesAnalyzed"))
    SortUnique(Run["properties"]["filesAnalyzed"], std::less<json>());
}

json sarifLog(const model::RunResult &Run, const SarifOptions &Options,
              SourceFiles &Sources) {
  SarifBuilder Builder(Options, Sources);
  std::vector<model::Finding> Findings = model::uniqueFindings(Run);

  std::set<std::string> RuleIds(Run.EnabledChecks.begin(),
                                Run.EnabledChecks.end());
  for (const model::Finding &F : Findings)
    RuleIds.insert(F.CheckId);
  json Rules = json::array();
  for (const std::string &Id : RuleIds)
    Rules.push_back(sarifRule(Id));

  json Results = json::array();
  for (const model::Finding &F : Findings)
    Results.push_back(Builder.result(F));

  json Notifications = json::array();
  json FilesAnalyzed = json::array();
  bool Successful = true;
  for (const model::TranslationUnitResult &Unit : Run.Units) {
    if (Unit.State != model::TranslationUnitResult::Status::Failed)
      FilesAnalyzed.push_back(projectPath(Unit.MainFile, Options.ProjectRoot));
    if (Unit.State == model::TranslationUnitResult::Status::Analyzed)
      continue;
    Successful = false;
    if (Unit.State == model::TranslationUnitResult::Status::Failed)
      Notifications.push_back(Builder.notification(
          "error",
          "could not analyze '" +
              projectPath(Unit.MainFile, Options.ProjectRoot) +
              "': " + Unit.FailureMessage,
          Unit.MainFile, nullptr));
    for (const model::Finding &Error : Unit.CompilerErrors)
      Notifications.push_back(Builder.notification(
          "error", Error.Message, Unit.MainFile, &Error.Where));
  }

  json Invocation = {{"executionSuccessful", Successful}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);

  json Driver = {{"name", Run.ToolName}, {"rules", std::move(Rules)}};
  // GitHub rejects empty strings where a value is given.
  if (!Run.ToolVersion.empty()) {
    Driver["version"] = Run.ToolVersion;
    Driver["semanticVersion"] = Run.ToolVersion;
  }
  if (!Options.InformationUri.empty())
    Driver["informationUri"] = Options.InformationUri;
  json SarifRun = {{"tool", {{"driver", std::move(Driver)}}},
                   {"originalUriBaseIds",
                    {{SarifRootBaseId,
                      {{"uri", fileUri(canonicalPath(Options.ProjectRoot),
                                       /*Directory=*/true)}}}}},
                   {"columnKind", "utf16CodeUnits"},
                   {"invocations", {std::move(Invocation)}},
                   {"results", std::move(Results)},
                   {"properties",
                    {{"libtorchVersion", Run.LibTorchVersion},
                     {"filesAnalyzed", std::move(FilesAnalyzed)}}}};
  canonicalizeSarifRun(SarifRun);
  return {{"$schema", SarifSchemaUri},
          {"version", "2.1.0"},
          {"runs", {std::move(SarifRun)}}};
}

std::string renderSarif(const model::RunResult &Run,
                        const SarifOptions &Options, SourceFiles &Sources) {
  // Paths are bytes; a message naming one that is not UTF-8 shows U+FFFD
  // for each stray byte (URIs keep every byte, percent-encoded).
  return sarifLog(Run, Options, Sources)
             .dump(2, ' ', false, json::error_handler_t::replace) +
         "\n";
}

} // namespace libtorch_tidy::report
