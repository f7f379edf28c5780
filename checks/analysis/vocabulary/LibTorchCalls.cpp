//===--- LibTorchCalls.cpp - Recognizing LibTorch calls and types ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::libtorch::analysis {

bool hasQualifiedName(const NamedDecl *Decl, llvm::StringRef QualifiedName) {
  QualifiedName.consume_front("::");
  return Decl->getQualifiedNameAsString() == QualifiedName;
}

bool hasAnyQualifiedName(const NamedDecl *Decl,
                         llvm::ArrayRef<llvm::StringRef> QualifiedNames) {
  const std::string Name = "::" + Decl->getQualifiedNameAsString();
  return llvm::is_contained(QualifiedNames, llvm::StringRef(Name));
}

bool isInNamespace(const NamedDecl *Decl, llvm::StringRef QualifiedNamespace) {
  const std::string Name = "::" + Decl->getQualifiedNameAsString();
  return llvm::StringRef(Name).starts_with((QualifiedNamespace + "::").str());
}

bool isModuleClass(const CXXRecordDecl *Record) {
  return Record && (isSameOrDerivedFrom(Record, names::Module) ||
                    isSameOrDerivedFrom(Record, names::ModuleHolder) ||
                    isSameOrDerivedFrom(Record, names::JitModule));
}

bool isModuleMethod(const FunctionDecl *Function) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Function);
  return Method && isSameOrDerivedFrom(Method->getParent(), names::Module);
}

bool isLibTorchDecl(const NamedDecl *Decl) {
  return Decl && (isInNamespace(Decl, names::TorchNamespace) ||
                  isInNamespace(Decl, names::AtNamespace) ||
                  isInNamespace(Decl, names::C10Namespace));
}

/// Whether \p Type is, holds (as a template argument) or points to a class
/// of LibTorch or derived from one; \p Depth bounds the walk through
/// template arguments.
static bool mentionsLibTorchClass(QualType Type, unsigned Depth) {
  if (Type.isNull() || Depth == 0)
    return false;
  Type = Type.getNonReferenceType();
  while (Type->isPointerType() || Type->isArrayType())
    Type = Type->isPointerType()
               ? Type->getPointeeType()
               : QualType(Type->getPointeeOrArrayElementType(), 0);
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record)
    return false;
  if (isLibTorchDecl(Record))
    return true;
  if (const CXXRecordDecl *Definition = Record->getDefinition())
    for (const CXXBaseSpecifier &Base : Definition->bases())
      if (mentionsLibTorchClass(Base.getType(), Depth - 1))
        return true;
  if (const auto *Specialization =
          dyn_cast<ClassTemplateSpecializationDecl>(Record))
    for (const TemplateArgument &Argument :
         Specialization->getTemplateArgs().asArray())
      if (Argument.getKind() == TemplateArgument::Type &&
          mentionsLibTorchClass(Argument.getAsType(), Depth - 1))
        return true;
  return false;
}

bool involvesLibTorch(const CallExpr &Call) {
  // Deep enough for std::vector<std::pair<std::string, torch::Tensor>>.
  constexpr unsigned MaxDepth = 6;
  if (isLibTorchDecl(Call.getDirectCallee()))
    return true;
  return llvm::any_of(Call.arguments(), [](const Expr *Argument) {
    return Argument && mentionsLibTorchClass(
                           Argument->IgnoreImpCasts()->getType(), MaxDepth);
  });
}

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

