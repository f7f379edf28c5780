//===--- LibTorchCalls.cpp - Recognizing LibTorch calls and types ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LibTorchCalls.h"
#include "LibTorchNames.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::libtorch::analysis {

namespace {

bool hasQualifiedName(const NamedDecl *Decl, llvm::StringRef QualifiedName) {
  QualifiedName.consume_front("::");
  return Decl->getQualifiedNameAsString() == QualifiedName;
}

} // namespace

bool isSameOrDerivedFrom(const CXXRecordDecl *Record,
                         llvm::StringRef QualifiedName) {
  if (!Record)
    return false;
  Record = Record->getDefinition() ? Record->getDefinition() : Record;
  if (hasQualifiedName(Record, QualifiedName))
    return true;
  if (!Record->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (isSameOrDerivedFrom(Base.getType()->getAsCXXRecordDecl(),
                            QualifiedName))
      return true;
  return false;
}

bool isRecordNamed(QualType Type, llvm::StringRef QualifiedName) {
  if (Type.isNull())
    return false;
  const auto *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && hasQualifiedName(Record, QualifiedName);
}

bool isTensorType(QualType Type) {
  if (Type.isNull())
    return false;
  return isSameOrDerivedFrom(Type.getNonReferenceType()->getAsCXXRecordDecl(),
                             names::TensorBase);
}

const CXXMethodDecl *tensorMethodCalled(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E);
  if (!Call)
    return nullptr;
  const CXXMethodDecl *Method = Call->getMethodDecl();
  if (!Method || !isSameOrDerivedFrom(Method->getParent(), names::TensorBase))
    return nullptr;
  return Method;
}

bool isBackwardCall(const Expr *E) {
  if (const CXXMethodDecl *Method = tensorMethodCalled(E))
    return Method->getIdentifier() && Method->getName() == "backward";
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  if (!Call || isa<CXXMemberCallExpr>(Call))
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && hasQualifiedName(Callee, names::AutogradBackward);
}

bool isOptimizerStepCall(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E);
  if (!Call)
    return false;
  const CXXMethodDecl *Method = Call->getMethodDecl();
  if (!Method || !Method->getIdentifier() || Method->getName() != "step")
    return false;
  // The object's static type decides: a user optimizer deriving from
  // torch::optim::Optimizer counts, a learning-rate scheduler does not.
  const CXXRecordDecl *Object = Call->getRecordDecl();
  return isSameOrDerivedFrom(Object, names::Optimizer);
}

} // namespace clang::tidy::libtorch::analysis
