//===--- HostTensorSources.cpp - Host tensors that reach device work ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/HostTensorSources.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceVariables.h"
#include "analysis/devices/ModulePlacement.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "utils/CallArguments.h"
#include "utils/References.h"
#include "utils/SourceText.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// What an argument passes through on its way into a parameter: a `const
/// Tensor &` binds it (implicit nodes), a `Tensor` copies it.
constexpr utils::WrapperSet ArgumentWrappers =
    utils::ImplicitWrappers | utils::CopyConstruct;

/// A factory of a zero-dimensional tensor: its sizes an empty braced list.
bool makesScalar(const CallExpr &Factory) {
  for (const Expr *Arg : Factory.arguments()) {
    const Expr *E = utils::stripWrappers(Arg, utils::ImplicitWrappers);
    if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() == 0 && Construct->isListInitialization())
        return true; // `{}` given to an IntArrayRef
      if (Construct->getNumArgs() == 1)
        E = utils::stripWrappers(Construct->getArg(0), utils::ImplicitWrappers);
    }
    if (const auto *Std = dyn_cast_or_null<CXXStdInitializerListExpr>(E))
      E = utils::stripWrappers(Std->getSubExpr(), utils::ImplicitWrappers);
    if (const auto *List = dyn_cast_or_null<InitListExpr>(E);
        List && List->getNumInits() == 0)
      return true;
  }
  return false;
}

/// Tensor methods that compute with the tensor they are given as they
/// compute with their object, so both must be on one device.
bool computesWithArgument(StringRef Method) {
  return llvm::is_contained(names::ArgumentComputingMethods, Method);
}

/// The other tensors of the operation \p Parent that takes \p Use (as its
/// outermost wrapper) as a tensor it computes with; empty when \p Parent is
/// no such operation (see the file comment).
llvm::SmallVector<const Expr *, 4> partnersIn(const Stmt *Parent,
                                              const Expr *Use) {
  // LibTorch's own modules compute with their inputs (`criterion(out, y)`,
  // an operator call, or `criterion->forward(out, y)`); a module of the
  // project may move them first.
  if (isModuleForwardCall(Parent)) {
    const auto *Call = cast<CallExpr>(Parent);
    const auto *Method =
        dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    const CXXRecordDecl *Module = nullptr;
    if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
        Operator && Operator->getNumArgs() > 0)
      // The holder as written (`Net`, not the ModuleHolder base the call
      // converts it to), and the module class it holds.
      Module = moduleClassOf(Operator->getArg(0)->IgnoreImpCasts()->getType());
    else if (Method)
      Module = Method->getParent();
    if (!Module || !isInNamespace(Module, names::TorchNamespace))
      return {};
    return tensorArguments(*Call, utils::objectArgumentCount(Call), Use);
  }
  if (const auto *Operator = dyn_cast_or_null<CXXOperatorCallExpr>(Parent)) {
    // Arithmetic and comparisons; not an assignment (a rebinding or a copy)
    // nor a subscript (host indices are allowed).
    if (!Operator->isInfixBinaryOp() || Operator->getOperator() == OO_Equal ||
        Operator->getOperator() == OO_Subscript ||
        !Operator->getDirectCallee() || !isTensorType(Operator->getType()))
      return {};
    return tensorArguments(*Operator, 0, Use);
  }
  if (const CXXMethodDecl *Method =
          tensorMethodCalled(dyn_cast_or_null<Expr>(Parent));
      Method && Method->getIdentifier() &&
      computesWithArgument(Method->getName()))
    return {cast<CXXMemberCallExpr>(Parent)->getImplicitObjectArgument()};
  const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
  if (!Call || isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call))
    return {};
  // LibTorch's functions, but for the factories and those that take
  // indices (`index_select`, `gather`): host indices are allowed there.
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      (!isInNamespace(Callee, names::TorchNamespace) &&
       !isInNamespace(Callee, names::AtNamespace)) ||
      isTensorFactoryCall(Call) || Callee->getName().contains("index") ||
      Callee->getName() == "gather" || Callee->getName() == "scatter")
    return {};
  return tensorArguments(*Call, 0, Use);
}

