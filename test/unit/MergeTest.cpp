//===--- MergeTest.cpp - Joining the reports of shards --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "merge/Merge.h"
#include "ReportTestSupport.h"
#include "report/Fingerprint.h"
#include "report/JsonReport.h"
#include "report/SarifWriter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy::model;
using namespace libtorch_tidy::report;
using namespace libtorch_tidy::merge;
using libtorch_tidy::report::testing::emptyRun;
using libtorch_tidy::report::testing::MemoryProject;
using nlohmann::json;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace merge_test {

/// Three units. a.cpp and c.cpp include step.h, which has two identical
/// lines with a finding each (so occurrence numbers matter), and c.cpp failed
/// to compile.
struct ThreeUnits {
  MemoryProject Project;

  ThreeUnits() {
    Project.add("step.h", "inline void step() {\n"
                          "  x.item();\n"
                          "  x.item();\n"
                          "}\n");
    Project.add("a.cpp", "void a() { y.item(); }\n");
    Project.add("b.cpp", "void b() { z.item(); }\n");
    Project.add("c.cpp", "void c() { w.item(); }\n");
  }

  Finding sync(const std::string &File, unsigned Nth = 0) const {
    return Project.finding("libtorch-host-sync-in-loop", File,
                           Project.offsetOf(File, ".item", Nth) - 1, 9, "sync");
  }

  TranslationUnitResult unit(const std::string &Main) const {
    TranslationUnitResult Unit;
    Unit.MainFile = Project.path(Main);
    Unit.Findings.push_back(sync(Main));
    if (Main != "b.cpp") {
      // Each shard sees the header's findings through its own units.
      Unit.Findings.push_back(sync("step.h", Main == "a.cpp" ? 0 : 1));
      Unit.Findings.push_back(sync("step.h", Main == "a.cpp" ? 1 : 0));
    }
    if (Main == "c.cpp") {
      Unit.State = TranslationUnitResult::Status::CompileErrors;
      Unit.FailureMessage = "1 compiler error";
      Finding Error = sync(Main);
      Error.CheckId = "clang-diagnostic-error";
      Error.Severity = "error";
      Error.Message = "use of undeclared identifier 'w'";
      Unit.CompilerErrors.push_back(Error);
    }
    return Unit;
  }

  /// The run over \p Mains, fingerprinted as the CLI does.
  RunResult run(std::vector<std::string> Mains) const {
    RunResult Run = emptyRun();
    for (const std::string &Main : Mains)
      Run.Units.push_back(unit(Main));
    SourceFiles Sources = Project.sources();
    assignFingerprints(Run, Project.Root, Sources);
    return Run;
  }

  std::string sarif(const RunResult &Run) const {
    SourceFiles Sources = Project.sources();
    return renderSarif(Run, {Project.Root, "https://example.org/"}, Sources);
  }
};

std::string merged(std::vector<ReportFile> Inputs) {
  llvm::Expected<std::string> Result = mergeReports(Inputs);
  EXPECT_TRUE(static_cast<bool>(Result));
  if (!Result)
    return "error: " + llvm::toString(Result.takeError());
  return *Result;
}

std::string mergeError(std::vector<ReportFile> Inputs) {
  llvm::Expected<std::string> Result = mergeReports(Inputs);
  EXPECT_FALSE(static_cast<bool>(Result));
  if (Result)
    return {};
  std::string Message = llvm::toString(Result.takeError());
  EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
  return Message;
}

TEST(MergeTest, SarifShardsMergeIntoTheUnshardedLog) {
  ThreeUnits T;
  std::string Whole = T.sarif(T.run({"a.cpp", "b.cpp", "c.cpp"}));
  // Shards in any order; c.cpp's shard alone numbers the header's findings
  // in the opposite order of a.cpp's.
  std::string Merged =
      merged({{"2.sarif", T.sarif(T.run({"c.cpp"}))},
              {"1.sarif", T.sarif(T.run({"b.cpp", "a.cpp"}))}});
  EXPECT_EQ(json::parse(Merged), json::parse(Whole));
  EXPECT_EQ(Merged, Whole);
  // The header's findings appear once.
  EXPECT_EQ(json::parse(Merged)["runs"][0]["results"].size(), 5u);
}

TEST(MergeTest, JsonShardsMergeIntoTheUnshardedReport) {
  ThreeUnits T;
  std::string Whole = renderJsonReport(T.run({"a.cpp", "b.cpp", "c.cpp"}));
  std::string Merged =
      merged({{"1.json", renderJsonReport(T.run({"c.cpp", "a.cpp"}))},
              {"2.json", renderJsonReport(T.run({"b.cpp"}))}});
  EXPECT_EQ(Merged, Whole);
}

TEST(MergeTest, MergingOneReportGivesItBack) {
  ThreeUnits T;
  std::string Sarif = T.sarif(T.run({"a.cpp", "b.cpp"}));
  EXPECT_EQ(merged({{"only.sarif", Sarif}}), Sarif);
}

TEST(MergeTest, MismatchedInputsAreOneLineErrors) {
  ThreeUnits T;
  RunResult A = T.run({"a.cpp"});
  RunResult Newer = T.run({"b.cpp"});
  Newer.ToolVersion = "0.2.0";
  EXPECT_NE(mergeError({{"a.json", renderJsonReport(A)},
                        {"b.json", renderJsonReport(Newer)}})
                .find("'b.json' was written by libtorch-tidy 0.2.0"),
            std::string::npos);
  EXPECT_NE(mergeError({{"a.sarif", T.sarif(A)}, {"b.sarif", T.sarif(Newer)}})
                .find("'b.sarif' was written by libtorch-tidy 0.2.0"),
            std::string::npos);
  EXPECT_NE(mergeError({{"a.json", renderJsonReport(A)},
                        {"b.sarif", T.sarif(T.run({"b.cpp"}))}})
                .find("'b.sarif' is not in the format of 'a.json'"),
            std::string::npos);
  EXPECT_NE(mergeError({{"a.json", renderJsonReport(A)},
                        {"again.json", renderJsonReport(A)}})
                .find("'again.json' and 'a.json' both hold the results of"),
            std::string::npos);
  EXPECT_NE(
      mergeError({{"x.json", "[1, 2"}}).find("'x.json' is not valid JSON"),
      std::string::npos);
  EXPECT_NE(mergeError({{"x.json", "{\"a\": 1}"}})
                .find("'x.json' is neither a libtorch-tidy JSON report nor"),
            std::string::npos);
  json TwoRuns = json::parse(T.sarif(A));
  TwoRuns["runs"].push_back(TwoRuns["runs"][0]);
  EXPECT_NE(mergeError({{"two.sarif", TwoRuns.dump()}})
                .find("'two.sarif' does not hold exactly one run"),
            std::string::npos);
}

TEST(MergeTest, CommandWritesTheOutputFileAndReportsBadUsage) {
  ThreeUnits T;
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("merge-command", Dir));
  std::string A = (Dir + "/a.sarif").str(), B = (Dir + "/b.sarif").str(),
              All = (Dir + "/all.sarif").str();
  for (auto [Path, Units] :
       {std::pair<std::string, std::vector<std::string>>{A, {"a.cpp"}},
        {B, {"b.cpp", "c.cpp"}}}) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << T.sarif(T.run(Units));
  }
  std::string Out, Err;
  llvm::raw_string_ostream OutS(Out), ErrS(Err);
  std::vector<const char *> Args = {A.c_str(), B.c_str(), "-o", All.c_str()};
  EXPECT_EQ(runMergeCommand(Args, OutS, ErrS), 0);
  EXPECT_EQ(ErrS.str(), "");
  auto Written = llvm::MemoryBuffer::getFile(All);
  ASSERT_TRUE(static_cast<bool>(Written));
  EXPECT_EQ((*Written)->getBuffer().str(),
            T.sarif(T.run({"a.cpp", "b.cpp", "c.cpp"})));

  Err.clear();
  std::vector<const char *> Missing = {A.c_str(), "no-such.sarif"};
  EXPECT_EQ(runMergeCommand(Missing, OutS, ErrS), 2);
  EXPECT_EQ(ErrS.str(), "libtorch-tidy merge: error: cannot read report "
                        "'no-such.sarif': No such file or directory\n");
  Err.clear();
  std::vector<const char *> None = {"-o", All.c_str()};
  EXPECT_EQ(runMergeCommand(None, OutS, ErrS), 2);
  EXPECT_NE(ErrS.str().find("no reports to merge"), std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace merge_test
