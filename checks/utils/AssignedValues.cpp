//===--- AssignedValues.cpp - The values a local variable is given -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/AssignedValues.h"
#include "utils/AstWalk.h"
#include "utils/CallArguments.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::utils {

namespace {

/// Whether \p Parameter lets the callee change the caller's variable: a
/// reference to non-const (`Tensor &`, `std::swap`, `std::tie`, a
/// forwarding reference bound to an lvalue).
bool bindsMutableReference(QualType Parameter) {
  if (!Parameter->isReferenceType())
    return false;
  return !Parameter.getNonReferenceType().isConstQualified();
}

/// The values given to a local variable in its function, and whether it may
/// change in a way they do not tell.
struct ValueCollector : RecursiveASTVisitor<ValueCollector> {
  const VarDecl *Variable = nullptr;
  /// For a container: `push_back` and `emplace_back` add the value they
  /// are given; assigning it whole, or any other member that changes it,
  /// is unknown.
  bool Appends = false;
  llvm::SmallVector<const Expr *, 4> Values;
  bool Unknown = false;

  bool refersToVariable(const Expr *E) const {
    const auto *Ref =
        dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : E);
    return Ref && Ref->getDecl() == Variable;
  }
  /// `v.push_back(x)`, `v.emplace_back(x)` of one value: the container
  /// holds x from then on.
  static bool isAppend(const CXXMemberCallExpr &Call) {
    const CXXMethodDecl *Method = Call.getMethodDecl();
    return Method && Method->getIdentifier() && Call.getNumArgs() == 1 &&
           (Method->getName() == "push_back" ||
            Method->getName() == "emplace_back");
  }
  /// `v.reserve(n)`, `v.clear()`: the container holds nothing new.
  static bool addsNothing(const CXXMemberCallExpr &Call) {
    const CXXMethodDecl *Method = Call.getMethodDecl();
    return Method && Method->getIdentifier() &&
           (Method->getName() == "reserve" || Method->getName() == "clear");
  }
  /// The variable given to a parameter we cannot see (null), or to one
  /// that binds it mutably, may be written.
  void checkArgument(const Expr *Arg, const ParmVarDecl *Parameter) {
    if (refersToVariable(Arg) &&
        (!Parameter || bindsMutableReference(Parameter->getType())))
      Unknown = true;
  }
  void checkArguments(const CallExpr *Call) {
    // The object of a member operator is no parameter's: see below.
    for (unsigned I = utils::objectArgumentCount(Call);
         I < Call->getNumArgs() && !Unknown; ++I)
      checkArgument(Call->getArg(I), utils::parameterOfArgument(Call, I));
  }
  void checkArguments(const CXXConstructExpr *Construct) {
    for (unsigned I = 0; I < Construct->getNumArgs() && !Unknown; ++I)
      checkArgument(Construct->getArg(I),
                    utils::parameterOfArgument(Construct, I));
  }
  void assigned(const Expr *Value, bool Plain) {
    if (Plain && !Appends)
      Values.push_back(Value);
    else
      Unknown = true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getNumArgs() > 0 && refersToVariable(Op->getArg(0)) &&
        Op->isAssignmentOp())
      assigned(Op->getNumArgs() == 2 ? Op->getArg(1) : nullptr,
               Op->getOperator() == OO_Equal && Op->getNumArgs() == 2);
    return !Unknown;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (refersToVariable(Op->getLHS()) && Op->isAssignmentOp())
      assigned(Op->getRHS(), Op->getOpcode() == BO_Assign);
    return !Unknown;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->getOpcode() == UO_AddrOf && refersToVariable(Op->getSubExpr()))
      Unknown = true;
    return !Unknown;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const auto *Callee = Call->getDirectCallee();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      // Assignments are handled above; other member operators take the
      // object first.
      if (Op->isAssignmentOp())
        return !Unknown;
      checkArguments(Call);
      if (utils::objectArgumentCount(Call) == 1 &&
          refersToVariable(Call->getArg(0)) &&
          !cast<CXXMethodDecl>(Callee)->isConst())
        Unknown = true;
      return !Unknown;
    }
    checkArguments(Call);
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      if (refersToVariable(Member->getImplicitObjectArgument())) {
        const CXXMethodDecl *Method = Member->getMethodDecl();
        if (Appends && isAppend(*Member))
          Values.push_back(Member->getArg(0));
        else if (Appends && addsNothing(*Member))
          return true;
        else if (!Method || !Method->isConst() ||
                 (Method->getIdentifier() && Method->getName() == "set_"))
          Unknown = true;
      }
    return !Unknown;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    checkArguments(Construct);
    return !Unknown;
  }
  // The range of a range-for is bound to an implicit `auto &&__range`,
  // which the visitor does not see: a loop variable that is a mutable
  // reference may change the elements.
  bool VisitCXXForRangeStmt(CXXForRangeStmt *For) {
    const VarDecl *Element = For->getLoopVariable();
    if (refersToVariable(For->getRangeInit()) && Element &&
        Element->getType()->isReferenceType() &&
        !Element->getType().getNonReferenceType().isConstQualified())
      Unknown = true;
    return !Unknown;
  }
  bool VisitVarDecl(VarDecl *Other) {
    if (Other->getType()->isReferenceType() &&
        !Other->getType().getNonReferenceType().isConstQualified() &&
        refersToVariable(Other->getInit()))
      Unknown = true;
    return !Unknown;
  }
};

} // namespace

