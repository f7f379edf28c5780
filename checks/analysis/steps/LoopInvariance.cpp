//===--- LoopInvariance.cpp - Values a loop never changes -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/LoopInvariance.h"
#include "analysis/steps/FunctionFlows.h"
#include "analysis/steps/OuterWrites.h"
#include "analysis/steps/ValueRoots.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/WalkDepths.h"
#include "utils/AstWalk.h"
#include "utils/UserCode.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// A variable and its aliases in its function.
struct Aliases {
  VarSet Vars;
  /// Stored where this analysis does not follow it.
  bool Escapes = false;
  /// Trained by an optimizer, or with gradients switched on.
  bool Trained = false;
  llvm::SmallVector<const Stmt *, 4> LambdaBodies;
};

Aliases aliasesOf(const VarDecl *Variable, unsigned Depth);

/// What \p Callee does with its parameter \p Index may change the caller's
/// argument (\p KeepOnly: may keep it beyond its own locals).
bool calleeChanges(const FunctionDecl *Callee, unsigned Index, unsigned Depth,
                   bool KeepOnly);

/// The callees of \p Call: its direct callee, or the `forward` methods a
/// module call runs. False when they cannot be told.
bool calleesOf(const CallExpr *Call,
               llvm::SmallVectorImpl<const FunctionDecl *> &Found) {
  if (isModuleForwardCall(Call))
    return forwardsOf(Call, Found);
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    Found.push_back(Callee);
  return !Found.empty();
}

/// Giving argument \p Index to \p Call may store it beyond the caller's
/// locals.
bool mayKeep(const CallExpr *Call, unsigned Index, unsigned Depth) {
  llvm::SmallVector<const FunctionDecl *, 2> Callees;
  if (!calleesOf(Call, Callees))
    return true;
  return llvm::any_of(Callees, [&](const FunctionDecl *Callee) {
    // LibTorch and the standard library keep what their objects or results
    // hold, which the flows follow; a module's forward or a function of
    // this TU is read.
    if (!utils::isUserCode(Callee))
      return false;
    return calleeChanges(Callee, Index, Depth + 1, /*KeepOnly=*/true);
  });
}

Aliases aliasesOf(const VarDecl *Variable, unsigned Depth) {
  Aliases A;
  A.Vars.insert(Variable);
  const FunctionDecl *Function = functionOf(Variable);
  if (!Function || !Variable->hasLocalStorage()) {
    A.Escapes = true;
    return A;
  }
  FunctionFacts Facts = collectFacts(Function);
  for (bool Grew = true; Grew && !A.Escapes;) {
    Grew = false;
    for (const Flow &F : Facts.Flows) {
      if (!F.Targets.meets(A.Vars) && !F.Sources.meets(A.Vars))
        continue;
      if (F.Targets.Outer || F.Sources.Outer) {
        A.Escapes = true;
        break;
      }
      for (const VarDecl *Other : F.Targets.Vars)
        Grew |= A.Vars.insert(Other).second;
      for (const VarDecl *Other : F.Sources.Vars)
        Grew |= A.Vars.insert(Other).second;
    }
  }
  if (A.Escapes)
    return A;
  for (const Passed &P : Facts.Passes)
    if (P.Argument.meets(A.Vars) &&
        (P.Argument.Outer || mayKeep(P.Call, P.Index, Depth))) {
      A.Escapes = true;
      return A;
    }
  A.Trained = Facts.Trained.meets(A.Vars);
  A.LambdaBodies = std::move(Facts.LambdaBodies);
  return A;
}

class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  WriteFinder(const VarSet &Vars, unsigned Depth) : Vars(Vars), Depth(Depth) {}
  bool Found = false;

  bool VisitBinaryOperator(BinaryOperator *Op) {
    Found |= Op->isAssignmentOp() && touches(Op->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    Found |= (Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf) &&
             touches(Op->getSubExpr());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    Found |= callWrites(Call);
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Constructor = Construct->getConstructor();
    for (unsigned I = 0; I < Construct->getNumArgs() && !Found; ++I)
      Found |= touches(Construct->getArg(I)) &&
               argumentWritten(Constructor, I, Construct->getArg(I));
    return !Found;
  }

private:
  bool touches(const Expr *E) const {
    return rootsOf(E, /*AllLocals=*/true).meets(Vars);
  }

  bool callWrites(const CallExpr *Call) const {
    const FunctionDecl *Callee = Call->getDirectCallee();
    CallParts Parts = callParts(Call);
    const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
    if (Operator && Operator->getNumArgs() > 0 &&
        (Operator->isAssignmentOp() || Operator->getOperator() == OO_PlusPlus ||
         Operator->getOperator() == OO_MinusMinus) &&
        touches(Operator->getArg(0)))
      return true;
    if (Parts.Object && touches(Parts.Object) &&
        mutatesObject(Call, Callee, Parts.ObjectType))
      return true;
    if (isModuleForwardCall(Call)) {
      llvm::SmallVector<const FunctionDecl *, 2> Forwards;
      bool Known = forwardsOf(Call, Forwards);
      for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I) {
        if (!touches(Call->getArg(I)))
          continue;
        if (!Known)
          return true;
        // LibTorch's modules do not write their inputs.
        for (const FunctionDecl *Forward : Forwards)
          if (utils::isUserCode(Forward) &&
              calleeChanges(Forward, I - Parts.First, Depth + 1, false))
            return true;
      }
      return false;
    }
    for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I)
      if (touches(Call->getArg(I)) &&
          argumentWritten(Callee, I - Parts.First, Call->getArg(I)))
        return true;
    return false;
  }

  static bool mutatesObject(const CallExpr *Call, const FunctionDecl *Callee,
                            QualType Object) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (!Method)
      return true;
    // LibTorch declares a tensor's in-place operations `const`.
    if (isTensorType(Object))
      return Method->getIdentifier() && (Method->getName().ends_with("_") ||
                                         Method->getName().starts_with("set_"));
    return !Method->isStatic() && !Method->isConst();
  }

  /// Argument \p Index (\p Argument) of a call of \p Callee may be written.
  bool argumentWritten(const FunctionDecl *Callee, unsigned Index,
                       const Expr *Argument) const {
    if (!Callee || Index >= Callee->getNumParams())
      return canShare(Argument->getType()) ||
             Argument->getType()->isReferenceType();
    QualType Parameter = Callee->getParamDecl(Index)->getType();
    if (!utils::isUserCode(Callee))
      return !writableTarget(Parameter).isNull() ||
             (Callee->getIdentifier() && Callee->getName().ends_with("_"));
    return calleeChanges(Callee, Index, Depth + 1, false);
  }

  const VarSet &Vars;
  unsigned Depth;
};

