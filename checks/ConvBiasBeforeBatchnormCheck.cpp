//===--- ConvBiasBeforeBatchnormCheck.cpp - libtorch-tidy -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ConvBiasBeforeBatchnormCheck.h"
#include "analysis/ConvolutionModules.h"
#include "analysis/CudaTrainingFacts.h"
#include "analysis/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

using analysis::ConvBias;
using analysis::ConvConstruction;
using analysis::moduleCall;
using analysis::stripModuleValue;

bool isImplicitWrapper(const Stmt *S) {
  if (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
          ExprWithCleanups, ParenExpr>(S))
    return true;
  const auto *Construct = dyn_cast<CXXConstructExpr>(S);
  return Construct && Construct->getNumArgs() == 1 &&
         Construct->getConstructor()->isCopyOrMoveConstructor();
}

/// The first parent of \p S that is not an implicit wrapper of it.
const Stmt *parentThroughImplicit(const Stmt *S,
                                  const analysis::UserCodeParents &UserParents,
                                  const VarDecl **InitializedVariable) {
  while (true) {
    DynTypedNodeList Parents = UserParents.get(*S);
    if (Parents.empty())
      return nullptr;
    if (const auto *Variable = Parents[0].get<VarDecl>()) {
      if (InitializedVariable)
        *InitializedVariable = Variable;
      return nullptr;
    }
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent || !isImplicitWrapper(Parent))
      return Parent;
    S = Parent;
  }
}

/// The declaration a module holder expression names: a local variable or a
/// member of a module class.
const ValueDecl *holderDecl(const Expr *Holder) {
  Holder = Holder->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Holder))
    return dyn_cast<VarDecl>(Ref->getDecl());
  if (const auto *Member = dyn_cast<MemberExpr>(Holder))
    return dyn_cast<FieldDecl>(Member->getMemberDecl());
  return nullptr;
}

bool refersTo(const Expr *E, const VarDecl *Variable) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref && Ref->getDecl() == Variable;
}

/// A batch-norm call in \p S whose input is the variable \p Input.
const Expr *batchNormOf(const Stmt *S, const VarDecl *Input) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Input;
    const Expr *Found = nullptr;
    bool VisitExpr(Expr *E) {
      std::optional<analysis::ModuleCall> Call = moduleCall(E);
      if (Call && stripModuleValue(E) == E &&
          analysis::isBatchNormModuleType(Call->Holder->getType()) &&
          refersTo(stripModuleValue(Call->Input), Input))
        Found = E;
      return !Found;
    }
  } F;
  F.Input = Input;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

bool mentions(const Stmt *S, const VarDecl *Variable) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Variable;
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      Found |= Ref->getDecl() == Variable;
      return !Found;
    }
  } F;
  F.Variable = Variable;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// The variable a statement assigns with `v = ...` (a tensor assignment).
const VarDecl *assignedVariable(const Stmt *S) {
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(S))
    S = Cleanups->getSubExpr();
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
  if (!Op || !Op->isAssignmentOp() || Op->getNumArgs() != 2)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// The batch norm that consumes the output of the module call \p Call
