//===--- UserCode.cpp - What is user code, and its parents ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/UserCode.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::libtorch::utils {

bool isUserCode(const Decl *D, const SourceManager &SM) {
  return D && D->getLocation().isValid() &&
         !SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

bool isUserCode(const Decl *D) {
  return D && isUserCode(D, D->getASTContext().getSourceManager());
}

std::vector<Decl *> userTopLevelDecls(ASTContext &Context) {
  std::vector<Decl *> Decls;
  for (Decl *D : Context.getTranslationUnitDecl()->decls())
    if (isUserCode(D, Context.getSourceManager()))
      Decls.push_back(D);
  return Decls;
}

/// Records, for each node it traverses, the node on top of the stack of
/// nodes being traversed: the same traversal, and so the same parents, as
/// ParentMapContext's (template instantiations and implicit code included).
class UserCodeParents::Builder : public RecursiveASTVisitor<Builder> {
public:
  explicit Builder(UserCodeParents &Index) : Index(Index) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    record(D, DynTypedNode::create(*D));
    return withParent(DynTypedNode::create(*D),
                      [&] { return Base::TraverseDecl(D); });
  }
  bool TraverseTypeLoc(TypeLoc Loc, bool TraverseQualifier = true) {
    if (!Loc)
      return true;
    record(nullptr, DynTypedNode::create(Loc));
    return withParent(DynTypedNode::create(Loc), [&] {
      return compat::traverseTypeLocAs<Base>(*this, Loc, TraverseQualifier);
    });
  }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc Loc) {
    if (!Loc)
      return true;
    record(nullptr, DynTypedNode::create(Loc));
    return withParent(DynTypedNode::create(Loc), [&] {
      return Base::TraverseNestedNameSpecifierLoc(Loc);
    });
  }
  bool TraverseAttr(Attr *A) {
    if (!A)
      return true;
    record(A, DynTypedNode::create(*A));
    return withParent(DynTypedNode::create(*A),
                      [&] { return Base::TraverseAttr(A); });
  }
  // Statements through the data-recursion hooks, not TraverseStmt: the
  // 20,000-statement functions of test/hostile must not recurse that deep.
  bool dataTraverseStmtPre(Stmt *S) {
    record(S, DynTypedNode::create(*S));
    Stack.push_back(DynTypedNode::create(*S));
    return true;
  }
  bool dataTraverseStmtPost(Stmt * /*S*/) {
    Stack.pop_back();
    return true;
  }

private:
  using Base = RecursiveASTVisitor<Builder>;

  template <typename Fn> bool withParent(const DynTypedNode &Node, Fn Inner) {
    Stack.push_back(Node);
    bool Result = Inner();
    Stack.pop_back();
    return Result;
  }

  /// Adds the top of the stack to the parents of \p Node (keyed by
  /// \p Identity when it has one). Template instantiations are traversed
  /// more than once: a parent already known is not added again.
  void record(const void *Identity, const DynTypedNode &Node) {
    if (Stack.empty())
      return;
    ParentList &Parents =
        Identity ? Index.ByPointer[Identity] : Index.ByValue[Node];
    const DynTypedNode &Parent = Stack.back();
    if (Parent.getMemoizationData() && llvm::is_contained(Parents, Parent))
      return;
    Parents.push_back(Parent);
  }

  UserCodeParents &Index;
  llvm::SmallVector<DynTypedNode, 16> Stack;
};

UserCodeParents::UserCodeParents(ASTContext &Context) {
  Builder Build(*this);
  for (Decl *D : userTopLevelDecls(Context))
    Build.TraverseDecl(D);
}

DynTypedNodeList UserCodeParents::get(const DynTypedNode &Node) const {
  const ParentList *Parents = nullptr;
  if (const void *Identity = Node.getMemoizationData()) {
    auto It = ByPointer.find(Identity);
    if (It != ByPointer.end())
      Parents = &It->second;
  } else {
    auto It = ByValue.find(Node);
    if (It != ByValue.end())
      Parents = &It->second;
  }
  if (!Parents || Parents->empty())
    return llvm::ArrayRef<DynTypedNode>();
  if (Parents->size() == 1)
    return Parents->front();
  return llvm::ArrayRef<DynTypedNode>(*Parents);
}

namespace {

/// The first function (or, when \p Lambdas, lambda) above \p S.
const FunctionDecl *firstFunctionAbove(const Stmt *S,
                                       const UserCodeParents &Parents,
                                       bool Lambdas) {
  if (!S)
    return nullptr;
  const FunctionDecl *Found = nullptr;
  utils::forEachAncestor(
      DynTypedNode::create(*S), Parents,
      [&](const DynTypedNode &Parent, const DynTypedNode &) {
        if (const auto *Lambda = Parent.get<LambdaExpr>(); Lambda && Lambdas)
          Found = Lambda->getCallOperator();
        else if (const auto *Function = Parent.get<FunctionDecl>()) {
          const auto *Method = dyn_cast<CXXMethodDecl>(Function);
          if (Lambdas || !Method || !Method->getParent()->isLambda())
            Found = Function;
        }
        return !Found;
      });
  return Found;
}

} // namespace

const FunctionDecl *enclosingFunction(const Stmt *S,
                                      const UserCodeParents &Parents) {
  return firstFunctionAbove(S, Parents, /*Lambdas=*/false);
}

const FunctionDecl *enclosingCallable(const Stmt *S,
                                      const UserCodeParents &Parents) {
  return firstFunctionAbove(S, Parents, /*Lambdas=*/true);
}

} // namespace clang::tidy::libtorch::utils
