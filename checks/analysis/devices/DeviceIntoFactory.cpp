//===--- DeviceIntoFactory.cpp - Device given to a factory ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/DeviceIntoFactory.h"
#include "analysis/LibTorchCalls.h"
#include "analysis/LibTorchNames.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceVariables.h"
#include "utils/FixIts.h"
#include "utils/SourceText.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// The position of \p Factory's TensorOptions parameter, if it has one.
std::optional<unsigned> tensorOptionsParameter(const FunctionDecl &Factory) {
  for (unsigned I = 0; I < Factory.getNumParams(); ++I)
    if (isRecordNamed(Factory.getParamDecl(I)->getType(), names::TensorOptions))
      return I;
  return std::nullopt;
}

/// `at::Generator`, or an optional of one (the factories' parameter).
bool isGeneratorType(QualType Type) {
  if (isRecordNamed(Type, names::Generator))
    return true;
  const auto *Specialization =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          Type.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Specialization || Specialization->getTemplateArgs().size() != 1)
    return false;
  const TemplateArgument &Argument = Specialization->getTemplateArgs()[0];
  return Argument.getKind() == TemplateArgument::Type &&
         isRecordNamed(Argument.getAsType(), names::Generator);
}

/// An expression `.device(d)` can be appended to without parentheses.
bool isPostfixExpression(const Expr *E) {
  return isa<CallExpr, DeclRefExpr, CXXTemporaryObjectExpr, MemberExpr,
             ParenExpr>(E);
}

} // namespace

bool takesGenerator(const CallExpr &Factory, const FunctionDecl &Callee) {
  for (unsigned I = 0; I < Factory.getNumArgs() && I < Callee.getNumParams();
       ++I)
    if (!isa<CXXDefaultArgExpr>(Factory.getArg(I)) &&
        isGeneratorType(Callee.getParamDecl(I)->getType()))
      return true;
  return false;
}

FactoryDevice deviceIntoFactory(const CallExpr &Factory,
                                const CXXMemberCallExpr &Copy,
                                ASTContext &Context,
                                const LangOptions &LangOpts) {
  const SourceManager &SM = Context.getSourceManager();
  const FunctionDecl *Callee = Factory.getDirectCallee();
  FactoryDevice Result;
  std::optional<FixItHint> AddDevice;
  bool Safe = utils::isRewritable(Copy.getSourceRange());
  if (Copy.getMethodDecl()->getName() == names::CudaMethod) {
    Result.DeviceText = "torch::kCUDA";
  } else {
    const Expr *Destination = Copy.getArg(0);
    QualType DestinationType = asWritten(Destination)->getType();
    if (!isRecordNamed(DestinationType, names::Device) &&
        !isDeviceTypeEnum(DestinationType))
      Safe = false; // options with a dtype, a device string, ...
    Result.DeviceText = utils::spelledText(Destination, SM, LangOpts);
    bool NonBlockingOnly = isRecordNamed(
        Copy.getMethodDecl()->getParamDecl(0)->getType(), names::TensorOptions);
    for (unsigned I = NonBlockingOnly ? 2 : 1; I < Copy.getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Copy.getArg(I)))
        Safe = false;
  }
  std::optional<unsigned> Options =
      Callee ? tensorOptionsParameter(*Callee) : std::nullopt;
  if (!Options || *Options >= Factory.getNumArgs())
    Safe = false;
  if (!Safe)
    return Result;
  for (unsigned I = *Options + 1; I < Factory.getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(Factory.getArg(I)))
      return Result;
  const Expr *Arg = Factory.getArg(*Options);
  if (isa<CXXDefaultArgExpr>(Arg)) {
    const Expr *Before = *Options > 0 ? Factory.getArg(*Options - 1) : nullptr;
    if (Before && !isa<CXXDefaultArgExpr>(Before))
      Result.AddDevice = utils::insertionAfter(
          *Before, ", " + Result.DeviceText, SM, LangOpts);
    return Result;
  }
  std::string Text = utils::spelledText(Arg, SM, LangOpts);
  // A requires_grad factory makes a leaf tensor: moved, the copy is not
  // one. Passing the device would change which tensor gets .grad.
  if (Text.empty() || StringRef(Text).contains("requires_grad") ||
      !utils::isRewritable(Arg->getSourceRange()) ||
      classifyDevice(Arg, Context) != DeviceKind::NoDevice)
    return Result;
  if (isRecordNamed(asWritten(Arg)->getType(), names::TensorOptions) &&
      isPostfixExpression(asWritten(Arg)))
    Result.AddDevice = utils::insertionAfter(
        *Arg, ".device(" + Result.DeviceText + ")", SM, LangOpts);
  else
    Result.AddDevice = FixItHint::CreateReplacement(
        Arg->getSourceRange(),
        "torch::TensorOptions(" + Text + ").device(" + Result.DeviceText + ")");
  return Result;
}

} // namespace clang::tidy::libtorch::analysis
