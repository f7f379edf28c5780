//===--- TensorPlacement.cpp - Where a tensor lives -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceFactsDetail.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AssignedValues.h"
#include "utils/AstWalk.h"
#include "utils/CallArguments.h"
#include "utils/UserCode.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::libtorch::analysis {

namespace device_facts {

bool isFactoryName(StringRef Name) {
  return llvm::is_contained(names::FactoryNames, Name);
}

bool preservesDevice(StringRef Method) {
  return llvm::is_contained(names::DevicePreservingMethods, Method);
}

bool joinsTensors(const FunctionDecl *Callee) {
  return hasAnyQualifiedName(Callee, names::JoinFunctions);
}

llvm::SmallVector<const Expr *, 4> bracedTensors(const Expr *List) {
  llvm::SmallVector<const Expr *, 4> Tensors;
  const Expr *E = utils::stripWrappers(List, utils::ImplicitWrappers);
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(E))
    if (Construct->getNumArgs() == 1)
      E = utils::stripWrappers(Construct->getArg(0), utils::ImplicitWrappers);
  if (const auto *Std = dyn_cast_or_null<CXXStdInitializerListExpr>(E))
    E = utils::stripWrappers(Std->getSubExpr(), utils::ImplicitWrappers);
  if (const auto *Init = dyn_cast_or_null<InitListExpr>(E))
    for (const Expr *Element : Init->inits())
      Tensors.push_back(Element);
  return Tensors;
}

Placement placementOfDevice(DeviceKind Kind) {
  switch (Kind) {
  case DeviceKind::Cpu:
  case DeviceKind::NoDevice: // factories default to the CPU
    return Placement::Host;
  case DeviceKind::Cuda:
  case DeviceKind::MaybeCuda:
    return Placement::Device;
  }
  return Placement::Unknown;
}

llvm::SmallVector<const ReturnStmt *, 2>
tensorReturns(const FunctionDecl *Function, const SourceManager &SM) {
  const FunctionDecl *Definition = nullptr;
  if (!Function || !Function->hasBody(Definition) ||
      !utils::isUserCode(Definition, SM) ||
      !isTensorType(Definition->getReturnType()) ||
      Definition->getReturnType()->isReferenceType())
    return {};
  struct Returns : RecursiveASTVisitor<Returns> {
    llvm::SmallVector<const ReturnStmt *, 2> Found;
    // A lambda's returns are its own.
    bool TraverseLambdaExpr(LambdaExpr * /*Lambda*/) { return true; }
    bool VisitReturnStmt(ReturnStmt *Return) {
      Found.push_back(Return);
      return true;
    }
  } V;
  V.TraverseStmt(Definition->getBody());
  return V.Found;
}

} // namespace device_facts

using namespace device_facts;

namespace {

/// The argument that \p Parameter was given at the innermost of the calls
/// on the way that runs its function, and the calls still open above that
/// argument; null when none of them runs it, when the argument is left to
/// its default, or when the function may give the parameter another value.
std::pair<const Expr *, CallsOnTheWay>
argumentOnTheWay(const ParmVarDecl *Parameter, CallsOnTheWay Way) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Parameter->getDeclContext());
  if (!Function || isReassigned(Parameter))
    return {nullptr, Way};
  for (size_t I = Way.Open; I-- > 0;) {
    const FunctionDecl *Callee = Way.Calls[I]->getDirectCallee();
    if (!Callee || Callee->getCanonicalDecl() != Function->getCanonicalDecl())
      continue;
    const Expr *Arg = utils::argumentOfParameter(
        Way.Calls[I], Parameter->getFunctionScopeIndex());
    if (!Arg || isa<CXXDefaultArgExpr>(Arg))
      return {nullptr, Way};
    return {Arg, CallsOnTheWay{Way.Calls, I}};
  }
  return {nullptr, Way};
}

/// The tensors a list of tensors given to `torch::stack` / `torch::cat`
/// holds, with the calls on the way open above them: a braced list's
/// elements, a local vector's elements (utils::elementValues), or what a
/// parameter was given on the way. None when the list is anything else.
std::optional<std::pair<llvm::SmallVector<const Expr *, 4>, CallsOnTheWay>>
tensorsOfList(const Expr *List, CallsOnTheWay Way, unsigned Depth) {
  if (Depth > MaxDepth)
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> Braced = bracedTensors(List);
  if (!Braced.empty())
    return std::make_pair(Braced, Way);
  const Expr *E = utils::stripWrappers(List, utils::ImplicitWrappers |
                                                 utils::CopyConstruct);
  // TensorList from a vector: an ArrayRef constructed from it.
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1)
    E = utils::stripWrappers(Construct->getArg(0), utils::ImplicitWrappers);
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
  if (!Ref)
    return std::nullopt;
  if (const auto *Parameter = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
    auto [Arg, Outer] = argumentOnTheWay(Parameter, Way);
    if (!Arg)
      return std::nullopt;
    return tensorsOfList(Arg, Outer, Depth + 1);
  }
  if (const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl()))
    if (auto Elements = utils::elementValues(Variable);
        Elements && !Elements->empty())
      return std::make_pair(*Elements, Way);
  return std::nullopt;
}

