//===--- ParseRecovery.cpp - Findings in code that did not parse ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/ParseRecovery.h"
#include "Catalog.h"
#include "report/Wording.h"
#include "run/RecoveryFunctionGraph.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <optional>

using namespace clang;
using namespace llvm;

namespace libtorch_tidy::run {

void recoverFromMissingHeaders(DiagnosticsEngine &Diagnostics) {
  Diagnostics.setSeverity(diag::err_pp_file_not_found, diag::Severity::Error,
                          SourceLocation());
}

void ErrorRecorder::BeginSourceFile(const LangOptions &Options,
                                    const Preprocessor *PP) {
  Inner.BeginSourceFile(Options, PP);
}
void ErrorRecorder::EndSourceFile() { Inner.EndSourceFile(); }
void ErrorRecorder::finish() { Inner.finish(); }
bool ErrorRecorder::IncludeInDiagnosticCounts() const {
  return Inner.IncludeInDiagnosticCounts();
}
void ErrorRecorder::clear() {
  DiagnosticConsumer::clear();
  Inner.clear();
}

void ErrorRecorder::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                     const clang::Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level >= DiagnosticsEngine::Error) {
    const unsigned Id = Info.getID();
    if (Id == diag::err_pp_file_not_found ||
        Id == diag::err_pp_file_not_found_angled_include_not_fatal ||
        Id == diag::err_pp_file_not_found_typo_not_fatal) {
      if (FirstMissingInclude.isInvalid())
        FirstMissingInclude = Info.getLocation();
      std::string Header = Info.getArgStdStr(0);
      if (!is_contained(MissingHeaders, Header))
        MissingHeaders.push_back(std::move(Header));
    } else if (Id == diag::fatal_too_many_errors ||
               Info.getLocation().isInvalid()) {
      Unbounded = true;
    } else {
      CodeErrors.push_back(Info.getLocation());
    }
  }
  Inner.HandleDiagnostic(Level, Info);
}

namespace {

/// The innermost of \p Ranges that holds \p Offset of \p File, or npos.
template <typename GetRange, typename Container>
size_t innermost(const Container &Items, GetRange Get, FileID File,
                 unsigned Offset) {
  size_t Best = StringRef::npos;
  for (size_t I = 0; I < Items.size(); ++I) {
    const FunctionGraph::Range &R = Get(Items[I]);
    if (!R.holds(File, Offset))
      continue;
    if (Best == StringRef::npos ||
        R.End - R.Begin < Get(Items[Best]).End - Get(Items[Best]).Begin)
      Best = I;
  }
  return Best;
}

/// Where the unit did not parse: its errors, and the calls whose overload
/// set a missing header may have completed (the file comment says which).
std::vector<SourceLocation> unparsedLocations(const SourceManager &SM,
                                              const FunctionGraph &Graph,
                                              const ErrorRecorder &Errors) {
  std::vector<SourceLocation> Unparsed = Errors.CodeErrors;
  if (Errors.FirstMissingInclude.isValid())
    for (SourceLocation Call : Graph.OpenNameLibraryCalls)
      if (SM.isBeforeInTranslationUnit(
              SM.getExpansionLoc(Errors.FirstMissingInclude),
              SM.getExpansionLoc(Call)))
        Unparsed.push_back(Call);
  return Unparsed;
}

/// The broken functions: those that hold an error, and the functions of a
/// class that holds one outside them. An error outside every function (in a
/// class or at namespace scope: a declaration of an undeclared type) breaks
/// every function that comes after it in the unit too: C++ uses only what
/// was declared before, and the uses of an invalid declaration vanish
/// without errors of their own. Nothing when an error is in a system
/// header, which breaks everything.
std::optional<std::vector<bool>>
brokenFunctions(const SourceManager &SM, const FunctionGraph &Graph,
                ArrayRef<SourceLocation> Unparsed) {
  const auto BodyOf =
      [](const FunctionGraph::Function &F) -> const FunctionGraph::Range & {
    return F.Body;
  };
  const auto Itself =
      [](const FunctionGraph::Range &R) -> const FunctionGraph::Range & {
    return R;
  };
  std::vector<bool> IsBroken(Graph.Functions.size(), false);
  SourceLocation FirstOutside;
  for (SourceLocation Error : Unparsed) {
    const SourceLocation Where = SM.getExpansionLoc(Error);
    if (SM.isInSystemHeader(Where))
      return std::nullopt;
    auto [File, Offset] = SM.getDecomposedLoc(Where);
    const size_t Function = innermost(Graph.Functions, BodyOf, File, Offset);
    if (Function != StringRef::npos) {
      IsBroken[Function] = true;
      continue;
    }
    if (FirstOutside.isInvalid() ||
        SM.isBeforeInTranslationUnit(Where, FirstOutside))
      FirstOutside = Where;
    const size_t Class = innermost(Graph.Classes, Itself, File, Offset);
    if (Class == StringRef::npos)
      continue;
    for (size_t I = 0; I < Graph.Functions.size(); ++I)
      if (Graph.Classes[Class].holds(Graph.Functions[I].Body))
        IsBroken[I] = true;
  }
  if (FirstOutside.isValid())
    for (size_t I = 0; I < Graph.Functions.size(); ++I)
      if (SM.isBeforeInTranslationUnit(FirstOutside,
                                       Graph.Functions[I].Body.Start))
        IsBroken[I] = true;
  return IsBroken;
}

/// The functions reached from \p Seeds along \p Edges (each
/// function's neighbours by index), the seeds included.
std::vector<bool> closure(std::vector<bool> Seeds,
                          const std::vector<std::vector<size_t>> &Edges) {
  std::vector<size_t> Work;
  for (size_t I = 0; I < Seeds.size(); ++I)
    if (Seeds[I])
      Work.push_back(I);
  while (!Work.empty()) {
    const size_t I = Work.back();
    Work.pop_back();
    for (size_t Next : Edges[I])
      if (!Seeds[Next]) {
        Seeds[Next] = true;
        Work.push_back(Next);
      }
  }
  return Seeds;
}

} // namespace

