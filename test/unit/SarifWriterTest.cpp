//===--- SarifWriterTest.cpp - The --format=sarif log ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/SarifWriter.h"
#include "Catalog.h"
#include "ReportTestSupport.h"
#include "report/CheckDocs.h"
#include "report/Fingerprint.h"
#include "report/FingerprintLineHash.h"
#include "report/SarifRules.h"

#include "llvm/Config/llvm-config.h"
#include "gtest/gtest.h"

using namespace libtorch_tidy::model;
using namespace libtorch_tidy::report;
using libtorch_tidy::report::testing::emptyRun;
using libtorch_tidy::report::testing::MemoryProject;
using nlohmann::json;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace sarif_writer_test {

// The documentation of the LLVM release the CLI is built against (22.1.0
// for any 22.1.x): its check and diagnostic pages are the ones it links.
const std::string LlvmReleaseDocs = "https://releases.llvm.org/" +
                                    std::to_string(LLVM_VERSION_MAJOR) + "." +
                                    std::to_string(LLVM_VERSION_MINOR) + ".0/";

/// "é" before the call: byte and UTF-16 columns differ.
const char *const Train = "int main() {\n"
                          "  auto l = make_data_loader(ds, 64);\n"
                          "  /* \xC3\xA9 */ x.item();\n"
                          "}\n";

struct Sample {
  MemoryProject Project;
  RunResult Run = emptyRun();

  Sample() {
    Project.add("src/train.cpp", Train);
    TranslationUnitResult Unit;
    Unit.MainFile = Project.path("src/train.cpp");
    Finding Loader =
        Project.finding("libtorch-dataloader-no-workers", "src/train.cpp",
                        Project.offsetOf("src/train.cpp", "make_data_loader"),
                        16, "no workers");
    Loader.Fixes.push_back({Project.path("src/train.cpp"),
                            Project.offsetOf("src/train.cpp", "64"), 2,
                            "Options(64).workers(4)"});
    Finding Sync =
        Project.finding("libtorch-host-sync-in-loop", "src/train.cpp",
                        Project.offsetOf("src/train.cpp", "x.item"), 8, "sync");
    Note Called;
    Called.Message = "called here";
    Called.Where = Loader.Where;
    Sync.Notes.push_back(Called);
    Finding Other =
        Project.finding("bugprone-use-after-move", "src/train.cpp",
                        Project.offsetOf("src/train.cpp", "ds"), 2, "moved");
    Finding Outside;
    Outside.CheckId = "libtorch-host-sync-in-loop";
    Outside.Message = "outside";
    Outside.Where.File = Outside.Where.AbsoluteFile =
        "/nonexistent-elsewhere/lib.h";
    Outside.Where.Begin = {4, 2, 2};
    Outside.Where.End = Outside.Where.Begin;
    Unit.Findings = {Sync, Loader, Other, Outside};
    TranslationUnitResult Broken;
    Broken.MainFile = Project.path("src/broken.cpp");
    Broken.State = TranslationUnitResult::Status::Failed;
    Broken.FailureMessage = "the worker crashed";
    Run.Units = {Unit, Broken};
    SourceFiles Sources = Project.sources();
    assignFingerprints(Run, Project.Root, Sources);
  }

  json log() {
    SourceFiles Sources = Project.sources();
    return sarifLog(Run, {Project.Root, "https://example.org/libtorch-tidy"},
                    Sources);
  }
};

const json &resultOf(const json &Log, const std::string &Message) {
  for (const json &Result : Log["runs"][0]["results"])
    if (Result["message"]["text"] == Message)
      return Result;
  static const json None;
  return None;
}

TEST(SarifWriterTest, OneRunWithToolAndRules) {
  Sample S;
  json Log = S.log();
  EXPECT_EQ(Log["version"], "2.1.0");
  EXPECT_EQ(Log["$schema"], SarifSchemaUri);
  ASSERT_EQ(Log["runs"].size(), 1u);
  const json &Run = Log["runs"][0];
  const json &Driver = Run["tool"]["driver"];
  EXPECT_EQ(Driver["name"], "libtorch-tidy");
  EXPECT_EQ(Driver["version"], "0.1.0");
  EXPECT_EQ(Driver["informationUri"], "https://example.org/libtorch-tidy");
  EXPECT_EQ(Run["columnKind"], "utf16CodeUnits");
  EXPECT_EQ(Run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
            "file:///nonexistent-project/");

  // Enabled checks and every reporting check, sorted by id.
  std::vector<std::string> Ids;
  for (const json &Rule : Driver["rules"])
    Ids.push_back(Rule["id"]);
  EXPECT_EQ(Ids, (std::vector<std::string>{"bugprone-use-after-move",
                                           "libtorch-dataloader-no-workers",
                                           "libtorch-host-sync-in-loop"}));
  const json &Ours = Driver["rules"][2];
  EXPECT_EQ(Ours["shortDescription"]["text"].get<std::string>().substr(0, 11),
            "host syncs ");
  EXPECT_EQ(Ours["fullDescription"]["text"].get<std::string>().substr(0, 40),
            "Finds operations that make the host wait");
  EXPECT_EQ(Ours["help"]["markdown"],
            checkDocMarkdown("libtorch-host-sync-in-loop").str());
  EXPECT_FALSE(Ours["help"]["text"].get<std::string>().empty());
  EXPECT_EQ(Ours["name"], "LibtorchHostSyncInLoop");
  EXPECT_EQ(Ours["helpUri"], checkDocsUrl("libtorch-host-sync-in-loop"));
  EXPECT_EQ(
      llvm::StringRef(Ours["helpUri"].get<std::string>()).rsplit('/').second,
      "libtorch-host-sync-in-loop.md");
  EXPECT_EQ(Ours["defaultConfiguration"]["level"], "warning");
  EXPECT_EQ(Ours["properties"]["precision"], "high");
  EXPECT_NE(std::find(Ours["properties"]["tags"].begin(),
                      Ours["properties"]["tags"].end(), "performance"),
            Ours["properties"]["tags"].end());
  const json &Theirs = Driver["rules"][0];
  EXPECT_EQ(Theirs["helpUri"],
            LlvmReleaseDocs + "tools/clang/tools/extra/docs/"
                              "clang-tidy/checks/bugprone/use-after-move.html");
  EXPECT_EQ(Theirs["name"], "BugproneUseAfterMove");
  EXPECT_FALSE(Theirs["help"]["text"].get<std::string>().empty());
}

TEST(SarifWriterTest, ResultsPointAtTheirRulesAndRepoRelativeRegions) {
  Sample S;
  json Log = S.log();
  const json &Rules = Log["runs"][0]["tool"]["driver"]["rules"];
  for (const json &Result : Log["runs"][0]["results"])
    EXPECT_EQ(Rules[Result["ruleIndex"].get<unsigned>()]["id"],
              Result["ruleId"]);

  const json &Sync = resultOf(Log, "sync");
  EXPECT_EQ(Sync["level"], "warning");
  EXPECT_EQ(Sync["message"]["text"], "sync");
  const json &Physical = Sync["locations"][0]["physicalLocation"];
  EXPECT_EQ(Physical["artifactLocation"],
            json({{"uri", "src/train.cpp"}, {"uriBaseId", "%SRCROOT%"}}));
  // Line 3 is "  /* é */ x.item();": x is byte column 12, UTF-16 column 11.
  EXPECT_EQ(Physical["region"], json({{"startLine", 3},
                                      {"startColumn", 11},
                                      {"endLine", 3},
                                      {"endColumn", 19}}));
  // GitHub's hash of line 3, and our fingerprint under our own key.
  EXPECT_EQ(
      Sync["partialFingerprints"],
      json({{"primaryLocationLineHash", githubLineHashes(Train)[2]},
            {"libtorchTidy/v1", S.Run.Units[0].Findings[0].Fingerprint}}));
  EXPECT_EQ(Sync["relatedLocations"][0]["message"]["text"], "called here");
  EXPECT_EQ(
      Sync["relatedLocations"][0]["physicalLocation"]["region"]["startLine"],
      2);
}

TEST(SarifWriterTest, FixesAsReplacementsInLinesAndUtf16Characters) {
  Sample S;
  json Log = S.log();
  const json &Loader = resultOf(Log, "no workers");
  ASSERT_EQ(Loader["fixes"].size(), 1u);
  const json &Change = Loader["fixes"][0]["artifactChanges"][0];
  EXPECT_EQ(Change["artifactLocation"]["uri"], "src/train.cpp");
  const json &Replacement = Change["replacements"][0];
  unsigned Offset = S.Project.offsetOf("src/train.cpp", "64");
  EXPECT_EQ(Replacement["deletedRegion"], json({{"startLine", 2},
                                                {"startColumn", 33},
                                                {"endLine", 2},
                                                {"endColumn", 35},
                                                {"charOffset", Offset},
                                                {"charLength", 2}}));
  EXPECT_EQ(Replacement["insertedContent"]["text"], "Options(64).workers(4)");
}

TEST(SarifWriterTest, FilesOutsideTheRootAndFailedUnits) {
  Sample S;
  json Log = S.log();
  for (const json &Result : Log["runs"][0]["results"])
    if (Result["message"]["text"] == "outside") {
      const json &Physical = Result["locations"][0]["physicalLocation"];
      EXPECT_EQ(Physical["artifactLocation"],
                json({{"uri", "file:///nonexistent-elsewhere/lib.h"}}));
      // A point covers the character under the caret.
      EXPECT_EQ(Physical["region"]["endColumn"], 3);
    }
  const json &Invocation = Log["runs"][0]["invocations"][0];
  EXPECT_EQ(Invocation["executionSuccessful"], false);
  ASSERT_EQ(Invocation["toolExecutionNotifications"].size(), 1u);
  EXPECT_EQ(Invocation["toolExecutionNotifications"][0]["message"]["text"],
            "could not analyze 'src/broken.cpp': the worker crashed");
  EXPECT_EQ(Log["runs"][0]["properties"]["filesAnalyzed"],
            json({"src/train.cpp"}));
}

TEST(SarifRulesTest, EveryCatalogCheckHasAnEmbeddedDocsPage) {
  for (const auto &Check : clang::tidy::libtorch::checkCatalog()) {
    llvm::StringRef Markdown = checkDocMarkdown(Check.Id);
    EXPECT_TRUE(Markdown.starts_with("# " + Check.Id.str())) << Check.Id.str();
    std::string Full = docDescription(Markdown);
    EXPECT_GT(Full.size(), 20u) << Check.Id.str();
    EXPECT_LE(Full.size(), 1024u) << Check.Id.str();
    EXPECT_EQ(Full.find("**"), std::string::npos) << Check.Id.str();
    EXPECT_TRUE(llvm::StringRef(Full).rtrim(")`").ends_with(".")) << Full;
  }
  EXPECT_TRUE(checkDocMarkdown("libtorch-no-such-check").empty());
}

TEST(SarifRulesTest, DocsUrlsOfOtherChecks) {
  EXPECT_EQ(llvmDocsUrl("clang-analyzer-core.DivideZero"),
            LlvmReleaseDocs +
                "tools/clang/tools/extra/docs/"
                "clang-tidy/checks/clang-analyzer/core.DivideZero.html");
  EXPECT_EQ(llvmDocsUrl("clang-diagnostic-unused-variable"),
            LlvmReleaseDocs + "tools/clang/docs/"
                              "DiagnosticsReference.html#wunused-variable");
  // Errors have no flag: the reference page of all diagnostics.
  EXPECT_EQ(llvmDocsUrl("clang-diagnostic-error"),
            LlvmReleaseDocs + "tools/clang/docs/"
                              "DiagnosticsReference.html");
  json Rule = sarifRule("clang-diagnostic-error");
  EXPECT_EQ(Rule["defaultConfiguration"]["level"], "error");
  EXPECT_EQ(Rule["name"], "ClangDiagnosticError");
  EXPECT_EQ(ruleName("clang-analyzer-core.DivideZero"),
            "ClangAnalyzerCoreDivideZero");
}

// A first paragraph that introduces a list or an example takes it in: no
// description ends in a colon or in the middle of a sentence.
TEST(SarifRulesTest, DescriptionsEndSentences) {
  EXPECT_EQ(docDescription("# x\n\n**Tier:** default\n\nFinds calls that:\n\n"
                           "- do *this*;\n- or that,\n  on two lines.\n\n"
                           "## Why\n"),
            "Finds calls that: do this; or that, on two lines.");
  EXPECT_EQ(docDescription("# x\n\nFinds copies right away:\n\n```cpp\n"
                           "a.to(d)\nb.cuda()\n```\n\nMore text.\n"),
            "Finds copies right away: `a.to(d)`; `b.cuda()`.");
  EXPECT_EQ(docDescription("# x\n\nA loop that\n\n- runs,\n- and stops\n\n"
                           "Later.\n"),
            "A loop that runs, and stops.");
  EXPECT_EQ(docDescription("# x\n\nFinds `a * b` **now**.\n"),
            "Finds `a * b` now.");
  // Too long: cut after the last sentence that fits.
  EXPECT_EQ(docDescription("# x\n\nOne two. Three four five.\n", 20),
            "One two.");
}

} // namespace sarif_writer_test

namespace sarif_writer_test {

TEST(SarifWriterTest, NotesRepeatingOneEditGiveOneFix) {
  Sample S;
  Finding &Sync = S.Run.Units[0].Findings[0];
  ASSERT_EQ(Sync.Message, "sync");
  Note Twice = Sync.Notes[0];
  Twice.Fixes.push_back({S.Project.path("src/train.cpp"),
                         S.Project.offsetOf("src/train.cpp", "x.item"), 1,
                         "y"});
  Sync.Notes = {Twice, Twice};
  json Log = S.log();
  const json &Result = resultOf(Log, "sync");
  EXPECT_EQ(Result["relatedLocations"].size(), 2u);
  EXPECT_EQ(Result["fixes"].size(), 1u);
}

} // namespace sarif_writer_test
