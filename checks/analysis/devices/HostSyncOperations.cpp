//===--- HostSyncOperations.cpp - LibTorch calls that wait for the GPU ----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/HostSyncOperations.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceTests.h"
#include "analysis/devices/HostPointerReads.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AssignedValues.h"
#include "utils/CallArguments.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::libtorch::analysis {

using llvm::StringRef;

namespace {

const StringRef SyncMethods[] = {
    "item",
    "cpu",
    "nonzero",
    "masked_select",
    "unique",
    "unique_dim",
    "unique_consecutive",
    "is_nonzero",
    "equal",
    "allclose",
    "data_ptr",
    "accessor",
    "to",
    // Wait only as some calls give their arguments (waitsAsCalled).
    "bincount",
    "histc",
    "repeat_interleave",
    "index",
};

} // namespace

llvm::ArrayRef<StringRef> syncTensorMethods() { return SyncMethods; }

llvm::ArrayRef<StringRef> syncFunctions() { return names::HostSyncFunctions; }

SyncKind syncKindOfMethod(StringRef Name) {
  return llvm::StringSwitch<SyncKind>(Name)
      .Case("item", SyncKind::ReadScalar)
      .Case("cpu", SyncKind::CopyToHost)
      .Case("to", SyncKind::CopyToHost)
      .Case("nonzero", SyncKind::DynamicShape)
      .Case("masked_select", SyncKind::DynamicShape)
      .Case("unique", SyncKind::DynamicShape)
      .Case("unique_dim", SyncKind::DynamicShape)
      .Case("unique_consecutive", SyncKind::DynamicShape)
      .Case("is_nonzero", SyncKind::HostBool)
      .Case("equal", SyncKind::HostBool)
      .Case("allclose", SyncKind::HostBool)
      .Case("data_ptr", SyncKind::HostMemory)
      .Case("accessor", SyncKind::HostMemory)
      .Case("bincount", SyncKind::SizedOnHost)
      .Case("histc", SyncKind::SizedOnHost)
      .Case("repeat_interleave", SyncKind::SizedOnHost)
      .Case("index", SyncKind::DynamicShape)
      .Default(SyncKind::Synchronize);
}

SyncKind syncKindOfFunction(StringRef QualifiedName) {
  StringRef Name = QualifiedName.rsplit("::").second;
  if (Name.empty())
    Name = QualifiedName;
  if (Name == "print")
    return SyncKind::Print;
  if (Name == "_local_scalar_dense")
    return SyncKind::ReadScalar;
  if (Name == "clip_grad_norm_")
    return SyncKind::HiddenRead;
  if (Name == "bincount" || Name == "histc" || Name == "repeat_interleave")
    return SyncKind::SizedOnHost;
  if (Name == "nonzero" || Name == "masked_select" || Name.contains("unique"))
    return SyncKind::DynamicShape;
  if (Name == "equal" || Name == "allclose" || Name == "is_nonzero")
    return SyncKind::HostBool;
  return SyncKind::Synchronize;
}

namespace {

const Expr *stripTemporaries(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temporary->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
             Construct && Construct->getNumArgs() == 1 &&
             (Construct->getConstructor()->isCopyOrMoveConstructor() ||
              isa<CXXFunctionalCastExpr>(E)))
      E = Construct->getArg(0);
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr();
    else
      return E;
  }
  return E;
}

