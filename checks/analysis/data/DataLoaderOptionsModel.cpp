//===--- DataLoaderOptionsModel.cpp - What a loader's options say ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/data/DataLoaderOptionsModel.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

namespace clang::tidy::libtorch::analysis {

using Facts = LoaderOptionsFacts;

bool isDataLoaderOptionsType(QualType Type) {
  return isRecordNamed(Type, names::DataLoaderOptions);
}

const Expr *findLoaderOptionsArgument(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return nullptr;
  for (unsigned I = 0, E = std::min(Call.getNumArgs(), Callee->getNumParams());
       I != E; ++I)
    if (isDataLoaderOptionsType(Callee->getParamDecl(I)->getType()))
      return Call.getArg(I);
  return nullptr;
}

namespace {

bool isStdMoveCall(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call || Call->getNumArgs() != 1)
    return false;
  const auto *Callee = Call->getDirectCallee();
  return Callee && Callee->isInStdNamespace() && Callee->getIdentifier() &&
         (Callee->getName() == "move" || Callee->getName() == "forward");
}

/// Skips what does not change the value: implicit conversions, temporaries,
/// copies and moves of the options object, and std::move.
const Expr *skipValuePreserving(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (!isa<CXXTemporaryObjectExpr>(Construct) &&
          Construct->getConstructor()->isCopyOrMoveConstructor() &&
          Construct->getNumArgs() >= 1) {
        E = Construct->getArg(0);
        continue;
      }
    }
    if (isStdMoveCall(E)) {
      E = cast<CallExpr>(E)->getArg(0);
      continue;
    }
    return E;
  }
  return E;
}

Facts::WorkersKind classifyWorkersArgument(const Expr *Arg) {
  const auto *Literal =
      dyn_cast<IntegerLiteral>(Arg->IgnoreImplicit()->IgnoreParens());
  if (!Literal)
    return Facts::WorkersKind::NonLiteral;
  return Literal->getValue().isZero() ? Facts::WorkersKind::LiteralZero
                                      : Facts::WorkersKind::LiteralPositive;
}

/// `make_data_loader(ds, 64)`: the options are an implicit conversion from
/// the batch size, a constructor call that is not spelled in the source.
bool isImplicitBatchSizeConversion(const CXXConstructExpr *Construct) {
  return !isa<CXXTemporaryObjectExpr>(Construct) &&
         Construct->getParenOrBraceRange().isInvalid() &&
         Construct->getNumArgs() == 1 &&
         Construct->getArg(0)->getType()->isIntegerType();
}

/// Walks up from a reference to the options variable through nodes that do
/// not change what is referred to.
const Stmt *meaningfulParent(const Stmt *Node,
                             const utils::UserCodeParents &Index) {
  // The end of the full expression is meaningful: `opts.workers(2);` is a
  // statement of its own.
  return utils::parentIgnoring(Node, Index,
                               utils::ImplicitWrappers & ~utils::Cleanups)
      .Parent.get<Stmt>();
}

/// Applies what the function body does to a local options variable after
/// its declaration: `opts.workers(n);` statements decide the worker count,
/// copies are harmless, anything else (assignment, a non-const reference
/// passed away, taking the address) makes the value unknown to us.
void applyLaterUses(const VarDecl *Variable, const Stmt *Body,
                    ASTContext &Context, const utils::UserCodeParents &Parents,
                    Facts &Result) {
  using namespace ast_matchers;
  const auto References =
      match(findAll(declRefExpr(to(varDecl(equalsNode(Variable)))).bind("ref")),
            *Body, Context);
  // Later statements override the initializer, the last one in the source
  // winning for each setter.
  std::map<std::string, const CXXMemberCallExpr *> LastCalls;
  for (const auto &Bound : References) {
    const auto *Ref = Bound.getNodeAs<DeclRefExpr>("ref");
    const Stmt *Parent = meaningfulParent(Ref, Parents);
    if (!Parent) {
      Result.Origin = Facts::OriginKind::Opaque;
      return;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(Parent)) {
      const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(
          meaningfulParent(Member, Parents));
      const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
      if (!Call || !Method) {
        Result.Origin = Facts::OriginKind::Opaque;
        return;
      }
      if (Call->getNumArgs() == 1 && Method->getIdentifier() &&
          isDataLoaderOptionsType(Method->getReturnType())) {
        const CXXMemberCallExpr *&Last = LastCalls[Method->getName().str()];
        if (!Last || Context.getSourceManager().isBeforeInTranslationUnit(
                         compat::beginOf(*Last), compat::beginOf(*Call)))
          Last = Call;
      } else if (!Method->isConst()) {
        // A member we do not know: stay on the safe side.
        Result.Origin = Facts::OriginKind::Opaque;
        return;
      }
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent)) {
      if (Construct->getConstructor()->isCopyOrMoveConstructor())
        continue;
    }
    if (isStdMoveCall(cast<Expr>(Parent)))
      continue;
    Result.Origin = Facts::OriginKind::Opaque;
    return;
  }
  for (const auto &[Name, Call] : LastCalls)
    Result.SetterArguments[Name] = Call->getArg(0);
}