std::optional<llvm::SmallVector<const Expr *, 4>>
assignedValues(const VarDecl *Variable) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
  if (!Function || !Function->getBody() || isa<ParmVarDecl>(Variable) ||
      !Variable->hasLocalStorage() || !Variable->getInit() ||
      Variable->getType()->isReferenceType())
    return std::nullopt;
  ValueCollector Collector;
  Collector.Variable = Variable;
  Collector.Values.push_back(Variable->getInit());
  Collector.TraverseStmt(Function->getBody());
  if (Collector.Unknown)
    return std::nullopt;
  return Collector.Values;
}

std::optional<llvm::SmallVector<const Expr *, 4>>
elementValues(const VarDecl *Vector) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Vector->getParentFunctionOrMethod());
  if (!Function || !Function->getBody() || isa<ParmVarDecl>(Vector) ||
      !Vector->hasLocalStorage() || Vector->getType()->isReferenceType())
    return std::nullopt;
  const CXXRecordDecl *Record = Vector->getType()->getAsCXXRecordDecl();
  if (!Record || !Record->isInStdNamespace() || !Record->getIdentifier() ||
      Record->getName() != "vector")
    return std::nullopt;
  ValueCollector Collector;
  Collector.Variable = Vector;
  Collector.Appends = true;
  // Empty, or the elements of a braced list; a copy of another container
  // or a size and a value are not followed.
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(
      utils::stripWrappers(Vector->getInit(), utils::ImplicitWrappers));
  if (!Construct)
    return std::nullopt;
  if (Construct->getNumArgs() > 0) {
    const auto *List = dyn_cast<CXXStdInitializerListExpr>(
        utils::stripWrappers(Construct->getArg(0), utils::ImplicitWrappers));
    const auto *Elements =
        List ? dyn_cast<InitListExpr>(utils::stripWrappers(
                   List->getSubExpr(), utils::ImplicitWrappers))
             : nullptr;
    if (!Elements)
      return std::nullopt;
    for (const Expr *Element : Elements->inits())
      Collector.Values.push_back(Element);
    for (unsigned I = 1; I < Construct->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Construct->getArg(I)))
        return std::nullopt;
  }
  Collector.TraverseStmt(Function->getBody());
  if (Collector.Unknown)
    return std::nullopt;
  return Collector.Values;
}

} // namespace clang::tidy::libtorch::utils
