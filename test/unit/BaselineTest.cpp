//===--- BaselineTest.cpp - Only findings not in the baseline -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/Baseline.h"
#include "ReportTestSupport.h"
#include "report/Fingerprint.h"
#include "report/JsonReport.h"
#include "report/SarifWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy::model;
using namespace libtorch_tidy::report;
using libtorch_tidy::report::testing::emptyRun;
using libtorch_tidy::report::testing::MemoryProject;
using nlohmann::json;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace baseline_test {

/// A run over \p Content with one host-sync finding per `item()` call.
RunResult runOver(MemoryProject &Project, const std::string &Content) {
  Project.Files.clear();
  Project.add("train.cpp", Content);
  RunResult Run = emptyRun();
  TranslationUnitResult Unit;
  Unit.MainFile = Project.path("train.cpp");
  for (size_t At = Content.find(".item()"); At != std::string::npos;
       At = Content.find(".item()", At + 1))
    Unit.Findings.push_back(Project.finding("libtorch-host-sync-in-loop",
                                            "train.cpp", At, 7, "sync"));
  Run.Units.push_back(Unit);
  SourceFiles Sources = Project.sources();
  assignFingerprints(Run, Project.Root, Sources);
  return Run;
}

const char *const Old = "void f() {\n"
                        "  a.item();\n"
                        "  b.item();\n"
                        "}\n";
// Two lines inserted above, and one new finding.
const char *const New = "#include <x>\n\n"
                        "void f() {\n"
                        "  a.item();\n"
                        "  b.item();\n"
                        "  c.item();\n"
                        "}\n";

void expectOnlyTheNewFindingRemains(const std::set<std::string> &Known,
                                    MemoryProject &Project) {
  RunResult Current = runOver(Project, New);
  EXPECT_EQ(applyBaseline(Current, Known), 2u);
  ASSERT_EQ(Current.Units[0].Findings.size(), 1u);
  EXPECT_EQ(Current.Units[0].Findings[0].Where.Begin.Line, 6u);
}

TEST(BaselineTest, SuppressesFindingsOfAJsonBaseline) {
  MemoryProject Project;
  json Document = jsonReport(runOver(Project, Old));
  llvm::Expected<std::set<std::string>> Known =
      baselineFingerprints(Document, "baseline.json");
  ASSERT_TRUE(static_cast<bool>(Known)) << llvm::toString(Known.takeError());
  EXPECT_EQ(Known->size(), 2u);
  expectOnlyTheNewFindingRemains(*Known, Project);
}

TEST(BaselineTest, SuppressesFindingsOfASarifBaseline) {
  MemoryProject Project;
  RunResult Baseline = runOver(Project, Old);
  SourceFiles Sources = Project.sources();
  json Log = sarifLog(Baseline, {Project.Root, ""}, Sources);
  llvm::Expected<std::set<std::string>> Known =
      baselineFingerprints(Log, "baseline.sarif");
  ASSERT_TRUE(static_cast<bool>(Known)) << llvm::toString(Known.takeError());
  EXPECT_EQ(Known->size(), 2u);
  expectOnlyTheNewFindingRemains(*Known, Project);
}

TEST(BaselineTest, EveryCopyOfAHeaderFindingIsRemoved) {
  MemoryProject Project;
  RunResult Run = runOver(Project, Old);
  Run.Units.push_back(Run.Units[0]);
  Run.Units[1].MainFile = Project.path("other.cpp");
  std::set<std::string> Known = {Run.Units[0].Findings[0].Fingerprint};
  EXPECT_EQ(applyBaseline(Run, Known), 1u);
  EXPECT_EQ(Run.Units[0].Findings.size(), 1u);
  EXPECT_EQ(Run.Units[1].Findings.size(), 1u);
}

std::string errorOf(llvm::Expected<std::set<std::string>> Known) {
  EXPECT_FALSE(static_cast<bool>(Known));
  if (Known)
    return {};
  std::string Message = llvm::toString(Known.takeError());
  EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
  return Message;
}

TEST(BaselineTest, MalformedBaselinesAreOneLineErrorsNamingTheFile) {
  EXPECT_NE(errorOf(baselineFingerprints(json{{"hello", 1}}, "x.json"))
                .find("baseline 'x.json' is neither a libtorch-tidy JSON "
                      "report nor a SARIF log"),
            std::string::npos);
  EXPECT_NE(errorOf(baselineFingerprints(
                        json{{"version", "2.1.0"}, {"runs", 3}}, "x.sarif"))
                .find("baseline 'x.sarif' has no 'runs' array"),
            std::string::npos);
  EXPECT_NE(errorOf(baselineFingerprints(
                        json{{"units", json::array()}, {"version", 1}},
                        "partial.json"))
                .find("baseline 'partial.json' is not a complete"),
            std::string::npos);

  llvm::SmallString<128> Path;
  int FD;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("baseline", "json", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << "{\"runs\": [";
  }
  EXPECT_NE(
      errorOf(readBaseline(Path))
          .find("baseline '" + Path.str().str() + "' is not valid JSON (byte"),
      std::string::npos);
  llvm::sys::fs::remove(Path);
  EXPECT_NE(errorOf(readBaseline(Path))
                .find("cannot read baseline '" + Path.str().str() + "'"),
            std::string::npos);
}

} // namespace baseline_test
