//===--- LibTorchCheck.cpp - What every libtorch check shares -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LibTorchCheck.h"
#include "Catalog.h"
#include "analysis/devices/HostSyncOperations.h"
#include "clang-compat/ClangCompat.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "utils/SourceText.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::libtorch {

namespace {

/// The option's value. It is read outside OptionsView (it is no check's
/// own key), so it is listed for --verify-config here.
std::string summaryFileOption(ClangTidyContext &Context) {
  if (llvm::StringSet<> *Collector = Context.getOptionsCollector())
    Collector->insert(SummaryFileOption);
  const ClangTidyOptions::OptionMap &Map = Context.getOptions().CheckOptions;
  auto It = Map.find(SummaryFileOption);
  return It == Map.end() ? std::string() : It->second.Value;
}

std::vector<std::string> namesIn(StringRef List) {
  std::vector<StringRef> Names = tidy::utils::options::parseStringList(List);
  return std::vector<std::string>(Names.begin(), Names.end());
}

} // namespace

LibTorchCheck::LibTorchCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawGuardMacros(Options.getLocalOrGlobal("PeriodicGuardMacros", "")),
      GuardMacros(namesIn(RawGuardMacros)),
      ReadsSummaries(libtorch::readsSummaries(Name)),
      SummaryFile(summaryFileOption(*Context)) {}

void LibTorchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  if (asksAboutPeriodicGuards())
    Options.store(Opts, "PeriodicGuardMacros", RawGuardMacros);
  if (readsSummaries())
    Opts[SummaryFileOption] = ClangTidyOptions::ClangTidyValue(SummaryFile);
}

std::unique_ptr<analysis::SummaryTable>
LibTorchCheck::readSummaries(ASTContext &Context) {
  llvm::Expected<analysis::SummaryTable> Table =
      analysis::SummaryTable::read(SummaryFile, Context.getSourceManager());
  if (Table)
    return std::make_unique<analysis::SummaryTable>(std::move(*Table));
  // Why it cannot be read may quote the file (a unit's name in it).
  configurationDiag("%0 '%1': %2")
      << SummaryFileOption << SummaryFile
      << utils::printable(llvm::toString(Table.takeError()));
  return std::make_unique<analysis::SummaryTable>();
}

void LibTorchCheck::notePathToStep(const analysis::StepPath &Path,
                                   bool PerStep) {
  for (const CallExpr *Site : Path.Calls) {
    const auto *Dispatch =
        llvm::find_if(Path.Dispatches, [Site](const auto &Dispatched) {
          return Dispatched.first == Site;
        });
    if (Dispatch == Path.Dispatches.end()) {
      diag(compat::beginOf(*Site),
           "called here on every %select{evaluation batch|training step}0",
           DiagnosticIDs::Note)
          << PerStep;
      continue;
    }
    // A virtual call: say which override the finding is in, and when it
    // runs.
    const CXXMethodDecl *Override = Dispatch->second;
    diag(compat::beginOf(*Site),
         "called here on every %select{evaluation batch|training step}0: a "
         "virtual call, which runs '%1()' when the object is a '%2'",
         DiagnosticIDs::Note)
        << PerStep << Override->getQualifiedNameAsString()
        << Override->getParent()->getNameAsString();
  }
  // Why the loop trains, when the reason is in another unit's code.
  if (const std::optional<analysis::UpdateElsewhere> &Update = Path.LoopUpdate)
    diag(analysis::calledNameLoc(*Update->Call),
         "'%0', defined in another translation unit, %select{calls "
         "backward()|calls an optimizer's step()|runs a training step: it "
         "calls backward() and an optimizer's step()}1, so this loop trains",
         DiagnosticIDs::Note)
        << Update->Call->getDirectCallee()->getQualifiedNameAsString() + "()"
        << (Update->Backward && Update->Step ? 2
            : Update->Step                   ? 1
                                             : 0);
  const FunctionDecl *Step = Path.StepFunction;
  if (!Step)
    return;
  const auto *Method = dyn_cast<CXXMethodDecl>(Step);
  const bool IsLambda = Method && Method->getParent()->isLambda();
  diag(IsLambda ? Method->getParent()->getLocation() : Step->getLocation(),
       "%select{'%1'|this lambda}0 runs a training step: it calls backward() "
       "and an optimizer's step(), with no loop around them, and nothing in "
       "this translation unit calls it, so each call from outside is one "
       "step",
       DiagnosticIDs::Note)
      << IsLambda << (IsLambda ? std::string() : Step->getNameAsString());
}

void LibTorchCheck::diagnoseCallElsewhere(
    const CallExpr &Call, llvm::StringRef Does, llvm::StringRef Fix,
    const analysis::StepPath &Path, bool PerStep,
    llvm::ArrayRef<analysis::SummarizedCall> Calls,
    const analysis::SummarizedPlace &Fact, const std::string &What,
    ASTContext &Context) {
  const FunctionDecl &Callee = *Call.getDirectCallee();
  const SourceLocation Loc = analysis::calledNameLoc(Call);
  diag(Loc, "'%0', defined in another translation unit, %1 on every "
            "%select{evaluation batch|training step}2; %3")
      << utils::calledName(&Callee, isa<CXXMemberCallExpr>(Call),
                           Context.getPrintingPolicy())
      << utils::printable(Does) << PerStep << utils::printable(Fix);
  notePathToStep(Path, PerStep);
  noteChainElsewhere(Callee, Loc, Calls, Fact, What, Context);
}

void LibTorchCheck::noteChainElsewhere(
    const FunctionDecl &Callee, SourceLocation CallLoc,
    llvm::ArrayRef<analysis::SummarizedCall> Calls,
    const analysis::SummarizedPlace &Fact, const std::string &What,
    ASTContext &Context) {
  const std::string &Project = summaryTable(Context).project();
  const auto NoteAt = [&](const analysis::SummarizedPlace &Place,
                          const std::string &Happens) {
    // A place outside the project is no place of its summaries: nothing
    // of it is shown, not even its name, and the file is named once.
    if (!analysis::inSummaryProject(Place.File, Project)) {
      if (summaryTable(Context).firstNoteOutsideProject())
        configurationDiag("%0 '%1' points outside the project '%2'; those "
                          "notes were left out: use summaries exported "
                          "from this project")
            << SummaryFileOption << SummaryFile << Project;
      return;
    }
    const SourceLocation At =
        analysis::locate(Place, Context.getSourceManager());
    // Names and places come from the summary file: shown escaped.
    if (At.isValid())
      diag(At, "%0 here", DiagnosticIDs::Note) << utils::printable(Happens);
    else
      diag(CallLoc,
           "%0 at %1:%2 when the summaries were written; that file "
           "has changed since: export them again",
           DiagnosticIDs::Note)
          << utils::printable(Happens) << utils::printable(Place.File)
          << Place.Line;
  };
  std::string Caller = Callee.getQualifiedNameAsString();
  for (const analysis::SummarizedCall &Step : Calls) {
    NoteAt(Step.Place, "'" + Caller + "' calls '" + Step.Name + "'");
    Caller = Step.Name;
  }
  NoteAt(Fact, What);
}

} // namespace clang::tidy::libtorch
