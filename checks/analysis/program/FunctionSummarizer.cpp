//===--- FunctionSummarizer.cpp - What a unit's functions do --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/program/FunctionSummarizer.h"
#include "analysis/devices/ConstantHostData.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/HostTensorSources.h"
#include "analysis/steps/TrainingLoopModel.h"
#include "analysis/summaries/CalledElsewhere.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "utils/CallArguments.h"
#include "utils/SourceText.h"
#include "utils/UserCode.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// Where a fact of the summary was written, at the macro's use when a macro
/// wrote it, with the token there.
SummarizedPlace placeOf(SourceLocation Loc, const ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  SummarizedPlace Place;
  const SourceLocation At = SM.getExpansionLoc(Loc);
  const OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(At));
  if (!File)
    return Place;
  Place.File = File->getFileEntry().tryGetRealPathName().str();
  if (Place.File.empty())
    Place.File = File->getName().str();
  Place.Digest = placeDigest(SM.getBufferData(SM.getFileID(At)));
  Place.Line = SM.getExpansionLineNumber(At);
  Place.Column = SM.getExpansionColumnNumber(At);
  const unsigned Length =
      Lexer::MeasureTokenLength(At, SM, Context.getLangOpts());
  Place.Spelling = StringRef(SM.getCharacterData(At), Length).str();
  return Place;
}

/// Where a call names its callee: the member's name in `a.f()`, the name
/// after any qualifier in `ns::f()`.
SourceLocation calleeNameLoc(const CallExpr &Call) {
  if (isa<CXXMemberCallExpr>(Call))
    return Call.getExprLoc();
  if (const auto *Ref =
          dyn_cast<DeclRefExpr>(Call.getCallee()->IgnoreParenImpCasts()))
    return Ref->getLocation();
  return compat::beginOf(Call);
}

/// `x`, `n - 1`: an integer, not an enumerator naming a mode.
bool isPlainInteger(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  return E->getType()->isIntegerType() && !E->getType()->isBooleanType() &&
         !E->getType()->isEnumeralType();
}

/// \p S is `if (c) return;` (or a block ending so) with no else: what
/// follows it in its block runs only on some calls. An integer equality
/// (`if (n == 0) return;`, an empty input) leaves out one case, and what
/// follows runs on every other call; an error exit (`throw`, a call that
/// does not return) is no path of a working program.
bool returnsEarly(const Stmt *S) {
  const auto *If = dyn_cast<IfStmt>(S);
  if (!If || If->getElse() || !If->getCond())
    return false;
  if (!isa_and_nonnull<ReturnStmt>(utils::lastStatementOf(If->getThen())))
    return false;
  if (const auto *Equality =
          dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
      Equality && Equality->getOpcode() == BO_EQ &&
      isPlainInteger(Equality->getLHS()) && isPlainInteger(Equality->getRHS()))
    return false;
  return true;
}

/// Collects the facts of one function body that hold on every call.
class BodySummarizer {
public:
  BodySummarizer(ASTContext &Context, FunctionSummary &Summary,
                 const utils::UserCodeParents &Parents)
      : Context(Context), Summary(Summary), Parents(Parents) {}

