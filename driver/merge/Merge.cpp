//===--- Merge.cpp - `libtorch-tidy merge`: join shards' reports ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "merge/Merge.h"
#include "io/FileIO.h"
#include "model/ExitCodes.h"
#include "report/Fingerprint.h"
#include "report/JsonReport.h"
#include "report/ReportStage.h"
#include "report/SarifWriter.h"

#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace libtorch_tidy::merge {

using namespace report;

using nlohmann::json;

namespace {

llvm::Error mergeError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Message.str().c_str());
}

/// The advice of every error about shards that do not belong together.
constexpr const char *OneConfiguration =
    "; merge the reports of one configuration (one tool version, the same "
    "checks)";

llvm::Expected<std::string> mergeJsonReports(llvm::ArrayRef<ReportFile> Names,
                                             llvm::ArrayRef<json> Documents) {
  model::RunResult Merged;
  std::map<std::string, std::string> UnitFrom;
  std::string ChecksFrom;
  std::vector<std::string> FirstChecks;
  for (size_t I = 0; I < Documents.size(); ++I) {
    llvm::Expected<model::RunResult> Part =
        readJsonReport(Documents[I], Names[I].Name);
    if (!Part)
      return Part.takeError();
    if (I == 0) {
      Merged.ToolName = Part->ToolName;
      Merged.ToolVersion = Part->ToolVersion;
    } else if (Part->ToolName != Merged.ToolName ||
               Part->ToolVersion != Merged.ToolVersion) {
      return mergeError("'" + Names[I].Name + "' was written by " +
                        Part->ToolName + " " + Part->ToolVersion + " and '" +
                        Names[0].Name + "' by " + Merged.ToolName + " " +
                        Merged.ToolVersion +
                        "; merge reports of one version of the tool");
    }
    // Shards of one database may have units of several LibTorch versions
    // (a target per version): the merged report names them all.
    Merged.LibTorchVersion = model::libTorchVersions(
        {Merged.LibTorchVersion, Part->LibTorchVersion});
    // Shards of one run enable the same checks; a report with others would
    // make the merged one claim checks it never ran on some units.
    if (!Part->EnabledChecks.empty()) {
      std::vector<std::string> Checks = Part->EnabledChecks;
      std::sort(Checks.begin(), Checks.end());
      if (ChecksFrom.empty()) {
        FirstChecks = Checks;
        ChecksFrom = Names[I].Name;
      } else if (Checks != FirstChecks) {
        return mergeError("'" + Names[I].Name + "' ran other checks than '" +
                          ChecksFrom + "'" + OneConfiguration);
      }
    }
    for (const std::string &Check : Part->EnabledChecks)
      if (std::find(Merged.EnabledChecks.begin(), Merged.EnabledChecks.end(),
                    Check) == Merged.EnabledChecks.end())
        Merged.EnabledChecks.push_back(Check);
    for (model::TranslationUnitResult &Unit : Part->Units) {
      auto [Where, New] = UnitFrom.emplace(Unit.MainFile, Names[I].Name);
      if (!New)
        return mergeError("'" + Names[I].Name + "' and '" + Where->second +
                          "' both hold the results of '" + Unit.MainFile +
                          "'; merge each shard's report once");
      Merged.Units.push_back(std::move(Unit));
    }
  }
  renumberFingerprints(Merged);
  return renderJsonReport(Merged);
}

/// What makes two shards' copies of a result the same result: everything but
/// the rule index (re-derived) and our fingerprint's occurrence number (each
/// shard counted only what it saw). GitHub's line hash counts the lines of
/// the whole file, so every shard computes the same one.
json resultIdentity(json Result) {
  Result.erase("ruleIndex");
  if (Result.contains("partialFingerprints") &&
      Result["partialFingerprints"].contains(SarifFingerprintKey)) {
    json &Hash = Result["partialFingerprints"][SarifFingerprintKey];
    if (Hash.is_string())
      Hash = fingerprintHashPart(Hash.get<std::string>()).str();
  }
  return Result;
}

/// Why a number in a result's regions is not one SARIF allows (lines and
/// columns from 1, offsets and lengths from 0, all within 32 bits here),
/// e.g. "startLine is -5"; nothing when all are. A shard is input from
/// elsewhere: a wrapped -5 would be line 4294967291.
std::optional<std::string> badRegionNumber(const json &Result) {
  auto Locations = Result.find("locations");
  if (Locations == Result.end() || !Locations->is_array())
    return std::nullopt;
  for (const json &Location : *Locations) {
    if (!Location.is_object())
      return std::string("location is not an object");
    const json Region = Location.value("physicalLocation", json::object())
                            .value("region", json::object());
    if (!Region.is_object())
      return std::string("region is not an object");
    for (const char *Member :
         {"startLine", "startColumn", "endLine", "endColumn", "charOffset",
          "charLength", "byteOffset", "byteLength"}) {
      auto Value = Region.find(Member);
      if (Value == Region.end())
        continue;
      const bool FromOne =
          std::string(Member).find("Line") != std::string::npos ||
          std::string(Member).find("Column") != std::string::npos;
      if (!Value->is_number_unsigned() ||
          Value->get<std::uint64_t>() >
              std::numeric_limits<std::int32_t>::max() ||
          (FromOne && Value->get<std::uint64_t>() == 0))
        return std::string(Member) + " is " + Value->dump();
    }
  }
  return std::nullopt;
}

