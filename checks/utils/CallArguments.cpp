//===--- CallArguments.cpp - Which parameter an argument is given ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CallArguments.h"
#include "AstWalk.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::libtorch::utils {

unsigned objectArgumentCount(const CallExpr *Call) {
  // A free operator (`operator<<(std::ostream &, const Tensor &)`) takes
  // its left operand as its first parameter.
  return isa<CXXOperatorCallExpr>(Call) &&
                 isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee())
             ? 1
             : 0;
}

const ParmVarDecl *parameterOfArgument(const CallExpr *Call, unsigned Index) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const unsigned Skipped = objectArgumentCount(Call);
  if (!Callee || Index < Skipped || Index >= Call->getNumArgs() ||
      Index - Skipped >= Callee->getNumParams())
    return nullptr;
  return Callee->getParamDecl(Index - Skipped);
}

const ParmVarDecl *parameterOfArgument(const CXXConstructExpr *Construct,
                                       unsigned Index) {
  const CXXConstructorDecl *Constructor = Construct->getConstructor();
  if (!Constructor || Index >= Construct->getNumArgs() ||
      Index >= Constructor->getNumParams())
    return nullptr;
  return Constructor->getParamDecl(Index);
}

const ParmVarDecl *parameterOfArgument(const Expr *Call, const Expr *Arg) {
  if (const auto *C = dyn_cast<CallExpr>(Call)) {
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      if (C->getArg(I) == Arg)
        if (const ParmVarDecl *Parameter = parameterOfArgument(C, I))
          return Parameter;
  } else if (const auto *C = dyn_cast<CXXConstructExpr>(Call)) {
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      if (C->getArg(I) == Arg)
        if (const ParmVarDecl *Parameter = parameterOfArgument(C, I))
          return Parameter;
  }
  return nullptr;
}

const Expr *argumentOfParameter(const CallExpr *Call, unsigned Index) {
  const unsigned I = Index + objectArgumentCount(Call);
  return I < Call->getNumArgs() ? Call->getArg(I) : nullptr;
}

std::optional<bool> literalBool(const Expr *Argument) {
  if (!Argument)
    return std::nullopt;
  if (const auto *Literal = dyn_cast<CXXBoolLiteralExpr>(
          Argument->IgnoreImplicit()->IgnoreParenImpCasts()))
    return Literal->getValue();
  return std::nullopt;
}

bool bindsMutably(QualType Type) {
  if (Type->isPointerType())
    return !Type->getPointeeType().isConstQualified();
  if (Type->isReferenceType())
    return Type->isRValueReferenceType() ||
           !Type.getNonReferenceType().isConstQualified();
  return false;
}

const CallExpr *
callGivenVariable(const VarDecl *Variable, unsigned Index, const Stmt *Body,
                  llvm::function_ref<bool(const FunctionDecl &)> Callee) {
  if (!Body)
    return nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(Body)) {
    const FunctionDecl *Function = Call->getDirectCallee();
    if (Function && Index < Call->getNumArgs() && Callee(*Function))
      if (const auto *Ref = dyn_cast<DeclRefExpr>(
              stripWrappers(Call->getArg(Index),
                            ImplicitWrappers | CopyConstruct | ExplicitCast));
          Ref && Ref->getDecl() == Variable)
        return Call;
  }
  for (const Stmt *Child : Body->children())
    if (const CallExpr *Found =
            callGivenVariable(Variable, Index, Child, Callee))
      return Found;
  return nullptr;
}

} // namespace clang::tidy::libtorch::utils
