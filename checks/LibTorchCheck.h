//===--- LibTorchCheck.h - What every libtorch check shares -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_LIBTORCHCHECK_H
#define LIBTORCH_TIDY_CHECKS_LIBTORCHCHECK_H

#include "analysis/devices/ModulePlacement.h"
#include "analysis/gradients/ModuleModes.h"
#include "analysis/program/CudaTrainingFacts.h"
#include "analysis/program/ProgramEntry.h"
#include "analysis/steps/BatchScope.h"
#include "analysis/steps/TrainingFacts.h"
#include "analysis/summaries/SummaryTable.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "utils/PerUnit.h"
#include "utils/UserCodeMatchFinder.h"
#include <string>
#include <vector>

namespace clang::tidy::libtorch {

/// The base of the `libtorch` checks: LibTorch needs C++17, and the facts
/// about a translation unit that checks ask (the training-loop model, the
/// device facts, ...) are built on first use and dropped at the end of the
/// translation unit, through the accessors below; so is the index of user
/// code's parents that their walks up the AST use instead of
/// `ASTContext::getParents` (utils/UserCode.h says why). A check keeps
/// its own per-unit state (what it already reported) in an
/// utils::PerUnit of unitScope(), never in a member it clears by hand.
///
/// The `PeriodicGuardMacros` option (macros whose expansion is a periodic
/// guard, like `LOG_EVERY_N`) is read here, once, the check's own key
/// first and then the global one, and reaches the training-loop model of
/// every check that says it asks about periodic guards
/// (asksAboutPeriodicGuards).
///
/// The checks never report outside user code, so their matchers run over
/// user code only (utils/UserCodeMatchFinder.h): a check registers them
/// in registerUserCodeMatchers, not registerMatchers.
class LibTorchCheck : public ClangTidyCheck {
public:
  LibTorchCheck(StringRef Name, ClangTidyContext *Context);
  void registerMatchers(ast_matchers::MatchFinder *Finder) final {
    registerUserCodeMatchers(&UserCode.attach(*Finder));
  }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus17;
  }
  void onEndOfTranslationUnit() final { Unit.end(); }
  /// Stores PeriodicGuardMacros for a check that asks about periodic
  /// guards; a check with options of its own calls this first.
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  /// The check's matchers, run on the nodes of user code.
  virtual void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) = 0;
  /// The check asks the training-loop model whether code runs on every
  /// step or iteration (perStep, perIteration, BatchScope, gradient
  /// events), so the PeriodicGuardMacros option applies to it.
  virtual bool asksAboutPeriodicGuards() const { return false; }

  /// The check reads the summaries of the project's other units
  /// (summaryTable, and its training-loop model), so the
  /// `libtorch-tidy.SummaryFile` option applies to it (Catalog.def says
  /// which checks do).
  bool readsSummaries() const { return ReadsSummaries; }

  /// Where a check's own per-unit state lives.
  utils::UnitScope &unitScope() { return Unit; }

  const utils::UserCodeParents &parents(ASTContext &Context) {
    return Parents.get(Context);
  }
  analysis::TrainingFacts &trainingFacts(ASTContext &Context) {
    return Facts.get(Context);
  }
  analysis::CudaTrainingFacts &cudaTrainingFacts(ASTContext &Context) {
    return CudaFacts.get(Context);
  }
  analysis::ProgramEntry &programEntry(ASTContext &Context) {
    return Program.get(Context);
  }
  analysis::BatchScope &batchScope(ASTContext &Context) {
    return Batches.get(Context);
  }
  analysis::ModulePlacement &modulePlacement(ASTContext &Context) {
    return Placement.get(Context);
  }
  /// Which modules the unit trains, evaluates and freezes.
  analysis::ModuleModes &moduleModes(ASTContext &Context) {
    return Modes.get(Context);
  }
  /// Whether `libtorch-tidy.SummaryFile` names a summary file.
  bool hasSummaries() const { return !SummaryFile.empty(); }
  /// The summary file's table (analysis/summaries/SummaryTable.h), read on
  /// first use in the unit; an empty one, reported once per unit as the
  /// configuration's error, when it cannot be read.
  const analysis::SummaryTable &summaryTable(ASTContext &Context) {
    return Summaries.get(Context);
  }

  /// The notes that say how a finding runs on every step or batch: one at
  /// each call on \p Path, and where it ends in a training-step function
  /// that no loop of this TU runs, why that function is one.
  void notePathToStep(const analysis::StepPath &Path, bool PerStep);

  /// A finding at \p Call, on every step or evaluation batch (\p Path,
  /// \p PerStep), of a function defined in another unit: "'f()', defined in
  /// another translation unit, <\p Does> on every training step; <\p Fix>",
  /// with the notes of the path and of the chain (noteChainElsewhere).
  void diagnoseCallElsewhere(const CallExpr &Call, llvm::StringRef Does,
                             llvm::StringRef Fix,
                             const analysis::StepPath &Path, bool PerStep,
                             llvm::ArrayRef<analysis::SummarizedCall> Calls,
                             const analysis::SummarizedPlace &Fact,
                             const std::string &What, ASTContext &Context);

  /// The notes of a finding at a call (at \p CallLoc) of \p Callee, defined
  /// in another unit, whose summary reaches a fact through \p Calls: one at
  /// each call on the way and one at \p Fact, saying \p What happens there.
  /// Each at its place only while its file still reads as summarized; else
  /// at the call, saying where the summary saw it.
  void noteChainElsewhere(const FunctionDecl &Callee, SourceLocation CallLoc,
                          llvm::ArrayRef<analysis::SummarizedCall> Calls,
                          const analysis::SummarizedPlace &Fact,
                          const std::string &What, ASTContext &Context);