bool isMask(const Expr *E, unsigned Depth) {
  E = stripTemporaries(E);
  if (!E || Depth > 4 || !isTensorType(E->getType()))
    return false;
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E)) {
    switch (Operator->getOperator()) {
    case OO_Less:
    case OO_Greater:
    case OO_LessEqual:
    case OO_GreaterEqual:
    case OO_EqualEqual:
    case OO_ExclaimEqual:
      return true;
    case OO_Tilde:
    case OO_Exclaim:
      return Operator->getNumArgs() == 1 &&
             isMask(Operator->getArg(0), Depth + 1);
    case OO_Amp:
    case OO_Pipe:
    case OO_Caret:
      return Operator->getNumArgs() == 2 &&
             isMask(Operator->getArg(0), Depth + 1) &&
             isMask(Operator->getArg(1), Depth + 1);
    default:
      return false;
    }
  }
  if (const CXXMethodDecl *Method = tensorMethodCalled(E))
    return Method->getIdentifier() &&
           llvm::is_contained(names::MaskMethods, Method->getName());
  // A local whose every value is a mask (`auto valid = labels != -1;`).
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl()))
      if (auto Values = utils::assignedValues(Variable);
          Values && !Values->empty())
        return llvm::all_of(*Values, [Depth](const Expr *Value) {
          return isMask(Value, Depth + 1);
        });
  return false;
}

/// The argument given for \p Callee's parameter \p Name; null when there is
/// no such parameter.
const Expr *argumentNamed(const CallExpr *Call, const FunctionDecl *Callee,
                          llvm::StringRef Name) {
  for (unsigned I = 0; I < Callee->getNumParams(); ++I)
    if (Callee->getParamDecl(I)->getName() == Name)
      return utils::argumentOfParameter(Call, I);
  return nullptr;
}

bool leftOut(const Expr *Argument) {
  return Argument && isa<CXXDefaultArgExpr>(Argument);
}

/// An index of `t.index({...})` that is a boolean mask.
bool indexesWithMask(const CallExpr *Call) {
  if (Call->getNumArgs() != 1)
    return false;
  const Expr *List = Call->getArg(0)->IgnoreImplicit();
  if (const auto *Std = dyn_cast<CXXStdInitializerListExpr>(List))
    List = Std->getSubExpr()->IgnoreImplicit();
  const auto *Init = dyn_cast<InitListExpr>(List);
  if (!Init)
    return false;
  for (const Expr *Element : Init->inits()) {
    const auto *Construct =
        dyn_cast<CXXConstructExpr>(Element->IgnoreImplicit());
    if (Construct && Construct->getNumArgs() == 1 &&
        isMask(Construct->getArg(0), 0))
      return true;
  }
  return false;
}

} // namespace

bool isBooleanMask(const Expr *E) { return isMask(E, 0); }

bool waitsAsCalled(const CallExpr *Call) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier())
    return true;
  StringRef Name = Callee->getName();
  if (Name == "histc")
    return leftOut(argumentNamed(Call, Callee, "min")) &&
           leftOut(argumentNamed(Call, Callee, "max"));
  if (Name == "repeat_interleave") {
    // An integer count of repeats: the output size is known on the host.
    const Expr *Repeats = argumentNamed(Call, Callee, "repeats");
    if (!Repeats || !isTensorType(Repeats->getType()))
      return false;
    return leftOut(argumentNamed(Call, Callee, "output_size"));
  }
  if (Name == "index")
    return isa<CXXMemberCallExpr>(Call) && indexesWithMask(Call);
  return true;
}

SourceLocation calledNameLoc(const CallExpr &Call) {
  if (const auto *Method = dyn_cast<CXXMemberCallExpr>(&Call))
    if (const auto *Member = dyn_cast<MemberExpr>(Method->getCallee()))
      return Member->getMemberLoc();
  return compat::beginOf(Call);
}

std::optional<HostSync> tensorMethodSync(const CXXMemberCallExpr &Call,
                                         ASTContext &Context,
                                         const LangOptions &LangOpts) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  if (Method->getName() == names::ToMethod) {
    // Only a copy to the CPU waits; to(device) and to(dtype) do not.
    if (Call.getNumArgs() == 0 ||
        classifyDevice(Call.getArg(0), Context) != DeviceKind::Cpu)
      return std::nullopt;
  }
  // bincount, histc, repeat_interleave, index: as their arguments say.
  if (!waitsAsCalled(&Call))
    return std::nullopt;
  HostSync Sync;
  Sync.Operation = &Call;
  Sync.Tensor = Call.getImplicitObjectArgument();
  Sync.Kind = syncKindOfMethod(Method->getName());
  Sync.Name =
      utils::calledName(Method, /*IsMember=*/true, Context.getPrintingPolicy());
  if (Method->getName() == names::ToMethod)
    Sync.Name = "to(" +
                utils::spelledText(Call.getArg(0), Context.getSourceManager(),
                                   LangOpts) +
                ")";
  Sync.Loc = calledNameLoc(Call);
  return Sync;
}

