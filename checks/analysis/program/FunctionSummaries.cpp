//===--- FunctionSummaries.cpp - What a unit's functions do ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/program/FunctionSummaries.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/steps/TrainingLoopModel.h"
#include "utils/UserCode.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "clang/Lex/Lexer.h"
#include <set>

namespace clang::tidy::libtorch::analysis {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Usr;
  // generateUSRForDecl returns true when it could not make one.
  if (!D || index::generateUSRForDecl(D, Usr))
    return {};
  return std::string(Usr);
}

namespace {

/// Where a fact of the summary was written, at the macro's use when a macro
/// wrote it, with the token there.
SummarizedPlace placeOf(SourceLocation Loc, const ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  SummarizedPlace Place;
  const SourceLocation At = SM.getExpansionLoc(Loc);
  const FileEntry *File = SM.getFileEntryForID(SM.getFileID(At));
  if (!File)
    return Place;
  Place.File = File->tryGetRealPathName().str();
  if (Place.File.empty())
    Place.File = File->getName().str();
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
  return Call.getBeginLoc();
}

/// Collects the facts of one function body that hold on every call.
class BodySummarizer {
public:
  BodySummarizer(ASTContext &Context, FunctionSummary &Summary)
      : Context(Context), Summary(Summary) {}

  void walk(const Stmt *S, bool EveryCall) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && EveryCall)
      record(*Call);
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

private:
  void record(const CallExpr &Call) {
    if (std::optional<HostSync> Sync =
            syncOfCall(Call, Context, Context.getLangOpts())) {
      // Already waited for where the tensor was copied to the host.
      if (Sync->Tensor && isProvablyHostTensor(Sync->Tensor, Context))
        return;
      SummarizedSync Fact;
      Fact.Operation = Sync->Kind == SyncKind::Print ? "<<" : Sync->Name;
      Fact.Kind = Sync->Kind;
      Fact.Place = placeOf(Sync->Loc, Context);
      if (!Fact.Place.File.empty())
        Summary.Syncs.push_back(std::move(Fact));
      return;
    }
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
    if (!Fact.Usr.empty() && !Fact.Place.File.empty())
      Summary.Calls.push_back(std::move(Fact));
  }

  ASTContext &Context;
  FunctionSummary &Summary;
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
    BodySummarizer(Context, Summary).walk(Function->getBody(), true);
    Summary.Updates = Loops.updatesOf(Function);
    if (!Summary.Usr.empty() &&
        (!Summary.Syncs.empty() || !Summary.Calls.empty() ||
         Summary.Updates.any()))
      Out.push_back(std::move(Summary));
    return true;
  }

private:
  ASTContext &Context;
  TrainingLoopModel &Loops;
  std::vector<FunctionSummary> &Out;
};

/// The calls of functions defined elsewhere, in all user code.
class CallsElsewhere : public RecursiveASTVisitor<CallsElsewhere> {
public:
  CallsElsewhere(const SourceManager &SM, std::set<std::string> &Out)
      : SM(SM), Out(Out) {}
  // A check sees the calls of instantiations too.
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = calleeDefinedElsewhere(*Call);
    if (!Callee || !utils::isUserCode(Callee, SM))
      return true;
    if (std::string Usr = usrOf(Callee); !Usr.empty())
      Out.insert(std::move(Usr));
    return true;
  }

private:
  const SourceManager &SM;
  std::set<std::string> &Out;
};

Object updatesToJson(const SummarizedUpdates &Updates) {
  Object Json;
  const auto Put = [&Json](llvm::StringRef Key, std::optional<unsigned> D) {
    if (D)
      Json[Key] = *D;
  };
  Put("backward", Updates.Backward);
  Put("backwardOutsideLoops", Updates.BackwardOutsideLoops);
  Put("step", Updates.Step);
  Put("stepOutsideLoops", Updates.StepOutsideLoops);
  return Json;
}

bool updatesFromJson(const Object &Json, SummarizedUpdates &Updates) {
  bool Valid = true;
  const auto Get = [&](llvm::StringRef Key, std::optional<unsigned> &D) {
    const Value *Item = Json.get(Key);
    if (!Item)
      return;
    std::optional<int64_t> Number = Item->getAsInteger();
    if (!Number || *Number < 0 || *Number >= CallDepth::TrainingStep)
      Valid = false;
    else
      D = static_cast<unsigned>(*Number);
  };
  Get("backward", Updates.Backward);
  Get("backwardOutsideLoops", Updates.BackwardOutsideLoops);
  Get("step", Updates.Step);
  Get("stepOutsideLoops", Updates.StepOutsideLoops);
  // Outside the loops is a part of anywhere.
  return Valid && (!Updates.BackwardOutsideLoops || Updates.Backward) &&
         (!Updates.StepOutsideLoops || Updates.Step);
}

