//===--- ConvolutionModules.cpp - How conv modules are built, used --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/vocabulary/ConvolutionModules.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::analysis {

namespace {

bool isOptionsMethodOn(const CXXMemberCallExpr *Call) {
  const CXXMethodDecl *Method = Call->getMethodDecl();
  return Method &&
         isConvolutionOptionsType(compat::typeOfClass(*Method->getParent()));
}

/// Which bias the options expression \p Options leaves the module with.
/// The outermost `.bias(...)` of a chain wins.
ConvBias biasOf(const Expr *Options, const Expr *&BiasArgument) {
  const Expr *Current = stripModuleValue(Options);
  while (Current) {
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Current)) {
      if (!isOptionsMethodOn(Call))
        return ConvBias::Unknown;
      if (Call->getMethodDecl()->getName() == "bias" &&
          Call->getNumArgs() == 1) {
        const auto *Literal = dyn_cast<CXXBoolLiteralExpr>(
            Call->getArg(0)->IgnoreParenImpCasts());
        if (!Literal)
          return ConvBias::Unknown;
        if (!Literal->getValue())
          return ConvBias::Off;
        BiasArgument = Literal;
        return ConvBias::ExplicitTrue;
      }
      Current = stripModuleValue(Call->getImplicitObjectArgument());
      continue;
    }
    // The options' own construction: `Conv2dOptions(in, out, k)`.
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Current))
      if (isConvolutionOptionsType(Construct->getType()) &&
          !Construct->getConstructor()->isCopyOrMoveConstructor() &&
          Construct->getNumArgs() >= 3)
        return ConvBias::Default;
    // A variable, a parameter, a function's result: not seen here.
    return ConvBias::Unknown;
  }
  return ConvBias::Unknown;
}

bool isRegisterModuleCall(const Expr *E) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  return Method && Method->getName() == "register_module" &&
         isSameOrDerivedFrom(Method->getParent(), names::Module) &&
         Call->getNumArgs() == 2;
}

/// The expressions assigned to \p Field in \p Body (`field = ...`).
void collectAssignments(const Stmt *Body, const FieldDecl *Field,
                        llvm::SmallVectorImpl<const Expr *> &Values) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FieldDecl *Field;
    llvm::SmallVectorImpl<const Expr *> &Values;
    Finder(const FieldDecl *Field, llvm::SmallVectorImpl<const Expr *> &Values)
        : Field(Field), Values(Values) {}
    bool isField(const Expr *E) const {
      const auto *Member = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
      return Member && Member->getMemberDecl() == Field;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      if (Op->isAssignmentOp() && Op->getNumArgs() == 2 &&
          isField(Op->getArg(0)))
        Values.push_back(Op->getArg(1));
      return true;
    }
  } F(Field, Values);
  F.TraverseStmt(const_cast<Stmt *>(Body));
}

} // namespace

bool isConvolutionModuleType(QualType Type) {
  const auto *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  return hasAnyQualifiedName(Record, names::ConvolutionModules);
}

bool isConvolutionOptionsType(QualType Type) {
  return isRecordNamed(Type, names::ConvOptions) ||
         isRecordNamed(Type, names::ConvTransposeOptions) ||
         isRecordNamed(Type, names::ConvNdOptions);
}

const Expr *stripModuleValue(const Expr *E) {
  return utils::stripWrappers(E, utils::ImplicitWrappers |
                                     utils::CopyConstruct |
                                     utils::FunctionalCast);
}

bool isBatchNormModuleType(QualType Type) {
  const auto *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  return hasAnyQualifiedName(Record, names::BatchNormModules);
}

