//===--- RunStatistics.cpp - Suppression counts and check profiles --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/RunStatistics.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace llvm;

namespace libtorch_tidy::report {

void printSuppressionStats(const model::RunResult &Run, raw_ostream &OS) {
  model::SuppressedCounts Total;
  for (const model::TranslationUnitResult &Unit : Run.Units) {
    Total.NoLint += Unit.Suppressed.NoLint;
    Total.NonUserCode += Unit.Suppressed.NonUserCode;
    Total.LineFilter += Unit.Suppressed.LineFilter;
    Total.CheckFilter += Unit.Suppressed.CheckFilter;
    Total.UnparsedCode += Unit.Suppressed.UnparsedCode;
  }
  unsigned All = Total.NoLint + Total.NonUserCode + Total.LineFilter +
                 Total.CheckFilter + Total.UnparsedCode;
  if (!All)
    return;
  OS << "Suppressed " << All << " warnings (";
  StringRef Separator;
  auto Part = [&](unsigned Count, StringRef What) {
    if (!Count)
      return;
    OS << Separator << Count << What;
    Separator = ", ";
  };
  Part(Total.NonUserCode, " in non-user code");
  Part(Total.LineFilter, " due to line filter");
  Part(Total.NoLint, " NOLINT");
  Part(Total.CheckFilter, " with check filters");
  Part(Total.UnparsedCode, " where the code did not parse");
  OS << ").\n";
  if (Total.NonUserCode)
    OS << "Use -header-filter=.* to display errors from all non-system "
          "headers.\n";
  if (Total.UnparsedCode)
    OS << "Fix the compiler errors (or make the missing headers available) "
          "to see them.\n";
}

void printCheckProfile(const model::RunResult &Run, raw_ostream &OS) {
  std::map<std::string, double> Total;
  for (const model::TranslationUnitResult &Unit : Run.Units)
    for (const auto &[Check, Seconds] : Unit.CheckProfile)
      Total[Check] += Seconds;
  std::vector<std::pair<std::string, double>> Sorted(Total.begin(),
                                                     Total.end());
  std::stable_sort(
      Sorted.begin(), Sorted.end(),
      [](const auto &A, const auto &B) { return A.second > B.second; });
  double Sum = 0;
  for (const auto &Entry : Sorted)
    Sum += Entry.second;
  OS << "===-------------------------------------------------------------"
        "------------===\n"
     << "                          clang-tidy checks profiling\n"
     << "===-------------------------------------------------------------"
        "------------===\n"
     << "  Total Execution Time: " << format("%.4f", Sum)
     << " seconds (wall clock, " << Run.Units.size()
     << (Run.Units.size() == 1 ? " unit" : " units") << ")\n\n"
     << "   ---Wall Time---  --- Name ---\n";
  for (const auto &[Check, Seconds] : Sorted)
    OS << format("   %8.4f (%5.1f%%)", Seconds,
                 Sum > 0 ? 100 * Seconds / Sum : 0.0)
       << "  " << Check << "\n";
  OS << format("   %8.4f (100.0%%)", Sum) << "  Total\n";
}

} // namespace libtorch_tidy::report
