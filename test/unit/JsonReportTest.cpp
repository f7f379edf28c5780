//===--- JsonReportTest.cpp - The --format=json document ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/JsonReport.h"
#include "ReportTestSupport.h"
#include "model/FindingsJson.h"
#include "report/Fingerprint.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy::model;
using namespace libtorch_tidy::report;
using libtorch_tidy::report::testing::emptyRun;
using libtorch_tidy::report::testing::MemoryProject;
using nlohmann::json;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace json_report_test {

RunResult sampleRun(MemoryProject &Project) {
  Project.add("src/train.cpp", "int main() {\n"
                               "  auto l = make_data_loader(ds, 64);\n"
                               "  x.item();\n"
                               "}\n");
  RunResult Run = emptyRun();
  TranslationUnitResult Train;
  Train.MainFile = Project.path("src/train.cpp");
  Finding Loader = Project.finding(
      "libtorch-dataloader-no-workers", "src/train.cpp",
      Project.offsetOf("src/train.cpp", "make_data_loader"), 16, "no workers");
  Loader.Fixes.push_back({Project.path("src/train.cpp"),
                          Project.offsetOf("src/train.cpp", "64"), 2,
                          "DataLoaderOptions(64).workers(4)"});
  Finding Sync =
      Project.finding("libtorch-host-sync-in-loop", "src/train.cpp",
                      Project.offsetOf("src/train.cpp", "x.item"), 8, "sync");
  Note Called;
  Called.Message = "called here";
  Called.Where = Loader.Where;
  Sync.Notes.push_back(Called);
  // Reported out of order: the document lists findings by offset.
  Train.Findings = {Sync, Loader};
  TranslationUnitResult Broken;
  Broken.MainFile = Project.path("src/broken.cpp");
  Broken.State = TranslationUnitResult::Status::Failed;
  Broken.FailureMessage = "the worker crashed";
  // Units out of order too: the document sorts them by main file.
  Run.Units = {Train, Broken};
  SourceFiles Sources = Project.sources();
  assignFingerprints(Run, Project.Root, Sources);
  return Run;
}

TEST(JsonReportTest, HasTheRunAndDerivedMembers) {
  MemoryProject Project;
  json Document = jsonReport(sampleRun(Project));
  EXPECT_EQ(Document["version"], FindingsJsonVersion);
  EXPECT_EQ(Document["tool"]["name"], "libtorch-tidy");
  EXPECT_EQ(Document["tool"]["version"], "0.1.0");
  EXPECT_EQ(Document["libtorchVersion"], "1.13.1");
  EXPECT_EQ(Document["checksEnabled"].size(), 2u);
  ASSERT_EQ(Document["units"].size(), 2u);
  EXPECT_EQ(Document["units"][0]["mainFile"], Project.path("src/broken.cpp"));

  const json &Findings = Document["findings"];
  ASSERT_EQ(Findings.size(), 2u);
  const json &First = Findings[0];
  EXPECT_EQ(First["checkId"], "libtorch-dataloader-no-workers");
  EXPECT_EQ(First["tier"], "default");
  EXPECT_EQ(First["severity"], "warning");
  EXPECT_EQ(First["location"]["file"], "src/train.cpp");
  EXPECT_EQ(First["location"]["absoluteFile"], Project.path("src/train.cpp"));
  EXPECT_EQ(First["location"]["begin"]["line"], 2);
  EXPECT_EQ(First["location"]["begin"]["column"], 12);
  EXPECT_EQ(First["location"]["begin"]["columnUtf16"], 12);
  EXPECT_EQ(First["location"]["end"]["column"], 28);
  EXPECT_EQ(First["fixes"][0]["replacementText"],
            "DataLoaderOptions(64).workers(4)");
  EXPECT_EQ(First["fingerprint"].get<std::string>().size(), 18u);
  EXPECT_EQ(Findings[1]["notes"][0]["message"], "called here");

  EXPECT_EQ(Document["filesAnalyzed"], json({Project.path("src/train.cpp")}));
  ASSERT_EQ(Document["filesFailed"].size(), 1u);
  EXPECT_EQ(Document["filesFailed"][0]["file"], Project.path("src/broken.cpp"));
  EXPECT_EQ(Document["filesFailed"][0]["status"], "failed");
  EXPECT_EQ(Document["filesFailed"][0]["reason"], "the worker crashed");
  EXPECT_EQ(Document["summary"],
            json({{"findings", 2}, {"filesWithFindings", 1}, {"fixable", 1}}));
}

TEST(JsonReportTest, ReadsBackToTheSameDocument) {
  MemoryProject Project;
  RunResult Run = sampleRun(Project);
  std::string Text = renderJsonReport(Run);
  llvm::Expected<json> Parsed = parseJsonFile(Text, "report.json");
  ASSERT_TRUE(static_cast<bool>(Parsed));
  EXPECT_TRUE(isJsonReport(*Parsed));
  llvm::Expected<RunResult> Back = readJsonReport(*Parsed, "report.json");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(renderJsonReport(*Back), Text);
  EXPECT_EQ(Back->Units[1].Findings[1].Fingerprint,
            Run.Units[0].Findings[1].Fingerprint);
}

TEST(JsonReportTest, ErrorsNameTheFile) {
  llvm::Expected<json> Bad = parseJsonFile("{\"units\": [", "old.json");
  ASSERT_FALSE(static_cast<bool>(Bad));
  std::string Message = llvm::toString(Bad.takeError());
  EXPECT_NE(Message.find("'old.json' is not valid JSON"), std::string::npos);
  EXPECT_EQ(Message.find('\n'), std::string::npos);

  llvm::Expected<RunResult> Incomplete =
      readJsonReport(json{{"units", json::array()}}, "partial.json");
  ASSERT_FALSE(static_cast<bool>(Incomplete));
  Message = llvm::toString(Incomplete.takeError());
  EXPECT_NE(Message.find("'partial.json' is not a libtorch-tidy JSON report"),
            std::string::npos);
  EXPECT_EQ(Message.find('\n'), std::string::npos);
}

} // namespace json_report_test

namespace json_report_test {

TEST(JsonReportTest, ReportDoesNotDependOnTheCache) {
  MemoryProject Project;
  RunResult Fresh = sampleRun(Project);
  RunResult Replayed = Fresh;
  for (TranslationUnitResult &Unit : Replayed.Units)
    Unit.FromCache = true;
  EXPECT_EQ(renderJsonReport(Fresh), renderJsonReport(Replayed));
  json Document = jsonReport(Replayed);
  for (const json &Unit : Document["units"])
    EXPECT_FALSE(Unit.contains("fromCache"));
  // Read back, a report's units count as analyzed in that run.
  RunResult Back = Document.get<RunResult>();
  ASSERT_FALSE(Back.Units.empty());
  EXPECT_FALSE(Back.Units[0].FromCache);
}

} // namespace json_report_test