/// directly: `bn(conv(x))`, or `x = conv(x); x = bn(x);` /
/// `auto y = conv(x); auto z = bn(y);` with `y` used nowhere else after.
const Expr *consumingBatchNorm(const Expr *Call,
                               const analysis::UserCodeParents &UserParents) {
  const VarDecl *Initialized = nullptr;
  const Stmt *Parent = parentThroughImplicit(Call, UserParents, &Initialized);
  if (const auto *ParentCall = dyn_cast_or_null<Expr>(Parent)) {
    std::optional<analysis::ModuleCall> Next = moduleCall(ParentCall);
    if (Next && analysis::isBatchNormModuleType(Next->Holder->getType()) &&
        stripModuleValue(Next->Input) == Call)
      return ParentCall;
  }

  // The statement form: find the statement and the variable it sets.
  const VarDecl *Variable = Initialized;
  const Stmt *Statement = nullptr;
  if (Variable) {
    DynTypedNodeList Parents = UserParents.get(*Variable);
    Statement = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    if (const auto *Decls = dyn_cast_or_null<DeclStmt>(Statement);
        !Decls || !Decls->isSingleDecl())
      return nullptr;
  } else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Parent);
             Op && Op->isAssignmentOp() && Op->getNumArgs() == 2 &&
             stripModuleValue(Op->getArg(1)) == Call) {
    Variable = assignedVariable(Op);
    Statement = Op;
    if (const Stmt *Above = parentThroughImplicit(Op, UserParents, nullptr);
        Above && isa<CompoundStmt>(Above)) {
      // Statement stays the assignment; its wrappers are implicit.
      DynTypedNodeList Parents = UserParents.get(*Op);
      if (!Parents.empty())
        if (const auto *Wrapper = Parents[0].get<ExprWithCleanups>())
          Statement = Wrapper;
    }
  }
  if (!Variable || !Statement || !Variable->hasLocalStorage())
    return nullptr;
  DynTypedNodeList Parents = UserParents.get(*Statement);
  const auto *Block =
      Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
  if (!Block)
    return nullptr;
  CompoundStmt::const_body_iterator Position =
      llvm::find(Block->body(), Statement);
  if (Position == Block->body_end() || Position + 1 == Block->body_end())
    return nullptr;
  const Stmt *NextStatement = *(Position + 1);
  const Expr *BatchNorm = batchNormOf(NextStatement, Variable);
  if (!BatchNorm)
    return nullptr;
  // `x = bn(x)` replaces the value; otherwise nothing later may read the
  // convolution's output (a residual would still see the bias).
  if (assignedVariable(NextStatement) != Variable)
    for (CompoundStmt::const_body_iterator Later = Position + 2;
         Later != Block->body_end(); ++Later)
      if (mentions(*Later, Variable))
        return nullptr;
  return BatchNorm;
}

/// Every call of the module that \p Holder names (in the function of a local,
/// in the methods of a member's class), or nothing when we cannot tell.
std::optional<llvm::SmallVector<const Expr *, 4>>
callsOfHolder(const ValueDecl *Holder, const Expr *Call,
              const analysis::UserCodeParents &UserParents) {
  llvm::SmallVector<const Stmt *, 4> Bodies;
  if (const auto *Field = dyn_cast<FieldDecl>(Holder)) {
    const auto *Record = dyn_cast<CXXRecordDecl>(Field->getParent());
    if (!Record)
      return std::nullopt;
    for (const CXXMethodDecl *Method : Record->methods()) {
      const FunctionDecl *Definition = nullptr;
      if (Method->hasBody(Definition))
        Bodies.push_back(Definition->getBody());
    }
  } else if (const FunctionDecl *Function =
                 analysis::enclosingFunction(Call, UserParents)) {
    Bodies.push_back(Function->getBody());
  }
  if (Bodies.empty())
    return std::nullopt;
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *Holder;
    llvm::SmallVector<const Expr *, 4> Calls;
    bool shouldVisitLambdaBodies() const { return true; }
    bool VisitExpr(Expr *E) {
      if (std::optional<analysis::ModuleCall> Call = moduleCall(E))
        if (stripModuleValue(E) == E && holderDecl(Call->Holder) == Holder)
          Calls.push_back(E);
      return true;
    }
  } F;
  F.Holder = Holder;
  for (const Stmt *Body : Bodies)
    F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Calls;
}

} // namespace

void ConvBiasBeforeBatchnormCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  Finder->addMatcher(cxxConstructExpr(unless(isExpansionInSystemHeader()),
                                      hasType(cxxRecordDecl(hasAnyName(
                                          "::torch::nn::Sequential",
                                          "::torch::nn::SequentialImpl"))))
                         .bind("sequential"),
                     this);
  // Module calls; which module is decided in check(). Two matchers, not
  // expr(anyOf(...)), so that each is tried on its own node kind only.
  Finder->addMatcher(cxxOperatorCallExpr(unless(isExpansionInSystemHeader()),
                                         hasOverloadedOperatorName("()"))
                         .bind("call"),
                     this);
  Finder->addMatcher(
      cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                        callee(cxxMethodDecl(hasName("forward"))))
          .bind("call"),
      this);
}

