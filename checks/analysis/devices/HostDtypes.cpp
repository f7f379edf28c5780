//===--- HostDtypes.cpp - Element types of host tensors -------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/HostDtypes.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceVariables.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AssignedValues.h"
#include "utils/AstWalk.h"
#include "utils/FixIts.h"
#include "utils/SourceText.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::libtorch::analysis {

namespace {

constexpr unsigned MaxDtypeDepth = 8;

const Expr *stripCopies(const Expr *E) {
  return utils::stripWrappers(E, utils::ImplicitWrappers |
                                     utils::CopyConstruct |
                                     utils::ImplicitConversion);
}

/// Options and element types are also written as casts:
/// `torch::TensorOptions(torch::kShort)`, `static_cast<ScalarType>(k)`.
const Expr *stripOptions(const Expr *E) {
  return utils::stripWrappers(E,
                              utils::ImplicitWrappers | utils::CopyConstruct |
                                  utils::ImplicitConversion |
                                  utils::FunctionalCast | utils::ExplicitCast);
}

bool isScalarTypeEnum(QualType Type) {
  const auto *Enum = Type.getNonReferenceType()->getAs<EnumType>();
  return Enum && hasQualifiedName(Enum->getDecl(), names::ScalarType);
}

std::optional<StringRef> scalarType(const Expr *E, unsigned Depth) {
  E = stripOptions(E);
  if (!E || Depth > MaxDtypeDepth)
    return std::nullopt;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Enumerator = dyn_cast<EnumConstantDecl>(Ref->getDecl()))
      return isScalarTypeEnum(Ref->getType())
                 ? std::optional<StringRef>(Enumerator->getName())
                 : std::nullopt;
    // `constexpr auto kUInt8 = at::kByte;`, a local constant.
    const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl());
    if (Variable && Variable->getType().isConstQualified() &&
        Variable->getInit() && !isa<ParmVarDecl>(Variable))
      return scalarType(Variable->getInit(), Depth + 1);
    return std::nullopt;
  }
  // TensorOptions(kByte), optional<ScalarType>(kByte), a converting
  // construction of either.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0 ||
        isa<CXXDefaultArgExpr>(Construct->getArg(0)))
      return std::nullopt;
    return scalarType(Construct->getArg(0), Depth + 1);
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!Method || !Method->getIdentifier() ||
        !isRecordNamed(compat::typeOfClass(*Method->getParent()),
                       names::TensorOptions))
      return std::nullopt;
    if (Method->getName() == "dtype" && Member->getNumArgs() == 1)
      return scalarType(Member->getArg(0), Depth + 1);
    // device(), layout(), requires_grad(), ...: the dtype is unchanged.
    return scalarType(Member->getImplicitObjectArgument(), Depth + 1);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      if (hasAnyQualifiedName(Callee, names::DtypeFunctions) &&
          Call->getNumArgs() == 1)
        return scalarType(Call->getArg(0), Depth + 1);
    }
  return std::nullopt;
}

/// Tensor methods whose result has their object's element type.
bool keepsElementType(StringRef Method) {
  return llvm::is_contained(names::ElementTypeKeepingMethods, Method);
}

/// What may stand between the widening and the copy: arithmetic and views
/// on the widened tensor, which keep its (wide) element type.
bool keepsWideTensor(StringRef Method) {
  return keepsElementType(Method) ||
         llvm::is_contained(names::WideTypeKeepingMethods, Method);
}

/// `torch::from_blob`, `torch::tensor` and the factories of
/// tensorFactoryNames() (not `*_like`, made with their model's type).
bool makesTensorFromOptions(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  if (hasAnyQualifiedName(Callee, names::HostDataFactories))
    return true;
  return isTensorFactoryCall(Call) && !Callee->getName().ends_with("_like");
}

