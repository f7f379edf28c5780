//===--- FixSelectionTest.cpp - Fixes are applied per unit ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "fix/FixSelection.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy;
using namespace libtorch_tidy::fix;
using model::Finding;
using model::TranslationUnitResult;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace fix_selection_test {

Finding fixable(std::string File, unsigned Offset, std::string Text) {
  Finding F;
  F.CheckId = "libtorch-a";
  F.Message = "message";
  F.Where.AbsoluteFile = File;
  F.Where.Offset = Offset;
  F.Fixes = {{File, Offset, 1, std::move(Text)}};
  return F;
}

TranslationUnitResult unit(std::string Main, std::vector<Finding> Findings,
                           TranslationUnitResult::Status State =
                               TranslationUnitResult::Status::Analyzed) {
  TranslationUnitResult U;
  U.MainFile = std::move(Main);
  U.Findings = std::move(Findings);
  U.State = State;
  return U;
}

TEST(FixSelectionTest, ABrokenUnitWithholdsOnlyItsOwnFixes) {
  model::RunResult Run;
  Run.Units = {unit("/p/a.cpp", {fixable("/p/a.cpp", 1, "x")}),
               unit("/p/broken.cpp", {fixable("/p/broken.cpp", 1, "y")},
                    TranslationUnitResult::Status::CompileErrors),
               unit("/p/c.cpp", {fixable("/p/c.cpp", 1, "z")})};
  auto Diagnostics = model::uniqueDiagnostics(Run, false);
  FixSelection S = selectFixes(Run, Diagnostics, /*FixErrors=*/false, false);
  ASSERT_EQ(S.Eligible.size(), 3u);
  EXPECT_TRUE(S.Eligible[0]);  // a.cpp
  EXPECT_FALSE(S.Eligible[1]); // broken.cpp
  EXPECT_TRUE(S.Eligible[2]);  // c.cpp
  EXPECT_EQ(S.Withheld, 1u);
  ASSERT_EQ(S.Reasons.size(), 1u);
  EXPECT_EQ(S.Reasons[0], "1 fix of '/p/broken.cpp' withheld: it has compiler "
                          "errors; fix them, or pass --fix-errors to apply its "
                          "fixes anyway");
  S = selectFixes(Run, Diagnostics, /*FixErrors=*/true, false);
  EXPECT_TRUE(S.Eligible[1]);
  EXPECT_TRUE(S.Reasons.empty());
}

// clang's own fix-its on errors (a typo correction: "did you mean
// 'torch::jit::attr::mat'?") are the broken unit's too: withheld without
// --fix-errors, as clang-tidy does.
TEST(FixSelectionTest, CompilerErrorFixItsNeedFixErrors) {
  Finding Typo = fixable("/p/broken.cpp", 7, "torch::jit::attr::mat");
  Typo.CheckId = "clang-diagnostic-error";
  Typo.Severity = "error";
  model::RunResult Run;
  Run.Units = {
      unit("/p/broken.cpp", {}, TranslationUnitResult::Status::CompileErrors)};
  Run.Units[0].CompilerErrors = {Typo};
  auto Diagnostics = model::uniqueDiagnostics(Run, /*WithCompilerErrors=*/true);
  ASSERT_EQ(Diagnostics.size(), 1u);
  FixSelection S = selectFixes(Run, Diagnostics, /*FixErrors=*/false, false);
  EXPECT_FALSE(S.Eligible[0]);
  EXPECT_EQ(S.Withheld, 1u);
  S = selectFixes(Run, Diagnostics, /*FixErrors=*/true, false);
  EXPECT_TRUE(S.Eligible[0]);
}

TEST(FixSelectionTest, AHeaderFixNeedsEveryReportingUnitCleanAndAgreeing) {
  Finding InHeader = fixable("/p/h.h", 5, "x");
  model::RunResult Run;
  Run.Units = {unit("/p/a.cpp", {InHeader}),
               unit("/p/b.cpp", {InHeader},
                    TranslationUnitResult::Status::CompileErrors)};
  auto Diagnostics = model::uniqueDiagnostics(Run, false);
  ASSERT_EQ(Diagnostics.size(), 1u);
  FixSelection S = selectFixes(Run, Diagnostics, false, false);
  EXPECT_FALSE(S.Eligible[0]);
  ASSERT_EQ(S.Reasons.size(), 1u);
  EXPECT_NE(S.Reasons[0].find("'/p/b.cpp' withheld"), std::string::npos);

  // Both clean but different edits for the same finding: neither is chosen.
  Run.Units = {unit("/p/a.cpp", {InHeader}),
               unit("/p/b.cpp", {fixable("/p/h.h", 5, "other")})};
  Diagnostics = model::uniqueDiagnostics(Run, false);
  S = selectFixes(Run, Diagnostics, false, false);
  EXPECT_FALSE(S.Eligible[0]);
  ASSERT_EQ(S.Reasons.size(), 1u);
  EXPECT_NE(S.Reasons[0].find("suggest different edits"), std::string::npos);

  // Both clean and the same: applied.
  Run.Units = {unit("/p/a.cpp", {InHeader}), unit("/p/b.cpp", {InHeader})};
  Diagnostics = model::uniqueDiagnostics(Run, false);
  S = selectFixes(Run, Diagnostics, false, false);
  EXPECT_TRUE(S.Eligible[0]);
  EXPECT_EQ(S.Withheld, 0u);
}

// Two units that see a shared header differently (two configurations of one
// check): each reports its own finding there, and their fixes overlap. The
// choice would depend on the order of the units: both are withheld, and the
// reason names both units. Overlapping fixes that one unit reports together
// are left to the planner (first applied, the other reported).
TEST(FixSelectionTest, OverlappingFixesFromDifferentViewsAreBothWithheld) {
  Finding Two = fixable("/p/h.h", 5, "workers(2)");
  Two.Message = "add workers(2)";
  Finding Eight = fixable("/p/h.h", 5, "workers(8)");
  Eight.Message = "add workers(8)";
  Finding Elsewhere = fixable("/p/h.h", 40, "x");
  Elsewhere.Message = "elsewhere";
  model::RunResult Run;
  Run.Units = {unit("/p/b.cpp", {Eight, Elsewhere}), unit("/p/a.cpp", {Two})};
  auto Diagnostics = model::uniqueDiagnostics(Run, false);
  ASSERT_EQ(Diagnostics.size(), 3u);
  FixSelection S = selectFixes(Run, Diagnostics, false, false);
  EXPECT_FALSE(S.Eligible[0]);
  EXPECT_FALSE(S.Eligible[1]);
  EXPECT_TRUE(S.Eligible[2]);
  EXPECT_EQ(S.Withheld, 2u);
  ASSERT_EQ(S.Reasons.size(), 1u);
  EXPECT_EQ(S.Reasons[0],
            "fixes of [libtorch-a] and [libtorch-a] in '/p/h.h' at line 0 "
            "withheld: units '/p/a.cpp' and '/p/b.cpp' suggest overlapping "
            "edits there, each for a finding the other does not report (they "
            "see the file differently: another configuration or other "
            "macros); fix it by hand");

  // One unit reports both: the planner's rule, not this one.
  Run.Units = {unit("/p/a.cpp", {Two, Eight})};
  Diagnostics = model::uniqueDiagnostics(Run, false);
  S = selectFixes(Run, Diagnostics, false, false);
  EXPECT_TRUE(S.Eligible[0]);
  EXPECT_TRUE(S.Eligible[1]);
  EXPECT_TRUE(S.Reasons.empty());
}

} // namespace fix_selection_test