void ConvBiasBeforeBatchnormCheck::check(
    const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  if (const auto *Sequential =
          Result.Nodes.getNodeAs<CXXConstructExpr>("sequential")) {
    // Sequential(conv, bn, ...): each convolution followed by a batch norm.
    for (unsigned I = 0; I + 1 < Sequential->getNumArgs(); ++I) {
      const Expr *Next = stripModuleValue(Sequential->getArg(I + 1));
      if (!analysis::isBatchNormModuleType(Next->getType()))
        continue;
      if (std::optional<ConvConstruction> Conv =
              analysis::convConstruction(Sequential->getArg(I)))
        report(*Conv, Next, Next->getType(), Context);
    }
    return;
  }

  const auto *Call = Result.Nodes.getNodeAs<Expr>("call");
  std::optional<analysis::ModuleCall> ConvCall = moduleCall(Call);
  if (!ConvCall ||
      !analysis::isConvolutionModuleType(ConvCall->Holder->getType()))
    return;
  const Expr *BatchNorm = consumingBatchNorm(Call, parents(Context));
  if (!BatchNorm)
    return;
  const ValueDecl *Holder = holderDecl(ConvCall->Holder);
  if (!Holder)
    return;
  // A convolution whose output also goes elsewhere needs its bias there.
  std::optional<llvm::SmallVector<const Expr *, 4>> Calls =
      callsOfHolder(Holder, Call, parents(Context));
  if (!Calls)
    return;
  for (const Expr *Other : *Calls)
    if (!consumingBatchNorm(Other, parents(Context)))
      return;
  if (std::optional<ConvConstruction> Conv =
          analysis::constructionOfHolder(ConvCall->Holder, Context))
    report(*Conv, BatchNorm, moduleCall(BatchNorm)->Holder->getType(), Context);
}

void ConvBiasBeforeBatchnormCheck::report(const ConvConstruction &Conv,
                                          const Expr *BatchNorm,
                                          QualType BatchNormType,
                                          ASTContext &Context) {
  if (Conv.Bias != ConvBias::Default && Conv.Bias != ConvBias::ExplicitTrue)
    return;
  if (!Reported.insert(Conv.Module).second)
    return;
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LangOpts = getLangOpts();

  std::string OptionsClass = Conv.Module->getType()
                                 .getNonReferenceType()
                                 ->getAsCXXRecordDecl()
                                 ->getQualifiedNameAsString();
  StringRef ModuleName = StringRef(OptionsClass).rsplit("::").second;
  ModuleName.consume_back("Impl");
  StringRef BatchNormName = StringRef(
      BatchNormType.getNonReferenceType()->getAsCXXRecordDecl()->getName());
  BatchNormName.consume_back("Impl");

  llvm::SmallVector<FixItHint, 2> Fixes;
  if (Conv.Bias == ConvBias::ExplicitTrue) {
    if (analysis::isRewritable(Conv.BiasArgument->getSourceRange()))
      Fixes.push_back(FixItHint::CreateReplacement(
          Conv.BiasArgument->getSourceRange(), "false"));
  } else if (Conv.Options) {
    if (analysis::isRewritable(Conv.Options->getSourceRange()))
      Fixes.push_back(FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(Conv.Options->getEndLoc(), 0, SM,
                                     LangOpts),
          ".bias(false)"));
  } else if (SourceRange Parens = Conv.Module->getParenOrBraceRange();
             analysis::isRewritable(Parens) &&
             analysis::isRewritable(Conv.Module->getSourceRange())) {
    // Conv2d(in, out, k) -> Conv2d(Conv2dOptions(in, out, k).bias(false)).
    Fixes.push_back(FixItHint::CreateInsertion(
        Lexer::getLocForEndOfToken(Parens.getBegin(), 0, SM, LangOpts),
        ("torch::nn::" + ModuleName + "Options(").str()));
    Fixes.push_back(
        FixItHint::CreateInsertion(Parens.getEnd(), ").bias(false)"));
  }

  SourceLocation Loc =
      Conv.Options ? Conv.Options->getBeginLoc() : Conv.Module->getBeginLoc();
  {
    auto Diag = diag(Loc, "'%0' has a bias but its output goes straight into "
                          "'%1', which subtracts the per-channel mean and "
                          "cancels it: the bias costs compute and memory for "
                          "nothing; build it with '.bias(false)'")
                << ModuleName << BatchNormName;
    for (const FixItHint &Fix : Fixes)
      Diag << Fix;
  }
  if (Fixes.empty())
    diag(Loc, "add '.bias(false)' to its '%0Options'", DiagnosticIDs::Note)
        << ModuleName;
  diag(BatchNorm->getBeginLoc(), "the batch norm that follows it",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
