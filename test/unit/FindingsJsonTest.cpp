//===--- FindingsJsonTest.cpp - Round trips of the findings JSON ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "model/FindingsJson.h"
#include "model/Findings.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy::model;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace findings_json_test {

Finding makeFinding(std::string Check, std::string File, unsigned Offset) {
  Finding F;
  F.CheckId = std::move(Check);
  F.Tier = "default";
  F.Message = "message for " + F.CheckId;
  F.Where.File = File;
  F.Where.AbsoluteFile = "/src/" + File;
  F.Where.Offset = Offset;
  F.Where.Begin = {3, 7, 6};
  F.Where.End = {3, 12, 11};
  F.Fixes.push_back({"/src/" + File, Offset, 5, "x.to(d)"});
  F.Ranges.push_back({File, Offset, 5});
  Note N;
  N.Message = "first use is here";
  N.Where = F.Where;
  F.Notes.push_back(N);
  return F;
}

TEST(FindingsJsonTest, RunRoundTripsThroughJson) {
  RunResult Run;
  Run.ToolVersion = "0.1.0";
  Run.LibTorchVersion = "1.13.0";
  Run.EnabledChecks = {"libtorch-host-sync-in-loop"};
  TranslationUnitResult Unit;
  Unit.MainFile = "/src/train.cpp";
  Unit.State = TranslationUnitResult::Status::CompileErrors;
  Unit.FailureMessage = "1 compiler error";
  Unit.Findings.push_back(makeFinding("libtorch-a", "train.cpp", 40));
  Unit.ContentDigests["/src/train.cpp"] = "abc";
  Unit.BuildDirectory = "/src/build";
  Unit.Suppressed.NoLint = 2;
  Unit.CheckProfile["libtorch-a"] = 0.25;
  Run.Units.push_back(Unit);

  nlohmann::json J = Run;
  RunResult Back = J.get<RunResult>();
  EXPECT_EQ(nlohmann::json(Back), J);
  ASSERT_EQ(Back.Units.size(), 1u);
  EXPECT_EQ(Back.Units[0].State, TranslationUnitResult::Status::CompileErrors);
  EXPECT_EQ(Back.Units[0].Findings[0].Where.Begin.ColumnUtf16, 6u);
  EXPECT_EQ(Back.Units[0].Findings[0].Fixes[0].Text, "x.to(d)");
  EXPECT_EQ(Back.Units[0].Findings[0].Ranges[0].Length, 5u);
  EXPECT_EQ(Back.Units[0].BuildDirectory, "/src/build");
  EXPECT_EQ(Back.Units[0].Suppressed.NoLint, 2u);
  EXPECT_EQ(Back.Units[0].CheckProfile.at("libtorch-a"), 0.25);
}

TEST(FindingsJsonTest, MissingMemberAndUnknownVersionAreErrors) {
  nlohmann::json J = RunResult();
  J.erase("units");
  EXPECT_THROW(J.get<RunResult>(), nlohmann::json::exception);
  nlohmann::json Newer = RunResult();
  Newer["version"] = FindingsJsonVersion + 1;
  EXPECT_THROW(Newer.get<RunResult>(), nlohmann::json::exception);
}

TEST(FindingsJsonTest, UniqueFindingsDropsHeaderFindingsSeenTwice) {
  RunResult Run;
  TranslationUnitResult A, B;
  A.Findings = {makeFinding("libtorch-b", "model.h", 10),
                makeFinding("libtorch-a", "a.cpp", 5)};
  B.Findings = {makeFinding("libtorch-b", "model.h", 10)};
  Run.Units = {A, B};
  std::vector<Finding> All = uniqueFindings(Run);
  ASSERT_EQ(All.size(), 2u);
  EXPECT_EQ(All[0].Where.File, "a.cpp");
  EXPECT_EQ(All[1].Where.File, "model.h");
}

TEST(FindingsJsonTest, EveryLibTorchVersionOnceOldestFirst) {
  EXPECT_EQ(libTorchVersions({}), "");
  EXPECT_EQ(libTorchVersions({"", "1.13.1", ""}), "1.13.1");
  // Units of two targets; a merged shard's list; by number, not as text.
  EXPECT_EQ(libTorchVersions({"2.15.0", "1.13.1", "2.15.0"}), "1.13.1, 2.15.0");
  EXPECT_EQ(libTorchVersions({"1.13.1, 2.15.0", "2.2.0"}),
            "1.13.1, 2.2.0, 2.15.0");
}

} // namespace findings_json_test
