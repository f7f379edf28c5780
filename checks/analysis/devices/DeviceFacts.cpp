//===--- DeviceFacts.cpp - Which devices the code names -------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceFactsDetail.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "utils/References.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::libtorch::analysis {

bool copiesToGpu(const CXXMemberCallExpr &Copy, ASTContext &Context) {
  if (Copy.getMethodDecl()->getName() == names::CudaMethod)
    return true;
  if (Copy.getNumArgs() == 0)
    return false;
  QualType Target = Copy.getMethodDecl()->getParamDecl(0)->getType();
  if (!isRecordNamed(Target, names::TensorOptions) &&
      !isRecordNamed(Target, names::Device))
    return false; // to(dtype), to(other_tensor)
  DeviceKind Kind = classifyDevice(Copy.getArg(0), Context);
  return Kind == DeviceKind::Cuda || Kind == DeviceKind::MaybeCuda;
}

namespace {

DeviceKind merge(DeviceKind A, DeviceKind B) {
  if (A == B)
    return A;
  if ((A == DeviceKind::Cpu && B == DeviceKind::NoDevice) ||
      (A == DeviceKind::NoDevice && B == DeviceKind::Cpu))
    return DeviceKind::Cpu;
  return DeviceKind::MaybeCuda;
}

} // namespace

namespace device_facts {

const Expr *strip(const Expr *E) {
  return utils::stripWrappers(E, utils::ImplicitWrappers | utils::ExplicitCast);
}

bool isReassigned(const VarDecl *Variable) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
  if (!Function || !Function->getBody())
    return true;
  // Through casts too: `static_cast<torch::Device &>(d) = ...` assigns d.
  return utils::isAssignedOrAddressTaken(Variable, Function->getBody(),
                                         utils::ImplicitWrappers |
                                             utils::ExplicitCast);
}

const Expr *stableInitializer(const VarDecl *Variable) {
  if (!Variable || isa<ParmVarDecl>(Variable) || !Variable->getInit())
    return nullptr;
  if (Variable->getType()->isReferenceType())
    return nullptr;
  if (Variable->hasLocalStorage())
    return isReassigned(Variable) ? nullptr : Variable->getInit();
  return Variable->getType().isConstQualified() ? Variable->getInit() : nullptr;
}

DeviceKind classify(const Expr *E, ASTContext &Context, unsigned Depth) {
  E = strip(E);
  if (!E || Depth > MaxDepth)
    return DeviceKind::MaybeCuda;

  if (const auto *String = dyn_cast<StringLiteral>(E)) {
    StringRef Text = String->getString();
    if (Text.starts_with("cuda"))
      return DeviceKind::Cuda;
    if (Text == "cpu" || Text.starts_with("cpu:"))
      return DeviceKind::Cpu;
    return DeviceKind::MaybeCuda;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Enumerator = dyn_cast<EnumConstantDecl>(Ref->getDecl()))
      return llvm::StringSwitch<DeviceKind>(Enumerator->getName())
          .Case("CPU", DeviceKind::Cpu)
          .Case("CUDA", DeviceKind::Cuda)
          .Default(DeviceKind::MaybeCuda);
    if (const Expr *Init = stableInitializer(dyn_cast<VarDecl>(Ref->getDecl())))
      return classify(Init, Context, Depth + 1);
    return DeviceKind::MaybeCuda;
  }
  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E))
    return merge(classify(Conditional->getTrueExpr(), Context, Depth + 1),
                 classify(Conditional->getFalseExpr(), Context, Depth + 1));
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    QualType Type = Construct->getType();
    if (Construct->getNumArgs() == 0)
      return isRecordNamed(Type, names::TensorOptions) ? DeviceKind::NoDevice
                                                       : DeviceKind::MaybeCuda;
    const Expr *First = Construct->getArg(0);
    // TensorOptions(kFloat): a dtype, no device.
    if (isRecordNamed(Type, names::TensorOptions) &&
        !isDeviceLikeType(First->getType()) &&
        !First->getType()->isPointerType() &&
        !isRecordNamed(First->getType(), names::BasicString))
      return DeviceKind::NoDevice;
    return classify(First, Context, Depth + 1);
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (Method && isRecordNamed(compat::typeOfClass(*Method->getParent()),
                                names::TensorOptions)) {
      if (Method->getName() == "device" && Member->getNumArgs() == 1)
        return classify(Member->getArg(0), Context, Depth + 1);
      // dtype(), requires_grad(), layout(), ...: the device is unchanged.
      return classify(Member->getImplicitObjectArgument(), Context, Depth + 1);
    }
    // `x.device()`, `x.options()`: where the tensor is. Only a tensor
    // provably in host memory tells; any other may be on a GPU.
    if (const CXXMethodDecl *Method = tensorMethodCalled(Member);
        Method && Method->getIdentifier() &&
        (Method->getName() == "device" || Method->getName() == "options") &&
        placement(Member->getImplicitObjectArgument(), Context, Depth + 1,
                  /*FollowReassigned=*/true) == Placement::Host)
      return DeviceKind::Cpu;
    return DeviceKind::MaybeCuda;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // torch::device(d) / at::device(d) make TensorOptions with a device;
    // torch::dtype(t) makes options without one.
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      if (hasAnyQualifiedName(Callee, names::DeviceFunctions) &&
          Call->getNumArgs() == 1)
        return classify(Call->getArg(0), Context, Depth + 1);
      if (hasAnyQualifiedName(Callee, names::DtypeFunctions))
        return DeviceKind::NoDevice;
    }
    return DeviceKind::MaybeCuda;
  }
  return DeviceKind::MaybeCuda;
}

} // namespace device_facts

using namespace device_facts;

DeviceKind classifyDevice(const Expr *E, ASTContext &Context) {
  return classify(E, Context, 0);
}

DeviceKind classifyDeviceVariable(const VarDecl *Variable,
                                  ASTContext &Context) {
  if (const Expr *Init = stableInitializer(Variable))
    return classify(Init, Context, 1);
  return DeviceKind::MaybeCuda;
}

} // namespace clang::tidy::libtorch::analysis