unsigned regionMember(const json &Result, const char *Member) {
  auto Locations = Result.find("locations");
  if (Locations == Result.end() || !Locations->is_array() || Locations->empty())
    return 0;
  return (*Locations)[0]
      .value("physicalLocation", json::object())
      .value("region", json::object())
      .value(Member, 0u);
}

/// Numbers results sharing a fingerprint hash in line and column order, as
/// assignFingerprints() numbers the findings of one run.
void renumberSarifFingerprints(json &Results) {
  std::map<std::string, std::vector<json *>> ByHash;
  for (json &Result : Results) {
    if (!Result.contains("partialFingerprints"))
      continue;
    const json &Hash =
        Result["partialFingerprints"].value(SarifFingerprintKey, json());
    if (Hash.is_string())
      ByHash[fingerprintHashPart(Hash.get<std::string>()).str()].push_back(
          &Result);
  }
  for (auto &[Hash, Group] : ByHash) {
    std::stable_sort(Group.begin(), Group.end(), [](json *A, json *B) {
      auto Key = [](const json &R) {
        return std::make_tuple(
            regionMember(R, "startLine"), regionMember(R, "startColumn"),
            R.value("message", json::object()).value("text", ""));
      };
      return Key(*A) < Key(*B);
    });
    for (size_t I = 0; I < Group.size(); ++I)
      (*Group[I])["partialFingerprints"][SarifFingerprintKey] =
          Hash + ":" + std::to_string(I + 1);
  }
}