  void walk(const Stmt *S, bool EveryCall) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && EveryCall)
      record(*Call);
    if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
      // After `if (!t.is_cuda()) return;` the rest runs only on the calls
      // the test lets through, which the summary cannot show.
      bool Every = EveryCall;
      for (const Stmt *Child : Block->body()) {
        walk(Child, Every);
        Every = Every && !returnsEarly(Child);
      }
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit(), EveryCall);
      walk(If->getConditionVariableDeclStmt(), EveryCall);
      walk(If->getCond(), EveryCall);
      walk(If->getThen(), false);
      walk(If->getElse(), false);
      return;
    }
    if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      walk(Switch->getInit(), EveryCall);
      walk(Switch->getCond(), EveryCall);
      walk(Switch->getBody(), false);
      return;
    }
    if (const auto *Choice = dyn_cast<AbstractConditionalOperator>(S)) {
      walk(Choice->getCond(), EveryCall);
      walk(Choice->getTrueExpr(), false);
      walk(Choice->getFalseExpr(), false);
      return;
    }
    if (const auto *Logical = dyn_cast<BinaryOperator>(S);
        Logical && Logical->isLogicalOp()) {
      walk(Logical->getLHS(), EveryCall);
      walk(Logical->getRHS(), false);
      return;
    }
    const bool Handler = isa<CXXCatchStmt>(S);
    for (const Stmt *Child : S->children())
      walk(Child, EveryCall && !Handler);
  }

  /// \p S waits otherwise than by a copy to the host or a print, or calls
  /// a function of the project, on some path (FunctionSummary's
  /// WaitsOtherwise).
  bool waitsOtherwise(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (std::optional<HostSync> Sync =
              syncOfCall(*Call, Context, Context.getLangOpts())) {
        if (Sync->Kind != SyncKind::CopyToHost &&
            Sync->Kind != SyncKind::Print &&
            !(Sync->Tensor && isProvablyHostTensor(Sync->Tensor, Context)) &&
            waitsWhereUsed(*Sync, Parents))
          return true;
      } else if (const FunctionDecl *Callee = Call->getDirectCallee();
                 Callee &&
                 utils::isUserCode(Callee, Context.getSourceManager())) {
        return true;
      }
    }
    for (const Stmt *Child : S->children())
      if (waitsOtherwise(Child))
        return true;
    return false;
  }

private:
  void record(const CallExpr &Call) {
    if (std::optional<HostSync> Sync =
            syncOfCall(Call, Context, Context.getLangOpts())) {
      // Already waited for where the tensor was copied to the host.
      if (Sync->Tensor && isProvablyHostTensor(Sync->Tensor, Context))
        return;
      // A tensor a device test keeps on the host, a pointer handed to a
      // kernel or a library: nothing waits.
      if (!waitsWhereUsed(*Sync, Parents))
        return;
      SummarizedSync Fact;
      Fact.Operation = Sync->Kind == SyncKind::Print ? "<<" : Sync->Name;
      Fact.Kind = Sync->Kind;
      Fact.Place = placeOf(Sync->Loc, Context);
      if (const ParmVarDecl *Read =
              Sync->Tensor ? parameterPlacingTensor(Sync->Tensor) : nullptr)
        Fact.Parameter = Read->getFunctionScopeIndex();
      if (!Fact.Place.File.empty())
        Summary.Syncs.push_back(std::move(Fact));
      return;
    }
    if (recordHostCopy(Call))
      return;
    const FunctionDecl *Callee = Call.getDirectCallee();
    if (!Callee || !utils::isUserCode(Callee, Context.getSourceManager()))
      return;
    // Another override may run: its summary would not be this one's.
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
        Method && Method->isVirtual())
      return;
    SummarizedCall Fact;
    Fact.Usr = usrOf(Callee);
    Fact.Name = Callee->getQualifiedNameAsString();
    Fact.Place = placeOf(calleeNameLoc(Call), Context);
    Fact.Arguments = argumentSources(Call, *Callee);
    if (!Fact.Usr.empty() && !Fact.Place.File.empty())
      Summary.Calls.push_back(std::move(Fact));
  }

  /// SummarizedCall::Arguments of \p Call, which calls \p Callee.
  std::vector<int> argumentSources(const CallExpr &Call,
                                   const FunctionDecl &Callee) {
    std::vector<int> Sources;
    for (unsigned I = 0; I < Callee.getNumParams(); ++I) {
      const Expr *Arg = utils::argumentOfParameter(&Call, I);
      int Source = SummarizedCall::UnknownArgument;
      if (Arg && isTensorType(Arg->getType())) {
        if (isProvablyHostTensor(Arg, Context))
          Source = SummarizedCall::HostArgument;
        else if (const ParmVarDecl *Given = parameterPlacingTensor(Arg))
          Source = static_cast<int>(Given->getFunctionScopeIndex());
      }
      Sources.push_back(Source);
    }
    while (!Sources.empty() &&
           Sources.back() == SummarizedCall::UnknownArgument)
      Sources.pop_back();
    return Sources;
  }

  /// `factory(...).to(device)` as libtorch-tensor-created-off-device
  /// reports it in its own unit: the factory written before a copy to a
  /// (maybe) CUDA device, no generator of the author's, no macro. True for
  /// every copy, recorded or not: a copy calls no function of the project.
  bool recordHostCopy(const CallExpr &Call) {
    const auto *Copy = dyn_cast<CXXMemberCallExpr>(&Call);
    if (!Copy || !isTensorDeviceCopy(Copy))
      return false;
    const auto *Member = dyn_cast<MemberExpr>(Copy->getCallee());
    std::optional<HostCopySource> Made = hostCopySource(*Copy, Context);
    if (!Member || Member->getMemberLoc().isMacroID() || !Made ||
        !copiesToGpu(*Copy, Context))
      return true;
    SummarizedHostCopy Fact;
    const CallExpr *Maker = Made->Factory;
    // A tensor rebuilt from constants on every call, whatever calls it.
    if (Made->What == HostCopySource::HostTensor)
      if (std::optional<ConstantHostTable> Table =
              constantHostTableCopied(Copy->getImplicitObjectArgument(),
                                      /*Loop=*/nullptr, Context, Parents);
          Table && !compat::beginOf(*Table->Maker).isMacroID()) {
        Maker = Table->Maker;
        Fact.Constant = true;
      }
    if (Made->What != HostCopySource::Direct && !Fact.Constant)
      return true;
    const FunctionDecl *Factory = Maker->getDirectCallee();
    if (!Factory || takesGenerator(*Maker, *Factory))
      return true;
    const SourceManager &SM = Context.getSourceManager();
    const LangOptions &LangOpts = Context.getLangOpts();
    Fact.Factory = utils::spelledText(Maker->getCallee(), SM, LangOpts);
    Fact.Copy = utils::tokenRangeText(Member->getMemberLoc(),
                                      Copy->getRParenLoc(), SM, LangOpts);
    Fact.Place = placeOf(Member->getMemberLoc(), Context);
    if (!Fact.Place.File.empty() && !Fact.Factory.empty())
      Summary.HostCopies.push_back(std::move(Fact));
    return true;
  }

  ASTContext &Context;
  FunctionSummary &Summary;
  const utils::UserCodeParents &Parents;
};