bool isNamed(const NamedDecl *D, llvm::StringRef Name) {
  return D && D->getIdentifier() && D->getName() == Name;
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

bool isDeviceTypeEnum(QualType Type) {
  const auto *Enum = Type.getNonReferenceType()->getAs<EnumType>();
  return Enum && hasQualifiedName(Enum->getDecl(), names::DeviceType);
}

bool isDeviceLikeType(QualType Type) {
  return isRecordNamed(Type, names::Device) ||
         isRecordNamed(Type, names::TensorOptions) || isDeviceTypeEnum(Type);
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

bool isTensorDeviceCopy(const Expr *E) {
  const CXXMethodDecl *Method = tensorMethodCalled(E);
  return isNamed(Method, names::ToMethod) || isNamed(Method, names::CudaMethod);
}

bool isModuleToCall(const CXXMemberCallExpr *Call, bool WithScripted) {
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!isNamed(Method, names::ToMethod))
    return false;
  return isSameOrDerivedFrom(Method->getParent(), names::Module) ||
         (WithScripted &&
          isSameOrDerivedFrom(Method->getParent(), names::JitModule));
}

llvm::ArrayRef<llvm::StringRef> tensorFactoryNames() {
  return names::TensorFactories;
}

llvm::SmallVector<const Expr *, 4>
tensorArguments(const CallExpr &Call, unsigned From, const Expr *Except) {
  llvm::SmallVector<const Expr *, 4> Tensors;
  for (unsigned I = From; I < Call.getNumArgs(); ++I) {
    const Expr *Arg = Call.getArg(I);
    if (Arg != Except && isTensorType(Arg->getType()))
      Tensors.push_back(Arg);
  }
  return Tensors;
}

bool isTensorFactoryCall(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E ? E->IgnoreImplicit() : E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier())
    return false;
  return hasAnyQualifiedName(Callee, tensorFactoryNames());
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

bool iteratesDataLoader(const Stmt *Loop) {
  const auto *RangeFor = dyn_cast_or_null<CXXForRangeStmt>(Loop);
  if (!RangeFor || !RangeFor->getRangeInit())
    return false;
  QualType Type = RangeFor->getRangeInit()->getType().getNonReferenceType();
  return isSameOrDerivedFrom(Type->getAsCXXRecordDecl(), names::DataLoaderBase);
}

const ValueDecl *iteratedLoaderVariable(const Stmt *Loop) {
  if (!iteratesDataLoader(Loop))
    return nullptr;
  const Expr *Range =
      cast<CXXForRangeStmt>(Loop)->getRangeInit()->IgnoreParenImpCasts();
  // `*loader` on the unique_ptr make_data_loader returns, or on a pointer.
  if (const auto *Star = dyn_cast<CXXOperatorCallExpr>(Range);
      Star && Star->getOperator() == OO_Star && Star->getNumArgs() == 1)
    Range = Star->getArg(0)->IgnoreParenImpCasts();
  else if (const auto *Deref = dyn_cast<UnaryOperator>(Range);
           Deref && Deref->getOpcode() == UO_Deref)
    Range = Deref->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Range))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(Range))
    return Member->getMemberDecl();
  return nullptr;
}

bool isModuleForwardCall(const Stmt *S) {
  if (const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    return Method && Method->getIdentifier() &&
           Method->getName() == "forward" &&
           (isSameOrDerivedFrom(Method->getParent(), names::Module) ||
            isSameOrDerivedFrom(Method->getParent(), names::JitModule));
  }
  if (const auto *Operator = dyn_cast_or_null<CXXOperatorCallExpr>(S)) {
    if (Operator->getOperator() != OO_Call)
      return false;
    const auto *Method =
        dyn_cast_or_null<CXXMethodDecl>(Operator->getDirectCallee());
    return Method &&
           (isSameOrDerivedFrom(Method->getParent(), names::ModuleHolder) ||
            isSameOrDerivedFrom(Method->getParent(), names::Module));
  }
  return false;
}

bool isModuleComputation(const Stmt *S) {
  if (isModuleForwardCall(S))
    return true;
  if (const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    return Method && Method->getIdentifier() &&
           Method->getName() == "run_method" &&
           isSameOrDerivedFrom(Method->getParent(), names::JitObject);
  }
  if (const auto *Operator = dyn_cast_or_null<CXXOperatorCallExpr>(S)) {
    const auto *Method =
        dyn_cast_or_null<CXXMethodDecl>(Operator->getDirectCallee());
    return Operator->getOperator() == OO_Call && Method &&
           isSameOrDerivedFrom(Method->getParent(), names::JitMethod);
  }
  return false;
}

} // namespace clang::tidy::libtorch::analysis
