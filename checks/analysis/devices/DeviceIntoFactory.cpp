//===--- DeviceIntoFactory.cpp - Device given to a factory ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/DeviceIntoFactory.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceVariables.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
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
  FactoryDevice Result;
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
  if (Safe)
    Result.AddDevice =
        deviceIntoOptions(Factory, Result.DeviceText, Context, LangOpts);
  return Result;
}

std::optional<FixItHint> deviceIntoOptions(const CallExpr &Factory,
                                           StringRef DeviceText,
                                           ASTContext &Context,
                                           const LangOptions &LangOpts) {
  const SourceManager &SM = Context.getSourceManager();
  const FunctionDecl *Callee = Factory.getDirectCallee();
  std::optional<unsigned> Options =
      Callee ? tensorOptionsParameter(*Callee) : std::nullopt;
  if (!Options || *Options >= Factory.getNumArgs() || DeviceText.empty())
    return std::nullopt;
  for (unsigned I = *Options + 1; I < Factory.getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(Factory.getArg(I)))
      return std::nullopt;
  const Expr *Arg = Factory.getArg(*Options);
  if (isa<CXXDefaultArgExpr>(Arg)) {
    const Expr *Before = *Options > 0 ? Factory.getArg(*Options - 1) : nullptr;
    if (Before && !isa<CXXDefaultArgExpr>(Before))
      return utils::insertionAfter(*Before, ", " + DeviceText.str(), SM,
                                   LangOpts);
    return std::nullopt;
  }
  std::string Text = utils::spelledText(Arg, SM, LangOpts);
  // A requires_grad factory makes a leaf tensor: moved, the copy is not
  // one. Passing the device would change which tensor gets .grad.
  if (Text.empty() || StringRef(Text).contains("requires_grad") ||
      !utils::isRewritable(Arg->getSourceRange()) ||
      classifyDevice(Arg, Context) != DeviceKind::NoDevice)
    return std::nullopt;
  if (isRecordNamed(asWritten(Arg)->getType(), names::TensorOptions) &&
      isPostfixExpression(asWritten(Arg)))
    return utils::insertionAfter(*Arg, ".device(" + DeviceText.str() + ")", SM,
                                 LangOpts);
  return FixItHint::CreateReplacement(Arg->getSourceRange(),
                                      "torch::TensorOptions(" + Text +
                                          ").device(" + DeviceText.str() + ")");
}

} // namespace clang::tidy::libtorch::analysis
