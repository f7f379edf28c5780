//===--- TensorOrigins.cpp - How a tensor got where it is -----------------===//
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
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::libtorch::analysis {

using namespace device_facts;

namespace {

/// placingDevice, \p Depth steps in.
PlacingDevice placingDeviceOf(const Expr *E, ASTContext &Context,
                              unsigned Depth) {
  E = strip(E);
  if (!E || Depth > MaxDepth)
    return {};
  // The first of \p Operands on the device, as it got there.
  auto ViaOperands = [&](ArrayRef<const Expr *> Operands) -> PlacingDevice {
    for (const Expr *Operand : Operands)
      if (placement(Operand, Context, Depth + 1) == Placement::Device)
        return placingDeviceOf(Operand, Context, Depth + 1);
    return {};
  };
  // Only a Device or a DeviceType says where without saying more (options
  // also carry a dtype).
  auto Named = [&](const Expr *Device) -> PlacingDevice {
    // `to(device_, true)` converts the Device to TensorOptions unwritten.
    const Expr *Written = utils::stripWrappers(
        Device, utils::ImplicitWrappers | utils::ExplicitCast |
                    utils::ImplicitConversion);
    if (isRecordNamed(Written->getType(), names::Device) ||
        isDeviceTypeEnum(Written->getType()))
      return {Written, false};
    return {};
  };
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return Construct->getConstructor()->isCopyOrMoveConstructor() &&
                   Construct->getNumArgs() == 1
               ? placingDeviceOf(Construct->getArg(0), Context, Depth + 1)
               : PlacingDevice{};
  if (const CXXMethodDecl *Method = tensorMethodCalled(E)) {
    const auto *Call = cast<CXXMemberCallExpr>(E);
    StringRef Name = Method->getName();
    if (Name == names::CudaMethod)
      return {nullptr, true};
    if (Name == names::ToMethod && Call->getNumArgs() > 0 &&
        isDeviceLikeType(strip(Call->getArg(0))->getType()) &&
        classify(Call->getArg(0), Context, Depth + 1) != DeviceKind::NoDevice)
      return Named(Call->getArg(0));
    if (Name == names::ToMethod || preservesDevice(Name))
      return placingDeviceOf(Call->getImplicitObjectArgument(), Context,
                             Depth + 1);
    return {};
  }
  if (isModuleForwardCall(E))
    return ViaOperands(tensorArguments(*cast<CallExpr>(E)));
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Operator->getOperator() == OO_Subscript && Operator->getNumArgs() > 0)
      return placingDeviceOf(Operator->getArg(0), Context, Depth + 1);
    return Operator->isInfixBinaryOp() ? ViaOperands(tensorArguments(*Operator))
                                       : PlacingDevice{};
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        (!isInNamespace(Callee, names::TorchNamespace) &&
         !isInNamespace(Callee, names::AtNamespace)))
      return {};
    if (joinsTensors(Callee) && Call->getNumArgs() > 0)
      return ViaOperands(bracedTensors(Call->getArg(0)));
    if (!isFactoryName(Callee->getName()))
      return ViaOperands(tensorArguments(*Call));
    for (const Expr *Arg : Call->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg) && isDeviceLikeType(Arg->getType()) &&
          placementOfDevice(classify(Arg, Context, Depth + 1)) ==
              Placement::Device)
        return Named(Arg);
    return {};
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl());
        Variable && Variable->hasLocalStorage())
      if (const Expr *Init = stableInitializer(Variable))
        return placingDeviceOf(Init, Context, Depth + 1);
  return {};
}

/// No argument of \p Call from \p From on is a tensor: the result is
/// computed from its object (or operand) alone, where that lives.
bool takesNoOtherTensor(const CallExpr &Call, unsigned From) {
  return tensorArguments(Call, From).empty();
}

