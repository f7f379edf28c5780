//===--- LossScaling.cpp - Whether a loss is scaled -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/gradients/LossScaling.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::analysis {

namespace {

const Expr *lossValue(const Expr *E) {
  // The loss as computed: through temporaries, conversions by constructor
  // and functional casts (`torch::Tensor(loss)`).
  return utils::stripWrappers(E, utils::ImplicitWrappers |
                                     utils::SubstTemplateParam |
                                     utils::Construct | utils::FunctionalCast);
}

} // namespace

/// True when the loss expression is visibly scaled: its outermost operation
/// is a division or multiplication (`loss / accum`, `loss * scale`,
/// `loss.div(n)`).
bool isScaledLoss(const Expr *E) {
  E = lossValue(E);
  if (!E)
    return false;
  if (const auto *Binary = dyn_cast<BinaryOperator>(E))
    return Binary->getOpcode() == BO_Div || Binary->getOpcode() == BO_Mul ||
           Binary->getOpcode() == BO_DivAssign ||
           Binary->getOpcode() == BO_MulAssign;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Slash || Op->getOperator() == OO_Star ||
           Op->getOperator() == OO_SlashEqual ||
           Op->getOperator() == OO_StarEqual;
  if (const CXXMethodDecl *Method = tensorMethodCalled(E))
    if (Method->getIdentifier()) {
      StringRef Name = Method->getName();
      return Name == "div" || Name == "div_" || Name == "mul" ||
             Name == "mul_" || Name == "divide" || Name == "true_divide";
    }
  return false;
}

/// What we know about the scaling of the value \p Loss passed to backward:
/// true when it is provably unscaled (every value the local variable takes
/// in its function is an unscaled expression we can see).
bool isProvablyUnscaledLoss(const Expr *Loss, const FunctionDecl *Function) {
  Loss = lossValue(Loss);
  if (!Loss)
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(Loss);
  if (!Ref)
    return !isScaledLoss(Loss) && isa<CallExpr>(Loss);
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  // Parameters, members and globals get values we cannot see.
  if (!Var || !Var->isLocalVarDecl() || !Function || !Function->getBody())
    return false;
  unsigned Values = 0;
  bool Unscaled = true;
  if (const Expr *Init = Var->getInit()) {
    const Expr *Value = lossValue(Init);
    if (!isa<CXXConstructExpr>(Value) ||
        cast<CXXConstructExpr>(Value)->getNumArgs() != 0) {
      ++Values;
      Unscaled &= !isScaledLoss(Init) && isa<CallExpr>(Value);
    }
  }
  struct Writes : RecursiveASTVisitor<Writes> {
    const VarDecl *Var;
    unsigned &Values;
    bool &Unscaled;
    Writes(const VarDecl *Var, unsigned &Values, bool &Unscaled)
        : Var(Var), Values(Values), Unscaled(Unscaled) {}
    bool shouldVisitLambdaBodies() const { return true; }
    bool names(const Expr *E) const {
      const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return R && R->getDecl() == Var;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      if (Op->getNumArgs() == 2 && Op->isAssignmentOp() &&
          names(Op->getArg(0))) {
        ++Values;
        Unscaled &= Op->getOperator() == OO_Equal &&
                    !isScaledLoss(Op->getArg(1)) &&
                    isa<CallExpr>(lossValue(Op->getArg(1)));
      }
      return true;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      // loss.div_(n), loss.mul_(s) scale in place.
      if (names(Call->getImplicitObjectArgument()) && isScaledLoss(Call))
        Unscaled = false;
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *Unary) {
      if (Unary->getOpcode() == UO_AddrOf && names(Unary->getSubExpr()))
        Unscaled = false; // escapes: anything may write it
      return true;
    }
  } W(Var, Values, Unscaled);
  W.TraverseStmt(Function->getBody());
  return Values > 0 && Unscaled;
}

namespace {

const Expr *bare(const Expr *E) {
  return E ? E->IgnoreParenImpCasts() : nullptr;
}

/// \p E divides by \p Count somewhere, following the initializers of the
/// locals it names (\p Depth levels).
bool dividesBy(const Expr *E, const llvm::FoldingSetNodeID &Count,
               ASTContext &Context, unsigned Depth) {
  E = bare(E);
  if (!E || isa<LambdaExpr>(E))
    return false;
  if (const auto *Binary = dyn_cast<BinaryOperator>(E);
      Binary && Binary->getOpcode() == BO_Div) {
    llvm::FoldingSetNodeID Divisor;
    bare(Binary->getRHS())->Profile(Divisor, Context, /*Canonical=*/true);
    if (Divisor == Count)
      return true;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Local = dyn_cast<VarDecl>(Ref->getDecl());
        Local && Depth > 0 && Local->isLocalVarDecl() && Local->getInit())
      return dividesBy(Local->getInit(), Count, Context, Depth - 1);
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      if (dividesBy(ChildExpr, Count, Context, Depth))
        return true;
  return false;
}

/// How the optimizer \p Object names was built: a variable's initializer,
/// a member's default initializer and its constructors' initializers.
llvm::SmallVector<const Expr *, 2> builtFrom(const Expr *Object) {
  llvm::SmallVector<const Expr *, 2> Inits;
  Object = bare(Object);
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Object)) {
    if (const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl());
        Variable && Variable->getInit())
      Inits.push_back(Variable->getInit());
  } else if (const auto *Member = dyn_cast_or_null<MemberExpr>(Object)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field)
      return Inits;
    if (const Expr *Default = Field->getInClassInitializer())
      Inits.push_back(Default);
    if (const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent()))
      for (const CXXConstructorDecl *Constructor : Class->ctors())
        for (const CXXCtorInitializer *Init : Constructor->inits())
          if (Init->isWritten() && Init->getMember() == Field)
            Inits.push_back(Init->getInit());
  }
  return Inits;
}

} // namespace

bool stepCompensatesForSum(const CXXMemberCallExpr *Step, const Expr *Count,
                           ASTContext &Context) {
  if (!Step)
    return false;
  const CXXRecordDecl *Optimizer = Step->getRecordDecl();
  for (const char *Normalizing :
       {names::Adam, names::AdamW, names::Adagrad, names::RMSprop})
    if (isSameOrDerivedFrom(Optimizer, Normalizing))
      return true;
  if (!Count)
    return false;
  llvm::FoldingSetNodeID CountId;
  bare(Count)->Profile(CountId, Context, /*Canonical=*/true);
  for (const Expr *Init : builtFrom(Step->getImplicitObjectArgument()))
    if (dividesBy(Init, CountId, Context, /*Depth=*/2))
      return true;
  return false;
}

llvm::SmallVector<const CXXMemberCallExpr *, 2>
unscaledBackwards(llvm::ArrayRef<GradEvent> Events,
                  const FunctionDecl *Function) {
  llvm::SmallVector<const CXXMemberCallExpr *, 2> Found;
  for (const GradEvent &Event : Events) {
    if (Event.Kind != GradEventKind::Backward || !isOrdered(Event) ||
        Event.PeriodicGuard)
      continue;
    // torch::autograd::backward({...}): its losses are not read.
    if (!tensorMethodCalled(Event.Call))
      continue;
    const auto *Call = cast<CXXMemberCallExpr>(Event.Call);
    if (isProvablyUnscaledLoss(Call->getImplicitObjectArgument(), Function))
      Found.push_back(Call);
  }
  return Found;
}

} // namespace clang::tidy::libtorch::analysis
