//===--- TensorCreatedOffDeviceCheck.cpp - libtorch-tidy ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TensorCreatedOffDeviceCheck.h"
#include "analysis/DeviceFacts.h"
#include "analysis/DeviceVariables.h"
#include "analysis/LibTorchCalls.h"
#include "analysis/LibTorchNames.h"
#include "analysis/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

bool isDeviceTypeEnum(QualType Type) {
  const auto *Enum = Type.getNonReferenceType()->getAs<EnumType>();
  return Enum &&
         Enum->getDecl()->getQualifiedNameAsString() == "c10::DeviceType";
}

const Expr *written(const Expr *E) { return analysis::asWritten(E); }

std::optional<unsigned> optionsParameter(const FunctionDecl &Factory) {
  for (unsigned I = 0; I < Factory.getNumParams(); ++I)
    if (analysis::isRecordNamed(Factory.getParamDecl(I)->getType(),
                                names::TensorOptions))
      return I;
  return std::nullopt;
}

/// `at::Generator`, or an optional of one (the factories' parameter).
bool isGeneratorType(QualType Type) {
  if (analysis::isRecordNamed(Type, "::at::Generator"))
    return true;
  const auto *Specialization =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          Type.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Specialization || Specialization->getTemplateArgs().size() != 1)
    return false;
  const TemplateArgument &Argument = Specialization->getTemplateArgs()[0];
  return Argument.getKind() == TemplateArgument::Type &&
         analysis::isRecordNamed(Argument.getAsType(), "::at::Generator");
}

/// The factory is given a generator: it draws from that one.
bool takesGenerator(const CallExpr &Factory, const FunctionDecl &Callee) {
  for (unsigned I = 0; I < Factory.getNumArgs() && I < Callee.getNumParams();
       ++I)
    if (!isa<CXXDefaultArgExpr>(Factory.getArg(I)) &&
        isGeneratorType(Callee.getParamDecl(I)->getType()))
      return true;
  return false;
}

/// An expression `.device(d)` can be appended to without parentheses.
bool isPostfix(const Expr *E) {
  return isa<CallExpr, DeclRefExpr, CXXTemporaryObjectExpr, MemberExpr,
             ParenExpr>(E);
}

} // namespace

void TensorCreatedOffDeviceCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  const auto TensorClass =
      cxxRecordDecl(isSameOrDerivedFrom(names::TensorBase));
  const auto Factory = callExpr(
      callee(functionDecl(hasAnyName(analysis::tensorFactoryNames()))));
  Finder->addMatcher(
      cxxMemberCallExpr(
          unless(isExpansionInSystemHeader()),
          callee(cxxMethodDecl(hasAnyName("to", "cuda"), ofClass(TensorClass))),
          on(ignoringImplicit(Factory.bind("factory"))))
          .bind("copy"),
      this);
}

void TensorCreatedOffDeviceCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Copy = Result.Nodes.getNodeAs<CXXMemberCallExpr>("copy");
  const auto *Factory = Result.Nodes.getNodeAs<CallExpr>("factory");
  ASTContext &Context = *Result.Context;
  const FunctionDecl *Callee = Factory->getDirectCallee();
  const auto *Member = dyn_cast<MemberExpr>(Copy->getCallee());
  if (!Callee || !Member)
    return;
  // A copy written in a macro may serve other call sites: silent.
  if (Member->getMemberLoc().isMacroID() || Factory->getBeginLoc().isMacroID())
    return;
  const bool IsCuda = Copy->getMethodDecl()->getName() == "cuda";

  // Where the copy goes: only to a GPU (a copy to the CPU is no transfer).
  const Expr *Destination = nullptr;
  if (!IsCuda) {
    if (Copy->getNumArgs() == 0)
      return;
    Destination = Copy->getArg(0);
    QualType Target = Copy->getMethodDecl()->getParamDecl(0)->getType();
    if (!analysis::isRecordNamed(Target, names::TensorOptions) &&
        !analysis::isRecordNamed(Target, names::Device))
      return; // to(dtype), to(other_tensor)
    analysis::DeviceKind Kind = analysis::classifyDevice(Destination, Context);
    if (Kind != analysis::DeviceKind::Cuda &&
        Kind != analysis::DeviceKind::MaybeCuda)
      return;
  }

  // The factory makes its tensor on the host.
  if (!analysis::isHostTensorFactoryCall(Factory, Context))
    return;
  // A generator given explicitly is the stream the author wants; a CPU one
  // cannot draw on the GPU, so the device cannot move into this factory.
  if (takesGenerator(*Factory, *Callee))
    return;
  // Only what runs on every training step or evaluation batch: made once
  // (a constructor, setup, once per epoch), the copy costs nothing worth a
  // finding; in a dataset or transform the tensors are the CPU's by design.
  analysis::TrainingFacts &TU = trainingFacts(Context);
  std::optional<analysis::StepPath> Path = batchScope(Context).perBatch(Copy);
  if (!Path)
    return;
  const bool PerStep = TU.Loops.isStepLoop(Path->StepLoop);

  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LangOpts = getLangOpts();
  std::string FactoryName =
      analysis::spelledText(Factory->getCallee(), SM, LangOpts);
  std::string CopyText =
      IsCuda ? ".cuda()"
             : ".to(" + analysis::spelledText(Destination, SM, LangOpts) + ")";

  // The fix: the device goes into the factory's TensorOptions, the copy
  // goes away. Only when the copy does nothing else (no dtype, no
  // memory format, no forced copy) and the options are ours to extend.
  std::optional<FixItHint> AddDevice;
  std::string DeviceText;
  bool Safe = analysis::isRewritable(Copy->getSourceRange());
  if (IsCuda) {
    DeviceText = "torch::kCUDA";
  } else {
    const Expr *WrittenDestination = written(Destination);
    QualType DestinationType = WrittenDestination->getType();
    if (!analysis::isRecordNamed(DestinationType, names::Device) &&
        !isDeviceTypeEnum(DestinationType))
      Safe = false; // options with a dtype, a device string, ...
    DeviceText = analysis::spelledText(Destination, SM, LangOpts);
    bool NonBlockingOnly = analysis::isRecordNamed(
        Copy->getMethodDecl()->getParamDecl(0)->getType(),
        names::TensorOptions);
    for (unsigned I = NonBlockingOnly ? 2 : 1; I < Copy->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Copy->getArg(I)))
        Safe = false;
  }
  std::optional<unsigned> Options = optionsParameter(*Callee);
  if (!Options || *Options >= Factory->getNumArgs())
    Safe = false;
  if (Safe) {
    const Expr *Arg = Factory->getArg(*Options);
    for (unsigned I = *Options + 1; I < Factory->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Factory->getArg(I)))
        Safe = false;
    if (isa<CXXDefaultArgExpr>(Arg)) {
      const Expr *Before =
          *Options > 0 ? Factory->getArg(*Options - 1) : nullptr;
      if (!Before || isa<CXXDefaultArgExpr>(Before) ||
          !analysis::isRewritable(Before->getSourceRange()))
        Safe = false;
      else
        AddDevice = FixItHint::CreateInsertion(
            Lexer::getLocForEndOfToken(Before->getEndLoc(), 0, SM, LangOpts),
            ", " + DeviceText);
    } else {
      std::string Text = analysis::spelledText(Arg, SM, LangOpts);
      // A requires_grad factory makes a leaf tensor: moved, the copy is
      // not one. Passing the device would change which tensor gets .grad.
      if (Text.empty() || StringRef(Text).contains("requires_grad") ||
          !analysis::isRewritable(Arg->getSourceRange()) ||
          analysis::classifyDevice(Arg, Context) !=
              analysis::DeviceKind::NoDevice)
        Safe = false;
      else if (analysis::isRecordNamed(written(Arg)->getType(),
                                       names::TensorOptions) &&
               isPostfix(written(Arg)))
        AddDevice = FixItHint::CreateInsertion(
            Lexer::getLocForEndOfToken(Arg->getEndLoc(), 0, SM, LangOpts),
            ".device(" + DeviceText + ")");
      else
        AddDevice = FixItHint::CreateReplacement(
            Arg->getSourceRange(),
            "torch::TensorOptions(" + Text + ").device(" + DeviceText + ")");
    }
  }

  {
    auto Diag = diag(Member->getMemberLoc(),
                     "'%0' makes the tensor in host memory and '%1' copies it "
                     "to the GPU on every %select{evaluation batch|training "
                     "step}2; pass the device to '%0' to create it there")
                << FactoryName << CopyText << PerStep;
    if (Safe && AddDevice)
      Diag << *AddDevice
           << FixItHint::CreateRemoval(CharSourceRange::getTokenRange(
                  Member->getOperatorLoc(), Copy->getRParenLoc()));
  }
  for (const CallExpr *Site : Path->Calls)
    diag(Site->getBeginLoc(),
         "called here on every %select{evaluation batch|training step}0",
         DiagnosticIDs::Note)
        << PerStep;
  if (!Safe || !AddDevice)
    diag(Factory->getBeginLoc(),
         "pass the device in the factory's TensorOptions, e.g. "
         "'%0(..., torch::TensorOptions().device(%1))', and drop the copy",
         DiagnosticIDs::Note)
        << FactoryName << (DeviceText.empty() ? "device" : DeviceText);
}

} // namespace clang::tidy::libtorch
