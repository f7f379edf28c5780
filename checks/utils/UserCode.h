//===--- UserCode.h - What is user code, and its parents --------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// User code is everything outside system headers: the checks report only
// there, and look only there for what they need to know.
//
// UserCodeParents: the parents of AST nodes in user code, for the walks up
// from a matched node that the checks make (to the enclosing block, loop or
// function).
//
// clang's ParentMapContext (`ASTContext::getParents`) indexes the whole
// traversal scope on first use. In a clang-tidy run that is the whole
// translation unit, LibTorch's headers included: on a LibTorch TU, indexing
// them costs more than all our matchers together, and our walks never leave
// user code. This index covers the top-level declarations outside system
// headers, the same set the libtorch-tidy CLI sets as the traversal scope,
// and answers like ParentMapContext with TK_AsIs for every node in them.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_USERCODE_H
#define LIBTORCH_TIDY_CHECKS_UTILS_USERCODE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace clang::tidy::libtorch::utils {

/// \p D is declared outside system headers. A declaration written by a macro
/// expansion belongs where the macro was used: TORCH_MODULE(Net) in user
/// code is user code. Implicit declarations (builtin typedefs) have no
/// location and are not user code.
bool isUserCode(const Decl *D, const SourceManager &SM);

/// The same, with the source manager of \p D's ASTContext (null: false).
bool isUserCode(const Decl *D);

/// The top-level declarations of the TU that are user code.
std::vector<Decl *> userTopLevelDecls(ASTContext &Context);

class UserCodeParents {
public:
  explicit UserCodeParents(ASTContext &Context);

  /// The parents of \p Node, as ParentMapContext would give them; empty for
  /// the top-level declarations and for nodes outside user code.
  DynTypedNodeList get(const DynTypedNode &Node) const;
  template <typename NodeT> DynTypedNodeList get(const NodeT &Node) const {
    return get(DynTypedNode::create(Node));
  }

private:
  class Builder;
  using ParentList = llvm::SmallVector<DynTypedNode, 1>;
  /// Nodes with identity (declarations, statements, attributes).
  llvm::DenseMap<const void *, ParentList> ByPointer;
  /// Nodes without (type locations, nested name specifier locations).
  llvm::DenseMap<DynTypedNode, ParentList> ByValue;
};

/// The function whose body holds \p S, in user code; a lambda's call
/// operator is skipped for the function that defines the lambda.
const FunctionDecl *enclosingFunction(const Stmt *S,
                                      const UserCodeParents &Parents);

/// The innermost function or lambda (its call operator) whose body holds
/// \p S, in user code: what the `forCallable` matcher finds, without
/// clang's parent map of the whole TU.
const FunctionDecl *enclosingCallable(const Stmt *S,
                                      const UserCodeParents &Parents);

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_USERCODE_H
