//===--- ProgramEntry.cpp - What `main` runs ------------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/program/ProgramEntry.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis {

ProgramEntry::ProgramEntry(ASTContext &Context,
                           const utils::UserCodeParents &Parents)
    : Context(Context), Parents(Parents) {
  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    if (const auto *Function = dyn_cast<FunctionDecl>(TopLevel);
        Function && Function->isMain() &&
        Function->doesThisDeclarationHaveABody())
      Main = Function;
}

void ProgramEntry::collect() {
  Collected = true;
  if (!Main)
    return;
  const SourceManager &SM = Context.getSourceManager();
  llvm::SmallVector<const FunctionDecl *, 16> Work;
  auto Reach = [&](const FunctionDecl *Function) {
    if (!Function)
      return;
    const FunctionDecl *Definition = nullptr;
    // LibTorch's own functions run no loop of the user's.
    if (!Function->hasBody(Definition) || !utils::isUserCode(Definition, SM))
      return;
    if (!Reached.insert(Definition->getCanonicalDecl()).second)
      return;
    if (const FunctionDecl *Pattern =
            Definition->getTemplateInstantiationPattern())
      Reached.insert(Pattern->getCanonicalDecl());
    Work.push_back(Definition);
  };
  // Everything the body names: calls, constructions, and functions handed
  // on by name (`std::thread worker(train);`), which the program runs too.
  struct Visitor : RecursiveASTVisitor<Visitor> {
    decltype(Reach) &Found;
    explicit Visitor(decltype(Reach) &Found) : Found(Found) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) const {
      Found(dyn_cast<FunctionDecl>(Ref->getDecl()));
      return true;
    }
    bool VisitMemberExpr(MemberExpr *Member) const {
      Found(dyn_cast<FunctionDecl>(Member->getMemberDecl()));
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *Construct) const {
      Found(Construct->getConstructor());
      return true;
    }
  } V(Reach);
  Reach(Main);
  while (!Work.empty()) {
    const FunctionDecl *Function = Work.pop_back_val();
    // The whole declaration: a constructor's member initializers run too.
    V.TraverseDecl(const_cast<FunctionDecl *>(Function));
  }
}

bool ProgramEntry::isReached(const FunctionDecl *Function) const {
  if (Reached.contains(Function->getCanonicalDecl()))
    return true;
  const FunctionDecl *Pattern = Function->getTemplateInstantiationPattern();
  return Pattern && Reached.contains(Pattern->getCanonicalDecl());
}

bool ProgramEntry::reaches(const Stmt &S) {
  if (!Main)
    return false;
  if (!Collected)
    collect();
  // A lambda runs in (or on behalf of) the function that writes it.
  const FunctionDecl *Function = utils::enclosingFunction(&S, Parents);
  return Function && isReached(Function);
}

const Stmt *ProgramEntry::settingLoop(llvm::ArrayRef<const Stmt *> Loops) {
  for (const Stmt *Loop : Loops)
    if (reaches(*Loop))
      return Loop;
  return Loops.empty() ? nullptr : Loops.front();
}

} // namespace clang::tidy::libtorch::analysis