bool writesAny(const VarSet &Vars, const Stmt *Region, unsigned Depth) {
  if (!Region)
    return false;
  WriteFinder Finder(Vars, Depth);
  Finder.TraverseStmt(const_cast<Stmt *>(Region));
  return Finder.Found;
}

bool calleeChanges(const FunctionDecl *Callee, unsigned Index, unsigned Depth,
                   bool KeepOnly) {
  const FunctionDecl *Definition = Callee->getDefinition();
  if (!Definition || !Definition->getBody() ||
      Index >= Definition->getNumParams())
    return true;
  const ParmVarDecl *Parameter = Definition->getParamDecl(Index);
  // A number or a string taken by value is the callee's own copy; what a
  // non-const reference or pointer is bound to is the callee's to write.
  QualType Type = Parameter->getType();
  if (!Type->isReferenceType() && !canShare(Type))
    return false;
  if (!KeepOnly && !writableTarget(Type).isNull())
    return true;
  if (Depth > CallDepth::LoopInvariance)
    return true;
  Aliases A = aliasesOf(Parameter, Depth);
  if (A.Escapes)
    return true;
  if (KeepOnly)
    return false;
  if (A.Trained || writesAny(A.Vars, Definition->getBody(), Depth))
    return true;
  return llvm::any_of(A.LambdaBodies, [&](const Stmt *Body) {
    return writesAny(A.Vars, Body, Depth);
  });
}

/// \p Needle is \p Haystack or inside it.
bool holdsStatement(const Stmt *Haystack, const Stmt *Needle) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Stmt *Needle;
    bool Found = false;
    bool VisitStmt(Stmt *S) {
      Found |= S == Needle;
      return !Found;
    }
  } F;
  F.Needle = Needle;
  F.TraverseStmt(const_cast<Stmt *>(Haystack));
  return F.Found;
}

/// \p Region declares \p Variable.
bool declares(const Stmt *Region, const VarDecl *Variable) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Variable;
    bool Found = false;
    bool VisitVarDecl(VarDecl *Var) {
      Found |= Var == Variable;
      return !Found;
    }
  } F;
  F.Variable = Variable;
  F.TraverseStmt(const_cast<Stmt *>(Region));
  return F.Found;
}

/// \p Loop names an optimizer, and every one it names is a local variable
/// (not a parameter, member or call result): what its steps update was
/// built in this function, from tensors the flows see.
bool stepsOnlyLocalOptimizers(const Stmt *Loop) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Local = false;
    bool Other = false;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (!isOptimizer(Ref->getType()))
        return true;
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var))
        Local = true;
      else
        Other = true;
      return !Other;
    }
    bool VisitMemberExpr(MemberExpr *Member) {
      Other |= isOptimizer(Member->getType());
      return !Other;
    }
    bool VisitCallExpr(CallExpr *Call) {
      Other |= isOptimizer(Call->getType());
      return !Other;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  return F.Local && !F.Other;
}

} // namespace

bool isWrittenIn(const VarDecl *Variable, const Stmt *Region) {
  if (!Variable)
    return true;
  VarSet Vars;
  Vars.insert(Variable);
  return writesAny(Vars, Region, 0);
}

bool isLoopInvariant(const Expr *E, const Stmt *Loop) {
  if (!E || !Loop)
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(
      utils::stripWrappers(E, utils::ImplicitWrappers | utils::CopyConstruct));
  const auto *Variable = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // A member, a global or a static local may be changed by any code the
  // loop calls: only locals and parameters are followed.
  if (!Variable || !Variable->hasLocalStorage())
    return false;
  // Declared in the loop, it is made again on every iteration; declared in
  // a lambda or a function the loop is not in, it is not this loop's.
  const FunctionDecl *Function = functionOf(Variable);
  if (!Function || !holdsStatement(Function->getBody(), Loop) ||
      declares(Loop, Variable))
    return false;
  Aliases A = aliasesOf(Variable, 0);
  if (A.Escapes || A.Trained || writesAny(A.Vars, Loop, 0) ||
      llvm::any_of(A.LambdaBodies, [&](const Stmt *Body) {
        return writesAny(A.Vars, Body, 0);
      }))
    return false;
  // A parameter may be a tensor the caller gave to an optimizer that the
  // loop steps (a number taken by value may not).
  bool HoldsParameter = llvm::any_of(A.Vars, [](const VarDecl *Var) {
    return isa<ParmVarDecl>(Var) &&
           (Var->getType()->isReferenceType() || canShare(Var->getType()));
  });
  return !HoldsParameter || stepsOnlyLocalOptimizers(Loop);
}

} // namespace clang::tidy::libtorch::analysis