std::optional<StringRef> elementType(const Expr *E, unsigned Depth) {
  E = stripCopies(E);
  if (!E || Depth > MaxDtypeDepth)
    return std::nullopt;
  if (const CXXMethodDecl *Method = tensorMethodCalled(E)) {
    if (!Method->getIdentifier() || !keepsElementType(Method->getName()))
      return std::nullopt;
    return elementType(cast<CXXMemberCallExpr>(E)->getImplicitObjectArgument(),
                       Depth + 1);
  }
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Operator->getOperator() == OO_Subscript && Operator->getNumArgs() > 0 &&
        isTensorType(Operator->getType()))
      return elementType(Operator->getArg(0), Depth + 1);
    return std::nullopt;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (!makesTensorFromOptions(Call))
      return std::nullopt;
    // The element type its options give; without one it is the default
    // (or, for torch::tensor, the values'), which we do not guess.
    for (const Expr *Arg : Call->arguments()) {
      if (isa<CXXDefaultArgExpr>(Arg))
        continue;
      QualType Type = Arg->getType();
      if (isRecordNamed(Type, names::TensorOptions) || isScalarTypeEnum(Type))
        if (std::optional<StringRef> Found = scalarType(Arg, Depth + 1))
          return Found;
    }
    return std::nullopt;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Variable || !Variable->hasLocalStorage() || isa<ParmVarDecl>(Variable))
      return std::nullopt;
    // Every value it may hold has the same element type.
    std::optional<llvm::SmallVector<const Expr *, 4>> Values =
        utils::assignedValues(Variable);
    if (!Values || Values->empty())
      return std::nullopt;
    std::optional<StringRef> Common = elementType(Values->front(), Depth + 1);
    for (const Expr *Value : llvm::drop_begin(*Values))
      if (!Common || elementType(Value, Depth + 1) != Common)
        return std::nullopt;
    return Common;
  }
  return std::nullopt;
}

} // namespace

std::optional<StringRef> scalarTypeNamed(const Expr *E) {
  return scalarType(E, 0);
}

unsigned elementBytes(StringRef ScalarType) {
  return llvm::StringSwitch<unsigned>(ScalarType)
      .Case("Byte", 1)
      .Case("Char", 1)
      .Case("Bool", 1)
      .Case("QInt8", 1)
      .Case("QUInt8", 1)
      .Case("Short", 2)
      .Case("Half", 2)
      .Case("BFloat16", 2)
      .Case("Int", 4)
      .Case("Float", 4)
      .Case("QInt32", 4)
      .Case("ComplexHalf", 4)
      .Case("Long", 8)
      .Case("Double", 8)
      .Case("ComplexFloat", 8)
      .Case("ComplexDouble", 16)
      .Default(0);
}

std::optional<StringRef> knownElementType(const Expr *Tensor) {
  return elementType(Tensor, 0);
}

std::optional<HostWidening> hostWideningBefore(const Expr *CopySource,
                                               ASTContext &Context) {
  HostWidening Result;
  Result.Adjacent = true;
  const Expr *E = CopySource;
  for (unsigned Hops = 0; Hops < MaxDtypeDepth; ++Hops) {
    E = stripCopies(E);
    if (const auto *Operator = dyn_cast_or_null<CXXOperatorCallExpr>(E)) {
      // `(x.to(torch::kFloat) / 255).to(device)`
      if (!Operator->isInfixBinaryOp() || !isTensorType(Operator->getType()))
        return std::nullopt;
      E = Operator->getArg(0);
      Result.Adjacent = false;
      continue;
    }
    const CXXMethodDecl *Method = tensorMethodCalled(E);
    if (!Method || !Method->getIdentifier())
      return std::nullopt;
    const auto *Call = cast<CXXMemberCallExpr>(E);
    StringRef Name = Method->getName();
    bool Converts = (Name == "toType" && Method->getNumParams() == 1) ||
                    (Name == names::ToMethod && Method->getNumParams() > 0 &&
                     isScalarTypeEnum(Method->getParamDecl(0)->getType()));
    if (!Converts) {
      if (!keepsWideTensor(Name))
        return std::nullopt;
      E = Call->getImplicitObjectArgument();
      Result.Adjacent = false;
      continue;
    }
    if (Call->getNumArgs() == 0)
      return std::nullopt;
    std::optional<StringRef> To = scalarTypeNamed(Call->getArg(0));
    const Expr *Object = Call->getImplicitObjectArgument();
    std::optional<StringRef> From = knownElementType(Object);
    if (!To || !From)
      return std::nullopt;
    unsigned FromBytes = elementBytes(*From), ToBytes = elementBytes(*To);
    if (!FromBytes || ToBytes <= FromBytes ||
        !isProvablyHostTensor(Object, Context))
      return std::nullopt;
    Result.Conversion = Call;
    Result.From = *From;
    Result.To = *To;
    Result.Ratio = ToBytes / FromBytes;
    return Result;
  }
  return std::nullopt;
}