std::optional<ConvConstruction> convConstruction(const Expr *E) {
  E = stripModuleValue(E);
  if (!E)
    return std::nullopt;
  if (isRegisterModuleCall(E))
    return convConstruction(cast<CXXMemberCallExpr>(E)->getArg(1));
  const auto *Construct = dyn_cast<CXXConstructExpr>(E);
  if (!Construct)
    return std::nullopt;
  // A holder converted from another holder (`Conv2d` from the
  // `ModuleHolder<Conv2dImpl>` that register_module returns).
  if (Construct->getNumArgs() == 1 &&
      !isConvolutionOptionsType(Construct->getArg(0)->getType()) &&
      !Construct->getArg(0)->getType()->isNullPtrType() &&
      Construct->getArg(0)->getType()->isRecordType())
    return convConstruction(Construct->getArg(0));
  if (!isConvolutionModuleType(Construct->getType()))
    return std::nullopt;
  ConvConstruction Result;
  Result.Module = Construct;
  if (Construct->getNumArgs() == 1 &&
      isConvolutionOptionsType(Construct->getArg(0)->getType())) {
    Result.Options = Construct->getArg(0);
    Result.Bias = biasOf(Result.Options, Result.BiasArgument);
    return Result;
  }
  // Conv2d(in, out, kernel): ConvOptions' defaults, bias included.
  if (Construct->getNumArgs() == 3) {
    for (const Expr *Arg : Construct->arguments())
      if (isa<CXXDefaultArgExpr>(Arg))
        return std::nullopt;
    Result.Bias = ConvBias::Default;
    return Result;
  }
  return std::nullopt; // nullptr, a copy of another module, ...
}

std::optional<ConvConstruction> constructionOfHolder(const Expr *Holder,
                                                     ASTContext &Context) {
  Holder = Holder ? Holder->IgnoreParenImpCasts() : nullptr;
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Holder)) {
    const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Variable || !Variable->hasLocalStorage() ||
        isa<ParmVarDecl>(Variable) || !Variable->getInit())
      return std::nullopt;
    return convConstruction(Variable->getInit());
  }
  const auto *Member = dyn_cast_or_null<MemberExpr>(Holder);
  const auto *Field =
      Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  if (!Field)
    return std::nullopt;
  const auto *Record = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!Record || !Record->hasDefinition())
    return std::nullopt;

  llvm::SmallVector<const Expr *, 4> Values;
  if (Field->hasInClassInitializer() && Field->getInClassInitializer())
    Values.push_back(Field->getInClassInitializer());
  for (const Decl *Member : Record->decls()) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Member);
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Member))
      Method = dyn_cast<CXXMethodDecl>(Template->getTemplatedDecl());
    if (!Method)
      continue;
    const FunctionDecl *Definition = nullptr;
    if (!Method->hasBody(Definition))
      continue;
    if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(Definition))
      for (const CXXCtorInitializer *Init : Constructor->inits())
        if (Init->isWritten() && Init->getMember() == Field)
          Values.push_back(Init->getInit());
    collectAssignments(Definition->getBody(), Field, Values);
  }
  std::optional<ConvConstruction> Found;
  for (const Expr *Value : Values) {
    std::optional<ConvConstruction> Construction = convConstruction(Value);
    if (!Construction) {
      // `conv{nullptr}` declares an empty holder to be assigned later.
      const Expr *Stripped = stripModuleValue(Value);
      if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Stripped))
        if (Construct->getNumArgs() == 1 &&
            Construct->getArg(0)->getType()->isNullPtrType())
          continue;
      return std::nullopt;
    }
    if (Found)
      return std::nullopt; // built in two places: which one runs?
    Found = Construction;
  }
  return Found;
}

std::optional<ModuleCall> moduleCall(const Expr *E) {
  E = stripModuleValue(E);
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() != OO_Call || Op->getNumArgs() < 2)
      return std::nullopt;
    return ModuleCall{Op->getArg(0)->IgnoreParenImpCasts(), Op->getArg(1)};
  }
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E);
  if (!Call || !Call->getMethodDecl() ||
      Call->getMethodDecl()->getName() != "forward" || Call->getNumArgs() < 1)
    return std::nullopt;
  // `m->forward(x)` on a holder calls its operator->.
  const Expr *Object = Call->getImplicitObjectArgument()->IgnoreParenImpCasts();
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Object);
      Arrow && Arrow->getOperator() == OO_Arrow)
    Object = Arrow->getArg(0)->IgnoreParenImpCasts();
  return ModuleCall{Object, Call->getArg(0)};
}

} // namespace clang::tidy::libtorch::analysis