/// Every return of \p Function returns a tensor on the device.
bool returnsOnDevice(const FunctionDecl *Function, ASTContext &Context,
                     unsigned Depth) {
  if (Depth > MaxDepth)
    return false;
  llvm::SmallVector<const ReturnStmt *, 2> Returns =
      tensorReturns(Function, Context.getSourceManager());
  return !Returns.empty() &&
         llvm::all_of(Returns, [&](const ReturnStmt *Return) {
           return Return->getRetValue() &&
                  placement(Return->getRetValue(), Context, Depth + 1) ==
                      Placement::Device;
         });
}

/// \p Variable, a local never reassigned, is given as it is to a LibTorch
/// function that throws unless that argument is in host memory
/// (names::HostLengthsTakers): in a program that runs, it lives there.
bool isRequiredOnHost(const VarDecl *Variable) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
  return Function &&
         utils::callGivenVariable(
             Variable, 1, Function->getBody(), [](const FunctionDecl &Callee) {
               return hasAnyQualifiedName(&Callee, names::HostLengthsTakers);
             });
}

/// What every step of placement() passes on to the next.
struct PlacementWalk {
  ASTContext &Context;
  /// How deep the expression asked about is.
  unsigned Depth;
  bool FollowReassigned;
  CallsOnTheWay Way;

  /// Where \p E lives, one step in.
  Placement next(const Expr *E) const { return next(E, Way); }
  Placement next(const Expr *E, CallsOnTheWay Other) const {
    return placement(E, Context, Depth + 1, FollowReassigned, Other);
  }
  /// Which device \p Device names, one step in.
  DeviceKind device(const Expr *Device) const {
    return classify(Device, Context, Depth + 1);
  }

  /// Where the tensors \p Operands live, when that says where the result
  /// lives (it is made where they are): on the device if one of them is
  /// (a CUDA tensor may meet a CPU scalar tensor), on the host if all are.
  Placement ofOperands(ArrayRef<const Expr *> Operands,
                       CallsOnTheWay OperandsWay) const {
    bool AllHost = !Operands.empty();
    for (const Expr *Operand : Operands) {
      const Placement Where = next(Operand, OperandsWay);
      if (Where == Placement::Device)
        return Placement::Device;
      AllHost &= Where == Placement::Host;
    }
    return AllHost ? Placement::Host : Placement::Unknown;
  }
};

/// `x.cpu()`, `x.cuda()`, `x.to(device)`, `x.to(torch::kLong)`, `x.view(...)`.
Placement ofTensorMethod(const CXXMemberCallExpr &Call,
                         const CXXMethodDecl &Method,
                         const PlacementWalk &Walk) {
  const Expr *Object = Call.getImplicitObjectArgument();
  StringRef Name = Method.getName();
  if (Name == "cpu")
    return Placement::Host;
  if (Name == names::CudaMethod)
    return Placement::Device;
  if (Name == names::ToMethod && Call.getNumArgs() > 0) {
    const Expr *Target = Call.getArg(0);
    if (isDeviceLikeType(Target->getType()) ||
        isDeviceLikeType(strip(Target)->getType())) {
      DeviceKind Kind = Walk.device(Target);
      if (Kind != DeviceKind::NoDevice)
        return placementOfDevice(Kind);
    }
    // A dtype-only conversion stays where it is.
    return Walk.next(Object);
  }
  if (preservesDevice(Name))
    return Walk.next(Object);
  return Placement::Unknown;
}

/// Tensor arithmetic (`a + b`, `x * 2`), and an element or slice (`x[i]`).
Placement ofOperator(const CXXOperatorCallExpr &Operator,
                     const PlacementWalk &Walk) {
  if (!isTensorType(Operator.getType()))
    return Placement::Unknown;
  if (Operator.getOperator() == OO_Subscript && Operator.getNumArgs() > 0)
    return Walk.next(Operator.getArg(0));
  if (Operator.isInfixBinaryOp())
    return Walk.ofOperands(tensorArguments(Operator), Walk.Way);
  return Placement::Unknown;
}