std::optional<HostConversion> wideConversionBeforeCopy(const Expr *CopySource,
                                                       ASTContext &Context) {
  const CXXMethodDecl *Method = tensorMethodCalled(stripCopies(CopySource));
  if (!Method || !Method->getIdentifier())
    return std::nullopt;
  const auto *Call = cast<CXXMemberCallExpr>(stripCopies(CopySource));
  StringRef Name = Method->getName();
  bool Converts = (Name == "toType" && Method->getNumParams() == 1) ||
                  (Name == names::ToMethod && Method->getNumParams() > 0 &&
                   isScalarTypeEnum(Method->getParamDecl(0)->getType()));
  if (!Converts || Call->getNumArgs() == 0)
    return std::nullopt;
  std::optional<StringRef> To = scalarTypeNamed(Call->getArg(0));
  if (!To || elementBytes(*To) != 8)
    return std::nullopt;
  const Expr *Object = Call->getImplicitObjectArgument();
  std::optional<StringRef> From = knownElementType(Object);
  if ((From && elementBytes(*From) >= 8) || isProvablyOnDevice(Object, Context))
    return std::nullopt;
  return HostConversion{Call, *To, From.value_or(StringRef())};
}

StringRef dtypeDisplayName(StringRef ScalarType) {
  return llvm::StringSwitch<StringRef>(ScalarType)
      .Case("Byte", "uint8")
      .Case("Char", "int8")
      .Case("Short", "int16")
      .Case("Int", "int32")
      .Case("Long", "int64")
      .Case("Half", "float16")
      .Case("Float", "float32")
      .Case("Double", "float64")
      .Case("BFloat16", "bfloat16")
      .Case("Bool", "bool")
      .Default(ScalarType);
}

bool isWideningSwappable(const HostWidening &Widening,
                         const CXXMemberCallExpr &Copy, const SourceManager &SM,
                         const LangOptions &LangOpts) {
  const CXXMemberCallExpr &Conversion = *Widening.Conversion;
  const auto *CopyMember = dyn_cast<MemberExpr>(Copy.getCallee());
  const auto *ConversionMember = dyn_cast<MemberExpr>(Conversion.getCallee());
  if (!Widening.Adjacent || !CopyMember || !ConversionMember)
    return false;
  if (utils::tokenRangeText(CopyMember->getMemberLoc(), Copy.getRParenLoc(), SM,
                            LangOpts)
          .empty() ||
      utils::tokenRangeText(ConversionMember->getMemberLoc(),
                            Conversion.getRParenLoc(), SM, LangOpts)
          .empty() ||
      !utils::isRewritable(
          SourceRange(ConversionMember->getMemberLoc(), Copy.getRParenLoc())))
    return false;
  for (unsigned I = 1; I < Conversion.getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(Conversion.getArg(I)))
      return false;
  if (Copy.getMethodDecl()->getName() == names::ToMethod) {
    QualType Destination = asWritten(Copy.getArg(0))->getType();
    if (!isRecordNamed(Destination, names::Device) &&
        !isDeviceTypeEnum(Destination))
      return false;
  }
  const Expr *Narrow = asWritten(Conversion.getImplicitObjectArgument());
  if (isa<CallExpr>(Narrow) &&
      !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Narrow))
    return false;
  // Only blanks between the conversion and the copy's `.`.
  SourceLocation AfterConversion =
      Lexer::getLocForEndOfToken(Conversion.getRParenLoc(), 0, SM, LangOpts);
  StringRef Between =
      Lexer::getSourceText(CharSourceRange::getCharRange(
                               AfterConversion, CopyMember->getOperatorLoc()),
                           SM, LangOpts);
  return Between.trim().empty();
}

} // namespace clang::tidy::libtorch::analysis
