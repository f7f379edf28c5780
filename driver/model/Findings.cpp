//===--- Findings.cpp - What one run of libtorch-tidy found ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "model/Findings.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace libtorch_tidy::model {

void dropEdits(TranslationUnitResult &Unit) {
  for (std::vector<Finding> *Diagnostics :
       {&Unit.Findings, &Unit.CompilerErrors})
    for (Finding &F : *Diagnostics) {
      F.Fixes.clear();
      for (Note &N : F.Notes)
        N.Fixes.clear();
    }
}

std::string libTorchVersions(llvm::ArrayRef<std::string> Versions) {
  std::vector<llvm::StringRef> All;
  for (const std::string &Listed : Versions) {
    llvm::SmallVector<llvm::StringRef, 2> Parts;
    llvm::StringRef(Listed).split(Parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Part : Parts)
      if (!Part.trim().empty())
        All.push_back(Part.trim());
  }
  // 1.13.1 before 2.1.0 before 2.15.0: by the numbers, then as text.
  const auto Numbers = [](llvm::StringRef Version) {
    llvm::SmallVector<llvm::StringRef, 4> Fields;
    Version.split(Fields, '.');
    std::vector<unsigned long long> Out;
    for (llvm::StringRef Field : Fields) {
      unsigned long long N = 0;
      Field.take_while(llvm::isDigit).getAsInteger(10, N);
      Out.push_back(N);
    }
    return Out;
  };
  llvm::sort(All, [&](llvm::StringRef A, llvm::StringRef B) {
    return std::make_pair(Numbers(A), A) < std::make_pair(Numbers(B), B);
  });
  All.erase(std::unique(All.begin(), All.end()), All.end());
  return llvm::join(All, ", ");
}

FindingKey keyOf(const Finding &F) {
  return {F.CheckId, F.Where.AbsoluteFile, F.Where.Offset, F.Message};
}

std::vector<ReportedDiagnostic> uniqueDiagnostics(const RunResult &Run,
                                                  bool WithCompilerErrors) {
  std::vector<ReportedDiagnostic> All;
  std::set<FindingKey> Seen;
  auto Add = [&](const Finding &F, const TranslationUnitResult &Unit) {
    if (Seen.insert(keyOf(F)).second)
      All.push_back({&F, &Unit});
  };
  for (const TranslationUnitResult &Unit : Run.Units) {
    for (const Finding &F : Unit.Findings)
      Add(F, Unit);
    if (WithCompilerErrors)
      for (const Finding &F : Unit.CompilerErrors)
        Add(F, Unit);
  }
  std::stable_sort(
      All.begin(), All.end(),
      [](const ReportedDiagnostic &A, const ReportedDiagnostic &B) {
        const Finding &FA = *A.Diagnostic, &FB = *B.Diagnostic;
        return std::tie(FA.Where.AbsoluteFile, FA.Where.Offset, FA.CheckId,
                        FA.Message) < std::tie(FB.Where.AbsoluteFile,
                                               FB.Where.Offset, FB.CheckId,
                                               FB.Message);
      });
  return All;
}

std::vector<Finding> uniqueFindings(const RunResult &Run) {
  std::vector<Finding> All;
  for (const ReportedDiagnostic &R :
       uniqueDiagnostics(Run, /*WithCompilerErrors=*/false))
    All.push_back(*R.Diagnostic);
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

std::string contentDigest(llvm::StringRef Content) {
  std::array<uint8_t, 32> Hash =
      llvm::SHA256::hash(llvm::arrayRefFromStringRef(Content));
  return llvm::toHex(Hash, /*LowerCase=*/true);
}

} // namespace libtorch_tidy::model