Object placeToJson(const SummarizedPlace &Place) {
  return Object{{"file", Place.File},
                {"line", Place.Line},
                {"column", Place.Column},
                {"spelling", Place.Spelling}};
}

bool placeFromJson(const Object &Json, SummarizedPlace &Place) {
  std::optional<StringRef> File = Json.getString("file");
  std::optional<int64_t> Line = Json.getInteger("line");
  std::optional<int64_t> Column = Json.getInteger("column");
  std::optional<StringRef> Spelling = Json.getString("spelling");
  if (!File || !Line || !Column || !Spelling || *Line <= 0 || *Column <= 0)
    return false;
  Place = {File->str(), static_cast<unsigned>(*Line),
           static_cast<unsigned>(*Column), Spelling->str()};
  return true;
}

llvm::Error malformed(StringRef What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "a function's %s is malformed",
                                 What.str().c_str());
}

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

const FunctionDecl *calleeDefinedElsewhere(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || Callee->hasBody())
    return nullptr;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      Method && Method->isVirtual())
    return nullptr;
  return Callee;
}

std::vector<std::string> functionsCalledElsewhere(ASTContext &Context) {
  std::set<std::string> Usrs;
  CallsElsewhere Visitor(Context.getSourceManager(), Usrs);
  for (Decl *D : utils::userTopLevelDecls(Context))
    Visitor.TraverseDecl(D);
  return {Usrs.begin(), Usrs.end()};
}

Array summariesToJson(llvm::ArrayRef<FunctionSummary> Summaries) {
  Array Functions;
  for (const FunctionSummary &Summary : Summaries) {
    Array Syncs, Calls;
    for (const SummarizedSync &Sync : Summary.Syncs)
      Syncs.push_back(Object{{"operation", Sync.Operation},
                             {"kind", syncKindName(Sync.Kind)},
                             {"at", placeToJson(Sync.Place)}});
    for (const SummarizedCall &Call : Summary.Calls)
      Calls.push_back(Object{{"usr", Call.Usr},
                             {"name", Call.Name},
                             {"at", placeToJson(Call.Place)}});
    Functions.push_back(Object{{"usr", Summary.Usr},
                               {"name", Summary.Name},
                               {"syncs", std::move(Syncs)},
                               {"calls", std::move(Calls)},
                               {"updates", updatesToJson(Summary.Updates)}});
  }
  return Functions;
}

llvm::Expected<std::vector<FunctionSummary>>
summariesFromJson(const Array &Functions) {
  std::vector<FunctionSummary> Summaries;
  for (const Value &Item : Functions) {
    const Object *Function = Item.getAsObject();
    if (!Function)
      return malformed("entry");
    FunctionSummary Summary;
    std::optional<StringRef> Usr = Function->getString("usr");
    std::optional<StringRef> Name = Function->getString("name");
    const Array *Syncs = Function->getArray("syncs");
    const Array *Calls = Function->getArray("calls");
    const Object *Updates = Function->getObject("updates");
    if (!Usr || Usr->empty() || !Name || !Syncs || !Calls || !Updates)
      return malformed("entry");
    if (!updatesFromJson(*Updates, Summary.Updates))
      return malformed("updates");
    Summary.Usr = Usr->str();
    Summary.Name = Name->str();
    for (const Value &SyncItem : *Syncs) {
      const Object *Sync = SyncItem.getAsObject();
      SummarizedSync Fact;
      std::optional<StringRef> Operation =
          Sync ? Sync->getString("operation") : std::nullopt;
      std::optional<SyncKind> Kind =
          syncKindFromName(Sync ? Sync->getString("kind").value_or("") : "");
      const Object *At = Sync ? Sync->getObject("at") : nullptr;
      if (!Operation || !Kind || !At || !placeFromJson(*At, Fact.Place))
        return malformed("wait");
      Fact.Operation = Operation->str();
      Fact.Kind = *Kind;
      Summary.Syncs.push_back(std::move(Fact));
    }
    for (const Value &CallItem : *Calls) {
      const Object *Call = CallItem.getAsObject();
      SummarizedCall Fact;
      std::optional<StringRef> CalledUsr =
          Call ? Call->getString("usr") : std::nullopt;
      std::optional<StringRef> CalledName =
          Call ? Call->getString("name") : std::nullopt;
      const Object *At = Call ? Call->getObject("at") : nullptr;
      if (!CalledUsr || CalledUsr->empty() || !CalledName || !At ||
          !placeFromJson(*At, Fact.Place))
        return malformed("call");
      Fact.Usr = CalledUsr->str();
      Fact.Name = CalledName->str();
      Summary.Calls.push_back(std::move(Fact));
    }
    Summaries.push_back(std::move(Summary));
  }
  return Summaries;
}

} // namespace clang::tidy::libtorch::analysis
