//===--- FixSelection.cpp - Which findings' fixes --fix may apply ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "fix/FixSelection.h"
#include "fix/FixApplier.h"
#include "report/Wording.h"
#include <map>
#include <set>

using libtorch_tidy::model::Finding;
using libtorch_tidy::model::Replacement;
using libtorch_tidy::model::TranslationUnitResult;

namespace libtorch_tidy::fix {
namespace {

bool sameEdits(const std::vector<Replacement> *A,
               const std::vector<Replacement> *B) {
  if (!A || !B)
    return A == B;
  if (A->size() != B->size())
    return false;
  for (size_t I = 0; I < A->size(); ++I)
    if ((*A)[I].File != (*B)[I].File || (*A)[I].Offset != (*B)[I].Offset ||
        (*A)[I].Length != (*B)[I].Length || (*A)[I].Text != (*B)[I].Text)
      return false;
  return true;
}

using ReporterList = std::vector<
    std::pair<const TranslationUnitResult *, const std::vector<Replacement> *>>;

bool shareAUnit(const ReporterList &A, const ReporterList &B) {
  for (const auto &[UnitA, FixA] : A)
    for (const auto &[UnitB, FixB] : B)
      if (UnitA == UnitB)
        return true;
  return false;
}

/// Withholds the eligible fixes that overlap the eligible fix of a finding
/// that no unit reports together with theirs. Such findings come from units
/// that see a shared file differently (another configuration, other macros
/// before its #include); which one planFixes() kept would depend on the
/// order of the units, and the other would not come back in a second run
/// (its unit sees the fixed code, the first unit's configuration never
/// reports it). So neither is applied, and both units are named.
void withholdFixesOfDifferentViews(
    llvm::ArrayRef<model::ReportedDiagnostic> Diagnostics, bool FixNotes,
    std::map<model::FindingKey, ReporterList> &Reporters,
    FixSelection &Selection) {
  // Only fixes that edit a common file can overlap.
  std::map<std::string, std::vector<size_t>> ByFile;
  for (size_t I = 0; I < Diagnostics.size(); ++I)
    if (Selection.Eligible[I])
      for (const Replacement &R :
           *chosenFix(*Diagnostics[I].Diagnostic, FixNotes))
        if (ByFile[R.File].empty() || ByFile[R.File].back() != I)
          ByFile[R.File].push_back(I);
  std::set<std::pair<size_t, size_t>> Pairs;
  for (const auto &[File, Indices] : ByFile)
    for (size_t A = 0; A < Indices.size(); ++A)
      for (size_t B = A + 1; B < Indices.size(); ++B)
        Pairs.emplace(Indices[A], Indices[B]);
  std::vector<bool> Withhold(Diagnostics.size(), false);
  for (const auto &[I, J] : Pairs) {
    const Finding &FI = *Diagnostics[I].Diagnostic;
    const Finding &FJ = *Diagnostics[J].Diagnostic;
    if (!fixesOverlap(*chosenFix(FI, FixNotes), *chosenFix(FJ, FixNotes)) ||
        shareAUnit(Reporters[model::keyOf(FI)], Reporters[model::keyOf(FJ)]))
      continue;
    Withhold[I] = Withhold[J] = true;
    Selection.Reasons.push_back(
        "fixes of [" + FI.CheckId + "] and [" + FJ.CheckId + "] in '" +
        FI.Where.AbsoluteFile + "' at line " +
        std::to_string(FI.Where.Begin.Line) + " withheld: units '" +
        Diagnostics[I].Unit->MainFile + "' and '" +
        Diagnostics[J].Unit->MainFile +
        "' suggest overlapping edits there, each for a finding the other "
        "does not report (they see the file differently: another "
        "configuration or other macros); fix it by hand");
  }
  for (size_t I = 0; I < Withhold.size(); ++I)
    if (Withhold[I]) {
      Selection.Eligible[I] = false;
      ++Selection.Withheld;
    }
}

} // namespace

FixSelection selectFixes(const model::RunResult &Run,
                         llvm::ArrayRef<model::ReportedDiagnostic> Diagnostics,
                         bool FixErrors, bool FixNotes) {
  // Every unit that reported each finding, with the fix it suggested.
  std::map<model::FindingKey, ReporterList> Reporters;
  // Compiler errors too: clang's own fix-its (a typo correction to some
  // LibTorch name) are the unit's, and withheld with its findings' unless
  // --fix-errors, as clang-tidy does.
  for (const TranslationUnitResult &Unit : Run.Units)
    for (const std::vector<Finding> *Diagnosed :
         {&Unit.Findings, &Unit.CompilerErrors})
      for (const Finding &F : *Diagnosed)
        Reporters[model::keyOf(F)].emplace_back(&Unit, chosenFix(F, FixNotes));

  FixSelection Selection;
  Selection.Eligible.assign(Diagnostics.size(), false);
  std::map<const TranslationUnitResult *, unsigned> WithheldByUnit;
  for (size_t I = 0; I < Diagnostics.size(); ++I) {
    const Finding &F = *Diagnostics[I].Diagnostic;
    const std::vector<Replacement> *Fix = chosenFix(F, FixNotes);
    if (!Fix)
      continue;
    const TranslationUnitResult *Broken = nullptr;
    const TranslationUnitResult *Disagreeing = nullptr;
    for (const auto &[Unit, Suggested] : Reporters[model::keyOf(F)]) {
      if (Unit->State != TranslationUnitResult::Status::Analyzed &&
          !FixErrors && !Broken)
        Broken = Unit;
      if (!sameEdits(Suggested, Fix) && !Disagreeing)
        Disagreeing = Unit;
    }
    if (Broken) {
      ++WithheldByUnit[Broken];
      ++Selection.Withheld;
      continue;
    }
    if (Disagreeing) {
      ++Selection.Withheld;
      Selection.Reasons.push_back(
          "fix of [" + F.CheckId + "] in '" + F.Where.AbsoluteFile +
          "' at line " + std::to_string(F.Where.Begin.Line) +
          " withheld: units '" + Diagnostics[I].Unit->MainFile + "' and '" +
          Disagreeing->MainFile +
          "' suggest different edits there; fix it by hand");
      continue;
    }
    Selection.Eligible[I] = true;
  }
  withholdFixesOfDifferentViews(Diagnostics, FixNotes, Reporters, Selection);
  // In the order of the units, which does not depend on -j.
  for (const TranslationUnitResult &Unit : Run.Units) {
    auto It = WithheldByUnit.find(&Unit);
    if (It == WithheldByUnit.end())
      continue;
    Selection.Reasons.push_back(
        report::countOf(It->second, "fix", "fixes") + " of '" + Unit.MainFile +
        "' withheld: " +
        (Unit.State == TranslationUnitResult::Status::CompileErrors
             ? "it has compiler errors"
             : "it could not be analyzed") +
        "; fix them, or pass --fix-errors to apply its fixes anyway");
  }
  return Selection;
}

} // namespace libtorch_tidy::fix
