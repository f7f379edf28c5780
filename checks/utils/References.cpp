//===--- References.cpp - Where a declaration is used ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "References.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::utils {

namespace {

/// The references to one declaration, up to the first when \p FirstOnly.
struct ReferenceFinder : RecursiveASTVisitor<ReferenceFinder> {
  const ValueDecl *D;
  bool FirstOnly;
  std::vector<const DeclRefExpr *> Found;
  ReferenceFinder(const ValueDecl *D, bool FirstOnly)
      : D(D), FirstOnly(FirstOnly) {}
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() == D)
      Found.push_back(Ref);
    return !FirstOnly || Found.empty();
  }
};

} // namespace

std::vector<const DeclRefExpr *> referencesTo(const ValueDecl *D,
                                              const Stmt *S) {
  ReferenceFinder Finder(D, /*FirstOnly=*/false);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return std::move(Finder.Found);
}

bool mentions(const Stmt *S, const ValueDecl *D) {
  ReferenceFinder Finder(D, /*FirstOnly=*/true);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return !Finder.Found.empty();
}

bool localsDeclaredBefore(const Stmt *S, SourceLocation Loc,
                          const SourceManager &SM) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SourceLocation Loc;
    const SourceManager &SM;
    bool Ok = true;
    Finder(SourceLocation Loc, const SourceManager &SM) : Loc(Loc), SM(SM) {}
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        if (Var->isLocalVarDeclOrParm() &&
            !SM.isBeforeInTranslationUnit(Var->getLocation(), Loc))
          Ok = false;
      return Ok;
    }
  } F(Loc, SM);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Ok;
}

bool isAssignedOrAddressTaken(const VarDecl *Variable, const Stmt *Body,
                              WrapperSet LeftSide) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Variable;
    WrapperSet LeftSide;
    bool Found = false;
    bool refersTo(const Expr *E) const {
      const auto *Ref =
          dyn_cast_or_null<DeclRefExpr>(stripWrappers(E, LeftSide));
      return Ref && Ref->getDecl() == Variable;
    }
    bool VisitBinaryOperator(BinaryOperator *Op) {
      Found |= Op->isAssignmentOp() && refersTo(Op->getLHS());
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      Found |= Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
               refersTo(Op->getArg(0));
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *Op) {
      Found |= Op->getOpcode() == UO_AddrOf && refersTo(Op->getSubExpr());
      return !Found;
    }
  } F;
  F.Variable = Variable;
  F.LeftSide = LeftSide;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

} // namespace clang::tidy::libtorch::utils