/// Derives the worker facts from the setters seen.
void decideWorkers(Facts &Result) {
  Result.WorkersArg = Result.setterArgument("workers");
  Result.Workers = Result.WorkersArg
                       ? classifyWorkersArgument(Result.WorkersArg)
                       : Facts::WorkersKind::Unset;
}

Facts analyze(const Expr *Arg, const Stmt *Body, ASTContext &Context,
              const utils::UserCodeParents &Parents, bool AllowVariable) {
  Facts Result;
  if (!Arg)
    return Result;
  if (isa<CXXDefaultArgExpr>(Arg->IgnoreImplicit())) {
    Result.Origin = Facts::OriginKind::DefaultArgument;
    return Result;
  }
  const Expr *Written = skipValuePreserving(Arg);
  const Expr *Node = Written;
  bool HasSetters = false;
  // Setter chains are read from the outermost call inwards, so the first
  // `workers` seen is the last one applied.
  while (const auto *Call = dyn_cast<CXXMemberCallExpr>(Node)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (!Method ||
        !isDataLoaderOptionsType(compat::typeOfClass(*Method->getParent())))
      return Result;
    HasSetters = true;
    if (Call->getNumArgs() == 1 && Method->getIdentifier())
      Result.SetterArguments.emplace(Method->getName().str(), Call->getArg(0));
    Node = skipValuePreserving(Call->getImplicitObjectArgument());
  }

  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Node)) {
    if (!isDataLoaderOptionsType(Construct->getType()))
      return Result;
    if (!HasSetters && isImplicitBatchSizeConversion(Construct)) {
      Result.Origin = Facts::OriginKind::BareBatchSize;
      Result.BatchSizeArg = Construct->getArg(0)->IgnoreImplicit();
      return Result;
    }
    Result.Origin = Facts::OriginKind::SetterChain;
    // A declaration's own construction (`DataLoaderOptions opts(64);`) is no
    // expression one could append a setter to.
    if (HasSetters || isa<CXXTemporaryObjectExpr>(Construct))
      Result.AppendAfter = Written;
    return Result;
  }
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Node)) {
    if (!isDataLoaderOptionsType(Cast->getType()))
      return Result;
    Result.Origin = Facts::OriginKind::SetterChain;
    Result.AppendAfter = Written;
    return Result;
  }

  if (const auto *Ref = dyn_cast<DeclRefExpr>(Node); Ref && AllowVariable) {
    const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl());
    // Parameters, globals, members and references hold values made
    // elsewhere: we cannot know their workers.
    if (!Variable || !Body || isa<ParmVarDecl>(Variable) ||
        !Variable->hasLocalStorage() ||
        Variable->getType()->isReferenceType() || !Variable->getInit())
      return Result;
    if (HasSetters)
      return Result; // opts.batch_size(8) passed directly: unusual, unknown.
    Result = analyze(Variable->getInit(), Body, Context, Parents,
                     /*AllowVariable=*/false);
    if (Result.Origin == Facts::OriginKind::Opaque)
      return Result;
    Result.Variable = Variable;
    applyLaterUses(Variable, Body, Context, Parents, Result);
    return Result;
  }
  return Result;
}

} // namespace

LoaderOptionsFacts analyzeLoaderOptions(const Expr *OptionsArg,
                                        const Stmt *EnclosingFunctionBody,
                                        ASTContext &Context,
                                        const utils::UserCodeParents &Parents) {
  Facts Result = analyze(OptionsArg, EnclosingFunctionBody, Context, Parents,
                         /*AllowVariable=*/true);
  decideWorkers(Result);
  return Result;
}

} // namespace clang::tidy::libtorch::analysis