HostSync tensorPrintSync(const CXXOperatorCallExpr &Print) {
  HostSync Sync;
  Sync.Operation = &Print;
  Sync.Tensor = Print.getArg(1);
  Sync.Kind = SyncKind::Print;
  Sync.Loc = Print.getOperatorLoc();
  if (Sync.Loc.isInvalid())
    Sync.Loc = Print.getBeginLoc();
  return Sync;
}

std::optional<HostSync> functionSync(const CallExpr &Call,
                                     const PrintingPolicy &Policy) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!waitsAsCalled(&Call))
    return std::nullopt;
  HostSync Sync;
  Sync.Operation = &Call;
  Sync.Kind = syncKindOfFunction(Callee->getQualifiedNameAsString());
  if (Sync.Kind != SyncKind::Synchronize && Call.getNumArgs() > 0 &&
      isTensorType(Call.getArg(0)->getType()))
    Sync.Tensor = Call.getArg(0);
  Sync.Name = utils::calledName(Callee, /*IsMember=*/false, Policy);
  Sync.Loc = compat::beginOf(Call);
  return Sync;
}

std::optional<HostSync> deviceToHostCopySync(const CallExpr &Call,
                                             ASTContext &Context,
                                             const LangOptions &LangOpts) {
  const SourceManager &SM = Context.getSourceManager();
  const Expr *Destination = nullptr;
  const Expr *Source = nullptr;
  std::string Name;
  SourceLocation Loc;
  if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(&Call)) {
    // `host[i] = device[j]`: Tensor::operator=(const Tensor &) && copies
    // into the view (copy_). A scalar assigned, or a variable rebound
    // (`t = u`, the & overloads), copies nothing.
    const auto *Method =
        dyn_cast_or_null<CXXMethodDecl>(Call.getDirectCallee());
    if (Assign->getOperator() != OO_Equal || Call.getNumArgs() != 2 ||
        !Method || Method->getRefQualifier() != RQ_RValue ||
        !isTensorType(Call.getArg(1)->getType()))
      return std::nullopt;
    Destination = Call.getArg(0);
    Source = Call.getArg(1);
    Name = utils::spelledText(Destination, SM, LangOpts) + " = " +
           utils::spelledText(Source, SM, LangOpts);
    Loc = Assign->getOperatorLoc();
  } else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!Method || !Method->getIdentifier() || Call.getNumArgs() == 0)
      return std::nullopt;
    Destination = Member->getImplicitObjectArgument();
    if (Method->getName() == names::CopyInPlaceMethod) {
      // A non-blocking copy into (pinned) host memory does not wait here.
      if (Call.getNumArgs() > 1 && !isa<CXXDefaultArgExpr>(Call.getArg(1)) &&
          utils::literalBool(Call.getArg(1)) != std::optional<bool>(false))
        return std::nullopt;
      Source = Call.getArg(0);
    } else if (Method->getName() == names::IndexPutMethod &&
               Call.getNumArgs() >= 2 &&
               isTensorType(Call.getArg(1)->getType())) {
      Source = Call.getArg(1);
    } else {
      return std::nullopt;
    }
    Name = Method->getName().str() + "()";
    Loc = calledNameLoc(*Member);
  } else {
    return std::nullopt;
  }
  if (!isProvablyHostTensor(Destination, Context) ||
      !isProvablyOnDevice(Source, Context))
    return std::nullopt;
  HostSync Sync;
  Sync.Operation = &Call;
  Sync.Tensor = Source;
  Sync.Kind = SyncKind::CopyToHost;
  Sync.Name = std::move(Name);
  Sync.Loc = Loc.isValid() ? Loc : compat::beginOf(Call);
  return Sync;
}