private:
  std::unique_ptr<analysis::SummaryTable> readSummaries(ASTContext &Context);

  /// PeriodicGuardMacros as written, and its names.
  const std::string RawGuardMacros;
  const std::vector<std::string> GuardMacros;
  const bool ReadsSummaries;
  /// `libtorch-tidy.SummaryFile` (SummaryFileOption).
  const std::string SummaryFile;

  utils::UserCodeMatchFinder UserCode{*this};
  // Declared before the values it drops.
  utils::UnitScope Unit;
  utils::PerUnit<utils::UserCodeParents> Parents{Unit};
  utils::PerUnit<analysis::TrainingFacts> Facts{
      Unit, [this](ASTContext &Context) {
        analysis::SummaryAccess Summaries;
        if (readsSummaries() && hasSummaries())
          Summaries = [this, &Context]() -> const analysis::SummaryTable & {
            return summaryTable(Context);
          };
        return std::make_unique<analysis::TrainingFacts>(
            Context, parents(Context),
            asksAboutPeriodicGuards() ? llvm::ArrayRef<std::string>(GuardMacros)
                                      : llvm::ArrayRef<std::string>(),
            std::move(Summaries));
      }};
  utils::PerUnit<analysis::CudaTrainingFacts> CudaFacts{
      Unit, [this](ASTContext &Context) {
        return std::make_unique<analysis::CudaTrainingFacts>(
            Context, trainingFacts(Context));
      }};
  utils::PerUnit<analysis::ProgramEntry> Program{
      Unit, [this](ASTContext &Context) {
        return std::make_unique<analysis::ProgramEntry>(Context,
                                                        parents(Context));
      }};
  utils::PerUnit<analysis::BatchScope> Batches{
      Unit, [this](ASTContext &Context) {
        return std::make_unique<analysis::BatchScope>(
            Context, trainingFacts(Context).Loops);
      }};
  utils::PerUnit<analysis::ModulePlacement> Placement{
      Unit, [this](ASTContext &Context) {
        return std::make_unique<analysis::ModulePlacement>(Context,
                                                           parents(Context));
      }};
  utils::PerUnit<analysis::ModuleModes> Modes{
      Unit, [this](ASTContext &Context) {
        return std::make_unique<analysis::ModuleModes>(
            Context, trainingFacts(Context).Loops);
      }};
  utils::PerUnit<analysis::SummaryTable> Summaries{
      Unit, [this](ASTContext &Context) { return readSummaries(Context); }};
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_LIBTORCHCHECK_H
