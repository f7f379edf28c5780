//===--- HostPointerReads.cpp - Tensor memory read on the host ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/HostPointerReads.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "utils/References.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// How many steps (arithmetic, local pointers) the pointer is followed.
constexpr unsigned MaxSteps = 4;

/// \p E, a dereference or an index, is the left side of a plain `=`: a
/// write, which needs no value from the device.
bool isWrittenTo(const Expr *E, const utils::UserCodeParents &Parents) {
  const utils::Above Up = utils::parentIgnoring(E, Parents);
  const auto *Assign = Up.Parent.get<BinaryOperator>();
  return Assign && Assign->getOpcode() == BO_Assign &&
         Assign->getLHS() == Up.Child;
}

/// \p Child is one of the first two arguments of \p Call.
bool isRangeArgument(const CallExpr &Call, const Stmt *Child) {
  for (unsigned I = 0; I < Call.getNumArgs() && I < 2; ++I)
    if (Call.getArg(I) == Child)
      return true;
  return false;
}

/// \p Call reads on the host the memory \p Child, one of its arguments,
/// points to.
bool callReads(const CallExpr &Call, const Stmt *Child) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return false;
  if (hasAnyQualifiedName(Callee, names::HostMemoryCopies))
    return Call.getNumArgs() > 1 && Call.getArg(1) == Child;
  if (hasAnyQualifiedName(Callee, names::HostRangeReaders))
    return isRangeArgument(Call, Child);
  // `v.assign(p, p + n)`, `v.insert(v.end(), p, p + n)` of a standard
  // container.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      Method && isInNamespace(Method->getParent(), "::std") &&
      (isNamed(Method, "assign") || isNamed(Method, "insert") ||
       isNamed(Method, "append")))
    return llvm::is_contained(Call.arguments(), Child);
  return false;
}

/// `std::vector<float> v(p, p + n)`: a standard container built from the
/// range copies it on the host.
bool constructionReads(const CXXConstructExpr &Construct, const Stmt *Child) {
  const CXXRecordDecl *Record = Construct.getConstructor()->getParent();
  if (!Record || !isInNamespace(Record, "::std") || Construct.getNumArgs() < 2)
    return false;
  return Construct.getArg(0) == Child || Construct.getArg(1) == Child;
}

bool readOnHost(const Expr *Pointer, const utils::UserCodeParents &Parents,
                unsigned Steps);

/// \p Variable, a local pointer initialized with the pointer, is read
/// through somewhere in its function.
bool localPointerRead(const VarDecl &Variable,
                      const utils::UserCodeParents &Parents, unsigned Steps) {
  const auto *Function = dyn_cast<FunctionDecl>(Variable.getDeclContext());
  if (!Variable.getType()->isPointerType() || !Variable.isLocalVarDecl() ||
      !Function || !Function->getBody())
    return false;
  // Given another value, the variable no longer points into the tensor.
  if (utils::isAssignedOrAddressTaken(&Variable, Function->getBody()))
    return false;
  for (const DeclRefExpr *Ref :
       utils::referencesTo(&Variable, Function->getBody()))
    if (readOnHost(Ref, Parents, Steps + 1))
      return true;
  return false;
}

bool readOnHost(const Expr *Pointer, const utils::UserCodeParents &Parents,
                unsigned Steps) {
  if (!Pointer || Steps > MaxSteps)
    return false;
  utils::Above Up = utils::parentIgnoring(Pointer, Parents);
  // `static_cast<float *>(t.data_ptr())`: the same memory. (Walking up,
  // the wrappers of AstWalk.h stop at casts written in the source.)
  while (const auto *Cast = Up.Parent.get<ExplicitCastExpr>()) {
    if (!Cast->getType()->isPointerType())
      return false;
    Up = utils::parentIgnoring(Cast, Parents);
  }
  if (const auto *Unary = Up.Parent.get<UnaryOperator>())
    return Unary->getOpcode() == UO_Deref && !isWrittenTo(Unary, Parents);
  if (const auto *Subscript = Up.Parent.get<ArraySubscriptExpr>())
    return Subscript->getBase() == Up.Child && !isWrittenTo(Subscript, Parents);
  // `p + n`: the same memory, further on (an end of a range).
  if (const auto *Binary = Up.Parent.get<BinaryOperator>())
    return Binary->isAdditiveOp() && Binary->getType()->isPointerType() &&
           readOnHost(Binary, Parents, Steps + 1);
  if (const auto *Call = Up.Parent.get<CallExpr>())
    return callReads(*Call, Up.Child);
  if (const auto *Construct = Up.Parent.get<CXXConstructExpr>())
    return constructionReads(*Construct, Up.Child);
  if (const auto *Variable = Up.Parent.get<VarDecl>())
    return Variable->getInit() == Up.Child &&
           localPointerRead(*Variable, Parents, Steps);
  // Handed to a kernel, a library, a from_blob, a stream: not a read on
  // the host that we can see.
  return false;
}

} // namespace

bool isReadOnHost(const Expr *Pointer, const utils::UserCodeParents &Parents) {
  return readOnHost(Pointer, Parents, 0);
}

} // namespace clang::tidy::libtorch::analysis