/// The functions with bodies written in the main file, templates left out
/// (an instantiation's facts depend on its arguments).
class MainFileFunctions : public RecursiveASTVisitor<MainFileFunctions> {
public:
  MainFileFunctions(ASTContext &Context, TrainingLoopModel &Loops,
                    std::vector<FunctionSummary> &Out)
      : Context(Context), Loops(Loops), Out(Out) {}

  bool VisitFunctionDecl(FunctionDecl *Function) {
    const SourceManager &SM = Context.getSourceManager();
    if (!Function->doesThisDeclarationHaveABody() ||
        Function->isDependentContext() || Function->isImplicit() ||
        !SM.isInMainFile(SM.getExpansionLoc(Function->getLocation())))
      return true;
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
        Method && Method->getParent()->isLambda())
      return true;
    FunctionSummary Summary;
    Summary.Usr = usrOf(Function);
    Summary.Name = Function->getQualifiedNameAsString();
    BodySummarizer Body(Context, Summary, Loops.parents());
    Body.walk(Function->getBody(), true);
    Summary.WaitsOtherwise = Body.waitsOtherwise(Function->getBody());
    Summary.Updates = Loops.updatesOf(Function);
    Summary.ReturnsDeviceTensor = returnsTensorOnDevice(Function, Context);
    if (!Summary.Usr.empty() &&
        (!Summary.Syncs.empty() || !Summary.HostCopies.empty() ||
         !Summary.Calls.empty() || Summary.Updates.any() ||
         Summary.ReturnsDeviceTensor))
      Out.push_back(std::move(Summary));
    return true;
  }

private:
  ASTContext &Context;
  TrainingLoopModel &Loops;
  std::vector<FunctionSummary> &Out;
};

} // namespace

std::vector<FunctionSummary> summarizeUnit(ASTContext &Context) {
  std::vector<FunctionSummary> Summaries;
  // Without summaries of its own: what a unit's summaries say never
  // depends on other units' (so two rounds of analysis always suffice).
  const utils::UserCodeParents Parents(Context);
  TrainingLoopModel Loops(Context, Parents);
  MainFileFunctions Visitor(Context, Loops, Summaries);
  const SourceManager &SM = Context.getSourceManager();
  for (Decl *D : utils::userTopLevelDecls(Context))
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      Visitor.TraverseDecl(D);
  return Summaries;
}

} // namespace clang::tidy::libtorch::analysis
