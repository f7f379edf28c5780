//===--- DeviceTests.cpp - Branches that test where a tensor is -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/DeviceTests.h"
#include "analysis/devices/DeviceFactsDetail.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// How many device-keeping methods (`t.sum().float()`) are looked through.
constexpr unsigned MaxViews = 8;

/// A tensor method that gives a tensor on its object's device: every one
/// but the copies to another device.
bool keepsDevice(const CXXMethodDecl &Method) {
  return isTensorType(Method.getReturnType()) &&
         !isNamed(&Method, names::ToMethod) &&
         !isNamed(&Method, names::CudaMethod) && !isNamed(&Method, "cpu");
}

/// The local variable or parameter \p E is, or is a view, a reduction or
/// another result on the same device of (`t`, `t.norm()`,
/// `t.detach().view(-1)`); null otherwise.
const VarDecl *rootVariable(const Expr *E) {
  for (unsigned I = 0; E && I < MaxViews; ++I) {
    E = device_facts::strip(E);
    if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(Ref->getDecl());
    const CXXMethodDecl *Method = tensorMethodCalled(E);
    if (!Method || !Method->getIdentifier() || !keepsDevice(*Method))
      return nullptr;
    E = cast<CXXMemberCallExpr>(E)->getImplicitObjectArgument();
  }
  return nullptr;
}

/// \p Object is \p Variable, or its `device()`.
bool isVariableOrItsDevice(const Expr *Object, const VarDecl *Variable) {
  Object = device_facts::strip(Object);
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Object);
      Call && Call->getMethodDecl() && isNamed(Call->getMethodDecl(), "device"))
    Object = device_facts::strip(Call->getImplicitObjectArgument());
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Object);
  return Ref && Ref->getDecl() == Variable;
}

/// \p Condition, evaluating to \p Truth, puts \p Variable in host memory.
bool impliesHost(const Expr *Condition, bool Truth, const VarDecl *Variable,
                 unsigned Depth = 0) {
  Condition = device_facts::strip(Condition);
  if (!Condition || Depth > MaxViews)
    return false;
  if (const auto *Not = dyn_cast<UnaryOperator>(Condition);
      Not && Not->getOpcode() == UO_LNot)
    return impliesHost(Not->getSubExpr(), !Truth, Variable, Depth + 1);
  if (const auto *Logical = dyn_cast<BinaryOperator>(Condition)) {
    // `a && b` true: both hold; `a || b` false: neither holds.
    if ((Logical->getOpcode() == BO_LAnd && Truth) ||
        (Logical->getOpcode() == BO_LOr && !Truth))
      return impliesHost(Logical->getLHS(), Truth, Variable, Depth + 1) ||
             impliesHost(Logical->getRHS(), Truth, Variable, Depth + 1);
    return false;
  }
  const auto *Test = dyn_cast<CXXMemberCallExpr>(Condition);
  const CXXMethodDecl *Method = Test ? Test->getMethodDecl() : nullptr;
  if (!Method ||
      !isVariableOrItsDevice(Test->getImplicitObjectArgument(), Variable))
    return false;
  if (isNamed(Method, "is_cuda"))
    return !Truth;
  if (isNamed(Method, "is_cpu"))
    return Truth;
  return false;
}

/// \p If's then-branch, when it runs, leaves the block that holds \p If.
bool thenLeaves(const IfStmt &If) {
  return isa_and_nonnull<ReturnStmt, ContinueStmt, BreakStmt, CXXThrowExpr>(
      utils::lastStatementOf(If.getThen()));
}

/// An `if` before \p Child in \p Block exits whenever \p Variable may be
/// on the device.
bool exitedEarlierUnlessOnHost(const CompoundStmt &Block, const Stmt *Child,
                               const VarDecl *Variable) {
  for (const Stmt *Earlier : Block.body()) {
    if (Earlier == Child)
      return false;
    const auto *If = dyn_cast<IfStmt>(Earlier);
    if (If && !If->getElse() && If->getCond() && thenLeaves(*If) &&
        impliesHost(If->getCond(), /*Truth=*/false, Variable))
      return true;
  }
  return false;
}

} // namespace

bool isOnHostByDeviceTest(const Expr *Tensor, const Stmt *At,
                          const utils::UserCodeParents &Parents) {
  const VarDecl *Variable = rootVariable(Tensor);
  // Given another value between the test and the use, it may be anywhere.
  if (!Variable || !At || !isTensorType(Variable->getType()) ||
      device_facts::isReassigned(Variable))
    return false;
  bool OnHost = false;
  utils::forEachStmtAncestor(
      At, Parents, [&](const Stmt *Parent, const Stmt *Child) {
        // A lambda's body runs when it is called, not where it is written.
        if (isa<LambdaExpr>(Parent))
          return false;
        if (const auto *If = dyn_cast<IfStmt>(Parent)) {
          if (Child == If->getThen())
            OnHost = impliesHost(If->getCond(), true, Variable);
          else if (Child == If->getElse())
            OnHost = impliesHost(If->getCond(), false, Variable);
        } else if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
          OnHost = exitedEarlierUnlessOnHost(*Block, Child, Variable);
        }
        return !OnHost;
      });
  return OnHost;
}

} // namespace clang::tidy::libtorch::analysis