ParseRecovery ParseRecovery::of(ASTContext &Context,
                                const ErrorRecorder &Errors) {
  ParseRecovery Result;
  Result.MissingHeaders = Errors.MissingHeaders;
  Result.Everything = Errors.Unbounded;
  if (Result.Everything ||
      (Errors.CodeErrors.empty() && Errors.FirstMissingInclude.isInvalid()))
    return Result;

  const SourceManager &SM = Context.getSourceManager();
  FunctionGraph Graph(Context);
  std::vector<SourceLocation> Unparsed = unparsedLocations(SM, Graph, Errors);
  if (Unparsed.empty())
    return Result;
  std::optional<std::vector<bool>> IsBroken =
      brokenFunctions(SM, Graph, Unparsed);
  if (!IsBroken) {
    Result.Everything = true;
    return Result;
  }

  // Down: the broken functions and what they call, directly or not.
  // Reaching: the functions from which a broken one can be reached.
  const size_t N = Graph.Functions.size();
  std::vector<std::vector<size_t>> Callees(N), Callers(N);
  for (size_t I = 0; I < N; ++I)
    for (const FunctionGraph::Call &C : Graph.Functions[I].Calls) {
      auto It = Graph.IndexOf.find(C.Callee);
      if (It == Graph.IndexOf.end())
        continue;
      Callees[I].push_back(It->second);
      Callers[It->second].push_back(I);
    }
  const std::vector<bool> Down = closure(*IsBroken, Callees);
  const std::vector<bool> Reaching = closure(*IsBroken, Callers);

  const auto SpanOf = [&](const FunctionGraph::Range &R) {
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(R.File);
    return Span{Entry ? Entry->getName().str() : std::string(), R.Begin, R.End};
  };
  for (size_t I = 0; I < N; ++I) {
    if (Down[I])
      Result.Broken.push_back(SpanOf(Graph.Functions[I].Body));
    for (const FunctionGraph::Call &C : Graph.Functions[I].Calls) {
      auto It = Graph.IndexOf.find(C.Callee);
      if (It != Graph.IndexOf.end() &&
          (Down[It->second] || Reaching[It->second]))
        Result.Broken.push_back(SpanOf(C.Where));
    }
  }
  return Result;
}

void ParseRecovery::merge(ParseRecovery Other) {
  Everything = Everything || Other.Everything;
  for (Span &S : Other.Broken)
    Broken.push_back(std::move(S));
  for (std::string &Header : Other.MissingHeaders)
    if (!is_contained(MissingHeaders, Header))
      MissingHeaders.push_back(std::move(Header));
}

bool ParseRecovery::mayBeInvented(
    StringRef CheckId, StringRef File, unsigned Offset,
    function_ref<std::string(StringRef)> AbsolutePath) const {
  if (Everything)
    return true;
  if (Broken.empty())
    return false;
  const clang::tidy::libtorch::CheckInfo *Check =
      clang::tidy::libtorch::findCheck(CheckId);
  if (Check && Check->Evidence == clang::tidy::libtorch::CheckEvidence::Unit)
    return true;
  return any_of(Broken, [&](const Span &S) {
    return S.Begin <= Offset && Offset < S.End && AbsolutePath(S.File) == File;
  });
}

unsigned
leaveOutRecoveredFindings(model::TranslationUnitResult &Unit,
                          const ParseRecovery &Recovery,
                          function_ref<std::string(StringRef)> AbsolutePath) {
  // Each file name resolved once (it may stat the file), not once per
  // finding and span.
  StringMap<std::string> Resolved;
  const auto Absolute = [&](StringRef File) -> std::string {
    auto [It, New] = Resolved.try_emplace(File);
    if (New)
      It->second = AbsolutePath(File);
    return It->second;
  };
  const size_t Before = Unit.Findings.size();
  llvm::erase_if(Unit.Findings, [&](const model::Finding &F) {
    // The compiler's own warnings are about what it parsed.
    if (StringRef(F.CheckId).starts_with("clang-diagnostic-"))
      return false;
    return Recovery.mayBeInvented(F.CheckId, F.Where.AbsoluteFile,
                                  F.Where.Offset, Absolute);
  });
  return Before - Unit.Findings.size();
}

std::string compileErrorsSummary(const model::TranslationUnitResult &Unit) {
  std::string Summary = report::countOf(Unit.CompilerErrors.size(),
                                        "compiler error", "compiler errors");
  const std::vector<std::string> &Missing = Unit.MissingHeaders;
  if (Missing.empty())
    return Summary;
  Summary += "; analyzed in part: ";
  for (size_t I = 0; I < Missing.size(); ++I)
    Summary += (I ? ", '" : "'") + Missing[I] + "'";
  Summary += Missing.size() == 1 ? " was not found" : " were not found";
  return Summary;
}

} // namespace libtorch_tidy::run
