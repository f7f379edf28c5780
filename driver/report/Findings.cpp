//===--- Findings.cpp - What one run of libtorch-tidy found ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Findings.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace libtorch_tidy::report {

std::vector<Finding> uniqueFindings(const RunResult &Run) {
  std::vector<Finding> All;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  for (const TranslationUnitResult &Unit : Run.Units)
    for (const Finding &F : Unit.Findings)
      if (Seen.emplace(F.CheckId, F.Where.AbsoluteFile, F.Where.Offset,
                       F.Message)
              .second)
        All.push_back(F);
  std::stable_sort(
      All.begin(), All.end(), [](const Finding &A, const Finding &B) {
        return std::tie(A.Where.AbsoluteFile, A.Where.Offset, A.CheckId) <
               std::tie(B.Where.AbsoluteFile, B.Where.Offset, B.CheckId);
      });
  return All;
}

std::vector<const TranslationUnitResult *>
unitsWithProblems(const RunResult &Run) {
  std::vector<const TranslationUnitResult *> Problems;
  for (const TranslationUnitResult &Unit : Run.Units)
    if (Unit.State != TranslationUnitResult::Status::Analyzed)
      Problems.push_back(&Unit);
  return Problems;
}

} // namespace libtorch_tidy::report