StringRef syncKindName(SyncKind Kind) {
  switch (Kind) {
  case SyncKind::ReadScalar:
    return "read-scalar";
  case SyncKind::CopyToHost:
    return "copy-to-host";
  case SyncKind::Print:
    return "print";
  case SyncKind::DynamicShape:
    return "dynamic-shape";
  case SyncKind::HostBool:
    return "host-bool";
  case SyncKind::HostMemory:
    return "host-memory";
  case SyncKind::SizedOnHost:
    return "sized-on-host";
  case SyncKind::Synchronize:
    return "synchronize";
  case SyncKind::HiddenRead:
    return "hidden-read";
  case SyncKind::Listed:
    return "listed";
  case SyncKind::Elsewhere:
    return "elsewhere";
  }
  llvm_unreachable("every kind is named");
}

std::optional<SyncKind> syncKindFromName(StringRef Name) {
  for (SyncKind Kind :
       {SyncKind::ReadScalar, SyncKind::CopyToHost, SyncKind::Print,
        SyncKind::DynamicShape, SyncKind::HostBool, SyncKind::HostMemory,
        SyncKind::SizedOnHost, SyncKind::Synchronize, SyncKind::HiddenRead,
        SyncKind::Listed, SyncKind::Elsewhere})
    if (syncKindName(Kind) == Name)
      return Kind;
  return std::nullopt;
}

std::optional<HostSync> syncOfCall(const CallExpr &Call, ASTContext &Context,
                                   const LangOptions &LangOpts) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return std::nullopt;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!Method || !Method->getIdentifier() ||
        !llvm::is_contained(syncTensorMethods(), Method->getName()) ||
        !isTensorType(compat::typeOfClass(*Method->getParent())))
      return std::nullopt;
    return tensorMethodSync(*Member, Context, LangOpts);
  }
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(&Call)) {
    if (Operator->getOperator() != OO_LessLess || Operator->getNumArgs() != 2 ||
        Callee->getNumParams() < 1 ||
        !isTensorType(
            Callee->getParamDecl(Callee->getNumParams() - 1)->getType()))
      return std::nullopt;
    return tensorPrintSync(*Operator);
  }
  if (!llvm::is_contained(syncFunctions(),
                          "::" + Callee->getQualifiedNameAsString()))
    return std::nullopt;
  return functionSync(Call, Context.getPrintingPolicy());
}

bool waitsWhereUsed(const HostSync &Sync,
                    const utils::UserCodeParents &Parents) {
  if (Sync.Tensor && isOnHostByDeviceTest(Sync.Tensor, Sync.Operation, Parents))
    return false;
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Sync.Operation);
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (Sync.Kind != SyncKind::HostMemory || !Method ||
      !isNamed(Method, "data_ptr"))
    return true;
  return isReadOnHost(Call, Parents);
}

std::optional<HostSync> listedFunctionSync(const CallExpr &Call,
                                           const PrintingPolicy &Policy) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  // A body in this unit is followed instead: its syncs are reported where
  // they are, and a listed function that syncs nowhere we can see is taken
  // at its word only when we cannot look.
  if (Callee->hasBody() ||
      llvm::is_contained(syncFunctions(),
                         "::" + Callee->getQualifiedNameAsString()))
    return std::nullopt;
  HostSync Sync;
  Sync.Operation = &Call;
  Sync.Kind = SyncKind::Listed;
  Sync.Name = utils::calledName(Callee, isa<CXXMemberCallExpr>(Call), Policy);
  Sync.Loc = calledNameLoc(Call);
  return Sync;
}

} // namespace clang::tidy::libtorch::analysis
