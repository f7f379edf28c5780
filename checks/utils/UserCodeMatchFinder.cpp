//===--- UserCodeMatchFinder.cpp - Matchers run over user code -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/UserCodeMatchFinder.h"
#include "utils/UserCode.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch::utils {

MatchFinder &UserCodeMatchFinder::attach(MatchFinder &Outer) {
  Outer.addMatcher(translationUnitDecl(), this);
  Inner = std::make_unique<MatchFinder>();
  return *Inner;
}

void UserCodeMatchFinder::run(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  std::vector<Decl *> Saved = Context.getTraversalScope();
  // A host that already narrowed the scope (the libtorch-tidy CLI sets it to
  // the same user code, clangd to the main file) has chosen what to walk.
  if (Saved.size() != 1 || !isa<TranslationUnitDecl>(Saved.front())) {
    Inner->matchAST(Context);
    return;
  }
  // The outer traversal reads the scope after this callback returns, and
  // other checks' matchers may need all of it: restore it exactly. Setting
  // the scope drops clang's parent map each time; it is rebuilt on demand
  // for the scope then current, so nobody sees one built for the other.
  Context.setTraversalScope(userTopLevelDecls(Context));
  Inner->matchAST(Context);
  Context.setTraversalScope(Saved);
}

} // namespace clang::tidy::libtorch::utils
