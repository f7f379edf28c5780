//===--- CalledElsewhere.cpp - Calls summaries answer for -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/summaries/CalledElsewhere.h"
#include "utils/UserCode.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Index/USRGeneration.h"
#include <set>

namespace clang::tidy::libtorch::analysis {

namespace {

/// The calls of functions defined elsewhere, in all user code.
class CallsElsewhere : public RecursiveASTVisitor<CallsElsewhere> {
public:
  CallsElsewhere(const SourceManager &SM, std::set<std::string> &Out)
      : SM(SM), Out(Out) {}
  // A check sees the calls of instantiations too.
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = calleeDefinedElsewhere(*Call);
    if (!Callee || !utils::isUserCode(Callee, SM))
      return true;
    if (std::string Usr = usrOf(Callee); !Usr.empty())
      Out.insert(std::move(Usr));
    return true;
  }

private:
  const SourceManager &SM;
  std::set<std::string> &Out;
};

} // namespace

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Usr;
  // generateUSRForDecl returns true when it could not make one.
  if (!D || index::generateUSRForDecl(D, Usr))
    return {};
  return std::string(Usr);
}

const FunctionDecl *calleeDefinedElsewhere(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || Callee->hasBody())
    return nullptr;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      Method && Method->isVirtual())
    return nullptr;
  return Callee;
}

std::vector<std::string> functionsCalledElsewhere(ASTContext &Context) {
  std::set<std::string> Usrs;
  CallsElsewhere Visitor(Context.getSourceManager(), Usrs);
  for (Decl *D : utils::userTopLevelDecls(Context))
    Visitor.TraverseDecl(D);
  return {Usrs.begin(), Usrs.end()};
}

} // namespace clang::tidy::libtorch::analysis