/// parameterPlacingTensor, \p Depth steps in.
const ParmVarDecl *parameterPlacing(const Expr *E, unsigned Depth) {
  E = strip(E);
  if (!E || Depth > MaxDepth)
    return nullptr;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return Construct->getConstructor()->isCopyOrMoveConstructor() &&
                   Construct->getNumArgs() == 1
               ? parameterPlacing(Construct->getArg(0), Depth + 1)
               : nullptr;
  // `lengths.sum()`, `lengths.to(torch::kLong)`: computed where the object
  // lives. A tensor argument may live elsewhere (a CUDA tensor meets a host
  // scalar tensor legally), and so the result too.
  if (const CXXMethodDecl *Method = tensorMethodCalled(E)) {
    const auto *Call = cast<CXXMemberCallExpr>(E);
    const StringRef Name = Method->getName();
    const auto *Dtype =
        Call->getNumArgs() > 0
            ? strip(Call->getArg(0))->getType()->getAs<EnumType>()
            : nullptr;
    const bool DtypeOnly =
        Name == names::ToMethod && Dtype &&
        hasQualifiedName(Dtype->getDecl(), names::ScalarType);
    if ((!DtypeOnly && !preservesDevice(Name)) || !takesNoOtherTensor(*Call, 0))
      return nullptr;
    return parameterPlacing(Call->getImplicitObjectArgument(), Depth + 1);
  }
  // `lengths[0]`, `lengths > i`: one tensor operand, the others numbers.
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E)) {
    llvm::SmallVector<const Expr *, 4> Tensors = tensorArguments(*Operator);
    if (!isTensorType(Operator->getType()) || Tensors.size() != 1 ||
        (Operator->getOperator() == OO_Subscript &&
         Tensors.front() != Operator->getArg(0)))
      return nullptr;
    return parameterPlacing(Tensors.front(), Depth + 1);
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Ref)
    return nullptr;
  if (const auto *Parameter = dyn_cast<ParmVarDecl>(Ref->getDecl()))
    return isReassigned(Parameter) ? nullptr : Parameter;
  if (const Expr *Init = stableInitializer(dyn_cast<VarDecl>(Ref->getDecl())))
    return parameterPlacing(Init, Depth + 1);
  return nullptr;
}

} // namespace

bool isHostTensorFactoryCall(const Expr *E, ASTContext &Context) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E ? E->IgnoreImplicit() : E);
  if (!Call || !isTensorFactoryCall(Call))
    return false;
  // A `*_like` factory makes its tensor where its model tensor lives.
  if (Call->getDirectCallee()->getName().ends_with("_like"))
    return Call->getNumArgs() > 0 &&
           isProvablyHostTensor(Call->getArg(0), Context);
  return isProvablyHostTensor(Call, Context);
}

const CallExpr *hostFactoryReturnedBy(const FunctionDecl *Function,
                                      ASTContext &Context) {
  llvm::SmallVector<const ReturnStmt *, 2> Returns =
      tensorReturns(Function, Context.getSourceManager());
  if (Returns.size() != 1 || !Returns[0]->getRetValue())
    return nullptr;
  const auto *Call = dyn_cast_or_null<CallExpr>(
      utils::stripWrappers(Returns[0]->getRetValue(),
                           utils::ImplicitWrappers | utils::CopyConstruct));
  if (!Call || compat::beginOf(*Call).isMacroID() ||
      !isHostTensorFactoryCall(Call, Context))
    return nullptr;
  return Call;
}

const CallExpr *hostFactoryOfHelperCall(const Expr *E, ASTContext &Context) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  if (!Call || isa<CXXMemberCallExpr>(Call))
    return nullptr;
  return hostFactoryReturnedBy(Call->getDirectCallee(), Context);
}

PlacingDevice placingDevice(const Expr *DeviceTensor, ASTContext &Context) {
  return placingDeviceOf(DeviceTensor, Context, 0);
}

const ParmVarDecl *parameterPlacingTensor(const Expr *E) {
  return parameterPlacing(E, 0);
}

} // namespace clang::tidy::libtorch::analysis