/// A call of a function: a helper of the project, or one of LibTorch's.
Placement ofCall(const CallExpr &Call, const PlacementWalk &Walk) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return Placement::Unknown;
  // A helper of the project whose every return is on the device
  // (`return torch::stack(crops).to(device);`).
  if (!isInNamespace(Callee, names::TorchNamespace) &&
      !isInNamespace(Callee, names::AtNamespace))
    return returnsOnDevice(Callee, Walk.Context, Walk.Depth + 1)
               ? Placement::Device
               : Placement::Unknown;
  if (joinsTensors(Callee) && Call.getNumArgs() > 0) {
    if (auto Joined = tensorsOfList(Call.getArg(0), Walk.Way, Walk.Depth + 1))
      return Walk.ofOperands(Joined->first, Joined->second);
    return Placement::Unknown;
  }
  // A `*_like` factory makes its tensor where its model tensor lives,
  // unless its options name a device.
  if (Callee->getName().ends_with("_like") && Call.getNumArgs() > 0 &&
      isTensorType(Call.getArg(0)->getType())) {
    for (const Expr *Arg : llvm::drop_begin(Call.arguments()))
      if (!isa<CXXDefaultArgExpr>(Arg) && isDeviceLikeType(Arg->getType())) {
        DeviceKind Kind = Walk.device(Arg);
        if (Kind != DeviceKind::NoDevice)
          return placementOfDevice(Kind);
      }
    return Walk.next(Call.getArg(0));
  }
  if (!isFactoryName(Callee->getName())) {
    // LibTorch's operations on tensors (`torch::relu(x)`,
    // `torch::matmul(a, b)`) compute where their tensors live; a call that
    // returns something else, or takes no tensor, says nothing.
    if (!isTensorType(Call.getType()))
      return Placement::Unknown;
    return Walk.ofOperands(tensorArguments(Call), Walk.Way);
  }
  // A factory makes its tensor where its options say, on the CPU if none.
  Placement Result = Placement::Host;
  for (const Expr *Arg : Call.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && isDeviceLikeType(Arg->getType()) &&
        placementOfDevice(Walk.device(Arg)) == Placement::Device)
      Result = Placement::Device;
  return Result;
}

/// A parameter of a call on the way (its argument there), or a local.
Placement ofVariable(const DeclRefExpr &Ref, const PlacementWalk &Walk) {
  if (Walk.Way.Open > 0 && isa<ParmVarDecl>(Ref.getDecl())) {
    auto [Arg, Outer] =
        argumentOnTheWay(cast<ParmVarDecl>(Ref.getDecl()), Walk.Way);
    if (Arg)
      return Walk.next(Arg, Outer);
  }
  const auto *Variable = dyn_cast<VarDecl>(Ref.getDecl());
  if (!Variable || !Variable->hasLocalStorage())
    return Placement::Unknown;
  if (const Expr *Init = stableInitializer(Variable)) {
    const Placement Initialized = Walk.next(Init);
    return Initialized == Placement::Unknown && isRequiredOnHost(Variable)
               ? Placement::Host
               : Initialized;
  }
  // Reassigned (`state = next_state;` in a loop): where every value it is
  // given lives, if they all agree.
  if (!Walk.FollowReassigned)
    return Placement::Unknown;
  std::optional<llvm::SmallVector<const Expr *, 4>> Values =
      utils::assignedValues(Variable);
  if (!Values)
    return Placement::Unknown;
  const PlacementWalk Once{Walk.Context, Walk.Depth, false, Walk.Way};
  const Placement Common = Once.next(Values->front());
  for (const Expr *Value : llvm::drop_begin(*Values))
    if (Common == Placement::Unknown || Once.next(Value) != Common)
      return Placement::Unknown;
  return Common;
}

} // namespace

namespace device_facts {

Placement placement(const Expr *E, ASTContext &Context, unsigned Depth,
                    bool FollowReassigned, CallsOnTheWay Way) {
  E = strip(E);
  if (!E || Depth > MaxDepth)
    return Placement::Unknown;
  const PlacementWalk Walk{Context, Depth, FollowReassigned, Way};
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    if (Construct->getConstructor()->isCopyOrMoveConstructor() &&
        Construct->getNumArgs() == 1)
      return Walk.next(Construct->getArg(0));
  if (const CXXMethodDecl *Method = tensorMethodCalled(E))
    return ofTensorMethod(*cast<CXXMemberCallExpr>(E), *Method, Walk);
  // A module computes where its parameters are, and its inputs must be
  // there too: given a tensor on the device, its output is on the device.
  // Inputs on the host say nothing (its forward may move them).
  if (isModuleForwardCall(E) && isTensorType(E->getType())) {
    const auto *Call = cast<CallExpr>(E);
    const Placement Inputs = Walk.ofOperands(
        tensorArguments(*Call, utils::objectArgumentCount(Call)), Way);
    return Inputs == Placement::Device ? Placement::Device : Placement::Unknown;
  }
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E))
    return ofOperator(*Operator, Walk);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return ofCall(*Call, Walk);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return ofVariable(*Ref, Walk);
  return Placement::Unknown;
}

} // namespace device_facts

bool isProvablyHostTensor(const Expr *E, ASTContext &Context) {
  return placement(E, Context, 0) == Placement::Host;
}

bool isProvablyOnDevice(const Expr *E, ASTContext &Context,
                        ArrayRef<const CallExpr *> CallsOnTheWay) {
  return placement(E, Context, 0, /*FollowReassigned=*/true,
                   {CallsOnTheWay, CallsOnTheWay.size()}) == Placement::Device;
}

bool returnsTensorOnDevice(const FunctionDecl *Function, ASTContext &Context) {
  return returnsOnDevice(Function, Context, 0);
}

} // namespace clang::tidy::libtorch::analysis