llvm::Expected<std::string> mergeSarifLogs(llvm::ArrayRef<ReportFile> Names,
                                           llvm::ArrayRef<json> Documents) {
  json Merged;
  json Rules = json::array();
  std::set<std::string> RuleIds;
  json Results = json::array();
  std::set<json> SeenResults;
  json Notifications = json::array();
  json FilesAnalyzed = json::array();
  bool Successful = true;
  std::string LibTorchVersion;
  for (size_t I = 0; I < Documents.size(); ++I) {
    const std::string &Name = Names[I].Name;
    try {
      const json &Log = Documents[I];
      if (Log.at("version") != "2.1.0")
        return mergeError("'" + Name + "' is SARIF " +
                          Log.at("version").dump() +
                          "; merge reads SARIF 2.1.0");
      const json &Runs = Log.at("runs");
      if (!Runs.is_array() || Runs.size() != 1)
        return mergeError("'" + Name +
                          "' does not hold exactly one run; merge reads the "
                          "logs libtorch-tidy writes");
      const json &Run = Runs[0];
      const json &Driver = Run.at("tool").at("driver");
      if (I == 0) {
        Merged = Log;
      } else {
        const json &First = Merged["runs"][0]["tool"]["driver"];
        if (Driver.at("name") != First.at("name") ||
            Driver.value("version", "") != First.value("version", ""))
          return mergeError("'" + Name + "' was written by " +
                            Driver.at("name").get<std::string>() + " " +
                            Driver.value("version", "") + " and '" +
                            Names[0].Name + "' by " +
                            First.at("name").get<std::string>() + " " +
                            First.value("version", "") +
                            "; merge logs of one version of the tool");
      }
      for (const json &Rule : Driver.value("rules", json::array()))
        if (RuleIds.insert(Rule.at("id").get<std::string>()).second)
          Rules.push_back(Rule);
      for (const json &Result : Run.value("results", json::array())) {
        if (std::optional<std::string> Bad = badRegionNumber(Result))
          return mergeError("'" + Name + "' has a result whose " + *Bad +
                            "; it is not a log libtorch-tidy wrote, or it "
                            "was damaged: produce the shard again");
        if (SeenResults.insert(resultIdentity(Result)).second)
          Results.push_back(Result);
      }
      for (const json &Invocation : Run.value("invocations", json::array())) {
        Successful =
            Successful && Invocation.value("executionSuccessful", true);
        for (const json &N :
             Invocation.value("toolExecutionNotifications", json::array()))
          Notifications.push_back(N);
      }
      const json &Properties = Run.value("properties", json::object());
      for (const json &File : Properties.value("filesAnalyzed", json::array()))
        FilesAnalyzed.push_back(File);
      LibTorchVersion = model::libTorchVersions(
          {LibTorchVersion, Properties.value("libtorchVersion", "")});
    } catch (const json::exception &E) {
      return mergeError("'" + Name + "' is not a SARIF log of libtorch-tidy (" +
                        E.what() + ")");
    }
  }
  json &Run = Merged["runs"][0];
  Run["tool"]["driver"]["rules"] = std::move(Rules);
  renumberSarifFingerprints(Results);
  Run["results"] = std::move(Results);
  json Invocation = {{"executionSuccessful", Successful}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  Run["invocations"] = {std::move(Invocation)};
  Run["properties"]["filesAnalyzed"] = std::move(FilesAnalyzed);
  Run["properties"]["libtorchVersion"] = LibTorchVersion;
  canonicalizeSarifRun(Run);
  return Merged.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace

llvm::Expected<std::string> mergeReports(llvm::ArrayRef<ReportFile> Inputs) {
  if (Inputs.empty())
    return mergeError("no reports to merge");
  std::vector<json> Documents;
  bool AnySarif = false, AnyJson = false;
  for (const ReportFile &Input : Inputs) {
    llvm::Expected<json> Document = parseJsonFile(Input.Content, Input.Name);
    if (!Document)
      return Document.takeError();
    if (isSarifLog(*Document))
      AnySarif = true;
    else if (isJsonReport(*Document))
      AnyJson = true;
    else
      return mergeError("'" + Input.Name +
                        "' is neither a libtorch-tidy JSON report nor a SARIF "
                        "log");
    if (AnySarif && AnyJson)
      return mergeError("'" + Input.Name + "' is not in the format of '" +
                        Inputs[0].Name +
                        "'; merge all JSON reports or all SARIF logs");
    Documents.push_back(std::move(*Document));
  }
  return AnySarif ? mergeSarifLogs(Inputs, Documents)
                  : mergeJsonReports(Inputs, Documents);
}

int runMergeCommand(llvm::ArrayRef<const char *> Args, llvm::raw_ostream &Out,
                    llvm::raw_ostream &Err) {
  const char *Usage = "usage: libtorch-tidy merge <report>... [-o <file>]";
  std::string Output = "-";
  std::vector<std::string> InputNames;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "-h" || Arg == "--help") {
      Out << Usage
          << "\n  Joins the --format=json reports or SARIF logs of "
             "the shards of one run (--shard=K/N).\n";
      return ExitNoFindings;
    }
    if (Arg == "-o" || Arg == "--output" || Arg == "-output") {
      if (I + 1 == Args.size()) {
        Err << "libtorch-tidy merge: error: " << Arg << " needs a file name; "
            << Usage << "\n";
        return ExitUsageError;
      }
      Output = Args[++I];
      continue;
    }
    if (Arg.consume_front("-o=") || Arg.consume_front("--output=") ||
        Arg.consume_front("-output=")) {
      Output = Arg.str();
      continue;
    }
    if (Arg.starts_with("-") && Arg != "-") {
      Err << "libtorch-tidy merge: error: unknown option '" << Arg << "'; "
          << Usage << "\n";
      return ExitUsageError;
    }
    InputNames.push_back(Arg.str());
  }
  if (InputNames.empty()) {
    Err << "libtorch-tidy merge: error: no reports to merge; " << Usage << "\n";
    return ExitUsageError;
  }
  if (llvm::Error E = checkOutputPath(Output)) {
    Err << "libtorch-tidy merge: error: " << llvm::toString(std::move(E))
        << "\n";
    return ExitUsageError;
  }
  std::vector<ReportFile> Inputs;
  for (const std::string &Name : InputNames) {
    std::string Problem;
    std::optional<std::string> Content =
        Name == "-"
            ? io::readStream(0, io::MaxReportBytes, "standard input", Problem)
            : io::readRegularFile(Name, io::MaxReportBytes, "report", Problem);
    if (!Content) {
      Err << "libtorch-tidy merge: error: " << Problem << "\n";
      return ExitUsageError;
    }
    Inputs.push_back({Name, std::move(*Content)});
  }
  llvm::Expected<std::string> Merged = mergeReports(Inputs);
  if (!Merged) {
    Err << "libtorch-tidy merge: error: " << llvm::toString(Merged.takeError())
        << "\n";
    return ExitUsageError;
  }
  Out.flush();
  if (std::optional<std::string> Problem =
          io::writeFile(Output, *Merged, io::FileMode::Fresh)) {
    Err << "libtorch-tidy merge: error: " << *Problem << "\n";
    return ExitUsageError;
  }
  return ExitNoFindings;
}

} // namespace libtorch_tidy::merge