/// The tensor arguments of the method \p Object (a use's outermost
/// wrapper) is the object of, when the method computes with them
/// (`labels.mul(scores)`); empty otherwise.
llvm::SmallVector<const Expr *, 4>
partnersOfObject(const MemberExpr &Member, const Expr *Object,
                 const utils::UserCodeParents &Parents) {
  utils::Above Up = utils::parentIgnoring(
      &Member, Parents, utils::ImplicitWrappers, utils::ParentChoice::First);
  const auto *Call = Up.Parent.get<CXXMemberCallExpr>();
  const CXXMethodDecl *Method = Call ? tensorMethodCalled(Call) : nullptr;
  if (!Method || !Method->getIdentifier() ||
      !computesWithArgument(Method->getName()) ||
      Call->getImplicitObjectArgument() != Object)
    return {};
  return tensorArguments(*Call, 0, Object);
}

/// The operation that takes \p Use with a tensor on the device, if any.
std::optional<HostOperand> meetingAt(const Expr *Use, ASTContext &Context,
                                     const utils::UserCodeParents &Parents) {
  utils::Above Up = utils::parentIgnoring(Use, Parents, ArgumentWrappers,
                                          utils::ParentChoice::First);
  const auto *Parent = Up.Parent.get<Stmt>();
  const auto *Taken = dyn_cast_or_null<Expr>(Up.Child);
  if (!Parent || !Taken)
    return std::nullopt;
  const auto *Member = dyn_cast<MemberExpr>(Parent);
  for (const Expr *Partner : Member ? partnersOfObject(*Member, Taken, Parents)
                                    : partnersIn(Parent, Taken))
    if (isProvablyOnDevice(Partner, Context)) {
      HostOperand Found;
      Found.Operation = cast<Expr>(Parent);
      Found.HostTensor = Use;
      Found.DeviceTensor = Partner;
      return Found;
    }
  return std::nullopt;
}

/// The local variable \p Factory initializes, if it never gets another
/// value (a reference bound to it counts as one).
const VarDecl *holdingVariable(const CallExpr &Factory,
                               const utils::UserCodeParents &Parents) {
  utils::Above Up = utils::parentIgnoring(&Factory, Parents, ArgumentWrappers,
                                          utils::ParentChoice::First);
  const auto *Variable = Up.Parent.get<VarDecl>();
  if (!Variable || !Variable->hasLocalStorage() || isa<ParmVarDecl>(Variable) ||
      Variable->getType()->isReferenceType())
    return nullptr;
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
  if (!Function || !Function->getBody() ||
      utils::isAssignedOrAddressTaken(Variable, Function->getBody(),
                                      utils::ImplicitWrappers |
                                          utils::ExplicitCast))
    return nullptr;
  return Variable;
}

/// \p Device can be written at \p At as it is spelled (deviceForFactory).
bool isDeviceVisibleAt(const Expr *Device, const Stmt &At,
                       const utils::UserCodeParents &Parents,
                       const SourceManager &SM) {
  // `torch::kCUDA` given for a Device converts without a trace.
  const Expr *E = utils::stripWrappers(Device, utils::ImplicitWrappers |
                                                   utils::ImplicitConversion);
  const FunctionDecl *Function = utils::enclosingCallable(&At, Parents);
  if (const auto *Member = dyn_cast_or_null<MemberExpr>(E)) {
    // `device_` in a member function of its class.
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Function);
    const auto *This = dyn_cast<CXXThisExpr>(
        utils::stripWrappers(Member->getBase(), utils::ImplicitWrappers));
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    return Method && This && This->isImplicit() && Field &&
           !Method->getParent()->isLambda() &&
           (Method->getParent() == Field->getParent() ||
            Method->getParent()->isDerivedFrom(
                cast<CXXRecordDecl>(Field->getParent())));
  }
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
  if (!Ref)
    return false;
  if (isa<EnumConstantDecl>(Ref->getDecl()))
    return true;
  const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Variable)
    return false;
  if (Variable->isFileVarDecl())
    return true;
  if (const auto *Parameter = dyn_cast<ParmVarDecl>(Variable))
    return Function && Parameter->getDeclContext() == Function;
  if (!Variable->hasLocalStorage() || Variable->getDeclContext() != Function ||
      !SM.isBeforeInTranslationUnit(Variable->getLocation(), At.getBeginLoc()))
    return false;
  // Declared in a block that holds At.
  const Stmt *Block = nullptr;
  for (const auto &Parent : Parents.get(*Variable))
    if (const auto *Statement = Parent.get<DeclStmt>()) {
      auto Above = Parents.get(*Statement);
      if (!Above.empty())
        Block = Above[0].get<Stmt>();
    }
  if (!Block)
    return false;
  return utils::forEachStmtAncestor(
      &At, Parents,
      [&](const Stmt *Ancestor, const Stmt *) { return Ancestor != Block; });
}

} // namespace

