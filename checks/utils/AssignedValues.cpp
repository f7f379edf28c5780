//===--- AssignedValues.cpp - The values a local variable is given -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/AssignedValues.h"
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

} // namespace

std::optional<llvm::SmallVector<const Expr *, 4>>
assignedValues(const VarDecl *Variable) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
  if (!Function || !Function->getBody() || isa<ParmVarDecl>(Variable) ||
      !Variable->hasLocalStorage() || !Variable->getInit() ||
      Variable->getType()->isReferenceType())
    return std::nullopt;
  struct Collector : RecursiveASTVisitor<Collector> {
    const VarDecl *Variable;
    llvm::SmallVector<const Expr *, 4> Values;
    bool Unknown = false;
    bool refersToVariable(const Expr *E) const {
      const auto *Ref =
          dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : E);
      return Ref && Ref->getDecl() == Variable;
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
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      if (Op->getNumArgs() > 0 && refersToVariable(Op->getArg(0))) {
        if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
          Values.push_back(Op->getArg(1));
        else if (Op->isAssignmentOp())
          Unknown = true;
      }
      return !Unknown;
    }
    bool VisitBinaryOperator(BinaryOperator *Op) {
      if (refersToVariable(Op->getLHS())) {
        if (Op->getOpcode() == BO_Assign)
          Values.push_back(Op->getRHS());
        else if (Op->isAssignmentOp())
          Unknown = true;
      }
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
        if (refersToVariable(Member->getImplicitObjectArgument()))
          if (const CXXMethodDecl *Method = Member->getMethodDecl();
              !Method || !Method->isConst() ||
              (Method->getIdentifier() && Method->getName() == "set_"))
            Unknown = true;
      return !Unknown;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
      checkArguments(Construct);
      return !Unknown;
    }
    bool VisitVarDecl(VarDecl *Other) {
      if (Other->getType()->isReferenceType() &&
          !Other->getType().getNonReferenceType().isConstQualified() &&
          refersToVariable(Other->getInit()))
        Unknown = true;
      return !Unknown;
    }
  } Collector;
  Collector.Variable = Variable;
  Collector.Values.push_back(Variable->getInit());
  Collector.TraverseStmt(Function->getBody());
  if (Collector.Unknown)
    return std::nullopt;
  return Collector.Values;
}

} // namespace clang::tidy::libtorch::utils
