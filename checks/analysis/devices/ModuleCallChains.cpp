//===--- ModuleCallChains.cpp - Which module call feeds which -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/ModuleCallChains.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "utils/AstWalk.h"
#include "utils/References.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// The first parent of \p S that is not an implicit wrapper of it.
const Stmt *parentThroughImplicit(const Stmt *S,
                                  const utils::UserCodeParents &UserParents,
                                  const VarDecl **InitializedVariable) {
  // A copy of the module holder is the same module.
  utils::Above Up = utils::parentIgnoring(
      S, UserParents, utils::ImplicitWrappers | utils::CopyConstruct,
      utils::ParentChoice::First);
  if (const auto *Variable = Up.Parent.get<VarDecl>()) {
    if (InitializedVariable)
      *InitializedVariable = Variable;
    return nullptr;
  }
  return Up.Parent.get<Stmt>();
}

} // namespace

const ValueDecl *holderDecl(const Expr *Holder) {
  Holder = Holder->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Holder))
    return dyn_cast<VarDecl>(Ref->getDecl());
  if (const auto *Member = dyn_cast<MemberExpr>(Holder))
    return dyn_cast<FieldDecl>(Member->getMemberDecl());
  return nullptr;
}

namespace {

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
      std::optional<ModuleCall> Call = moduleCall(E);
      if (Call && stripModuleValue(E) == E &&
          isBatchNormModuleType(Call->Holder->getType()) &&
          refersTo(stripModuleValue(Call->Input), Input))
        Found = E;
      return !Found;
    }
  } F;
  F.Input = Input;
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

} // namespace

const Expr *consumingBatchNorm(const Expr *Call,
                               const utils::UserCodeParents &UserParents) {
  const VarDecl *Initialized = nullptr;
  const Stmt *Parent = parentThroughImplicit(Call, UserParents, &Initialized);
  if (const auto *ParentCall = dyn_cast_or_null<Expr>(Parent)) {
    std::optional<ModuleCall> Next = moduleCall(ParentCall);
    if (Next && isBatchNormModuleType(Next->Holder->getType()) &&
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
      if (utils::mentions(*Later, Variable))
        return nullptr;
  return BatchNorm;
}

std::optional<llvm::SmallVector<const Expr *, 4>>
callsOfHolder(const ValueDecl *Holder, const Expr *Call,
              const utils::UserCodeParents &UserParents) {
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
                 utils::enclosingFunction(Call, UserParents)) {
    Bodies.push_back(Function->getBody());
  }
  if (Bodies.empty())
    return std::nullopt;
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *Holder;
    llvm::SmallVector<const Expr *, 4> Calls;
    bool shouldVisitLambdaBodies() const { return true; }
    bool VisitExpr(Expr *E) {
      if (std::optional<ModuleCall> Call = moduleCall(E))
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

namespace {

/// The module holders of forward calls, the mentions of one module, and
/// whether a method is called on `this`, in one statement.
class ModuleMentionFinder : public RecursiveASTVisitor<ModuleMentionFinder> {
public:
  const ValueDecl *Module = nullptr;
  llvm::SmallPtrSet<const Expr *, 8> Holders;
  llvm::SmallVector<const Expr *, 8> Mentions;
  bool CallsOnThis = false;
  bool VisitCallExpr(CallExpr *Call) {
    if (isModuleForwardCall(Call))
      if (std::optional<ModuleCall> Forward = moduleCall(Call))
        Holders.insert(Forward->Holder);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    CallsOnThis |= isa<CXXThisExpr>(
        Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() == Module)
      Mentions.push_back(Ref);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    if (Member->getMemberDecl() == Module)
      Mentions.push_back(Member);
    return true;
  }
};

} // namespace

bool onlyRunsForwardIn(const ValueDecl *Module, const Stmt *Loop) {
  ModuleMentionFinder F;
  F.Module = Module;
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  if (isa<FieldDecl>(Module) && F.CallsOnThis)
    return false;
  return llvm::all_of(F.Mentions,
                      [&](const Expr *E) { return F.Holders.contains(E); });
}

llvm::ArrayRef<const Expr *> forwardInputs(const CallExpr *Forward) {
  llvm::ArrayRef<const Expr *> Arguments(Forward->getArgs(),
                                         Forward->getNumArgs());
  return isa<CXXOperatorCallExpr>(Forward) ? Arguments.drop_front() : Arguments;
}

} // namespace clang::tidy::libtorch::analysis