std::optional<HostCopySource> hostCopySource(const CXXMemberCallExpr &Copy,
                                             ASTContext &Context) {
  const Expr *Source = Copy.getImplicitObjectArgument();
  const auto *Call = dyn_cast_or_null<CallExpr>(asWritten(Source));
  HostCopySource Made;
  if (Call && isTensorFactoryCall(Call)) {
    if (compat::beginOf(*Call).isMacroID() ||
        !isHostTensorFactoryCall(Call, Context))
      return std::nullopt;
    Made.What = HostCopySource::Direct;
    Made.Factory = Call;
    return Made;
  }
  if (const CallExpr *Returned = hostFactoryOfHelperCall(Call, Context)) {
    Made.What = HostCopySource::Returned;
    Made.Factory = Returned;
    Made.Helper = Call;
    return Made;
  }
  const CXXMethodDecl *CopyMethod = Copy.getMethodDecl();
  const bool CopyOnly = CopyMethod->getName() == names::CudaMethod ||
                        isRecordNamed(CopyMethod->getParamDecl(0)->getType(),
                                      names::TensorOptions);
  if (CopyOnly)
    Made.Widened = hostWideningBefore(Source, Context);
  if (Made.Widened) {
    Made.What = HostCopySource::Widening;
    return Made;
  }
  if (!isProvablyHostTensor(Source, Context))
    return std::nullopt;
  return Made;
}

std::optional<HostOperand>
hostOperandOf(const CallExpr &Factory, ASTContext &Context,
              const utils::UserCodeParents &Parents) {
  const FunctionDecl *Callee = Factory.getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      Callee->getName().ends_with("_like") || makesScalar(Factory) ||
      !isHostTensorFactoryCall(&Factory, Context))
    return std::nullopt;
  std::optional<HostOperand> Found = meetingAt(&Factory, Context, Parents);
  if (!Found)
    if (const VarDecl *Variable = holdingVariable(Factory, Parents)) {
      const auto *Function =
          cast<FunctionDecl>(Variable->getParentFunctionOrMethod());
      for (const DeclRefExpr *Ref :
           utils::referencesTo(Variable, Function->getBody())) {
        Found = meetingAt(Ref, Context, Parents);
        if (Found)
          break;
      }
    }
  if (Found)
    Found->Factory = &Factory;
  return Found;
}

FactoryDevice deviceForFactory(const HostOperand &Operand, ASTContext &Context,
                               const utils::UserCodeParents &Parents,
                               const LangOptions &LangOpts) {
  FactoryDevice Result;
  PlacingDevice Placed = placingDevice(Operand.DeviceTensor, Context);
  const SourceManager &SM = Context.getSourceManager();
  if (Placed.Cuda)
    Result.DeviceText = "torch::kCUDA";
  else if (Placed.Device)
    Result.DeviceText = utils::spelledText(Placed.Device, SM, LangOpts);
  if (Placed.Cuda ||
      (Placed.Device &&
       isDeviceVisibleAt(Placed.Device, *Operand.Factory, Parents, SM)))
    Result.AddDevice = deviceIntoOptions(*Operand.Factory, Result.DeviceText,
                                         Context, LangOpts);
  return Result;
}

} // namespace clang::tidy::libtorch::analysis
