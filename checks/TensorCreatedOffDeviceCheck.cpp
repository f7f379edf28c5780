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
#include "llvm/ADT/StringSwitch.h"

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

/// How a ScalarType enumerator is spelled in messages.
StringRef dtypeName(StringRef ScalarType) {
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

/// The text from \p Begin to the end of the token at \p End.
std::string textBetween(SourceLocation Begin, SourceLocation End,
                        const SourceManager &SM, const LangOptions &LangOpts) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, End), SM,
                              LangOpts)
      .str();
}

} // namespace

void TensorCreatedOffDeviceCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  const auto TensorClass =
      cxxRecordDecl(isSameOrDerivedFrom(names::TensorBase));
  Finder->addMatcher(
      cxxMemberCallExpr(
          unless(isExpansionInSystemHeader()),
          callee(cxxMethodDecl(hasAnyName("to", "cuda"), ofClass(TensorClass))))
          .bind("copy"),
      this);
}

void TensorCreatedOffDeviceCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Copy = Result.Nodes.getNodeAs<CXXMemberCallExpr>("copy");
  ASTContext &Context = *Result.Context;
  const auto *Member = dyn_cast<MemberExpr>(Copy->getCallee());
  if (!Member)
    return;
  // A copy written in a macro may serve other call sites: silent.
  if (Member->getMemberLoc().isMacroID())
    return;

  // Where the copy goes: only to a GPU (a copy to the CPU is no transfer).
  if (Copy->getMethodDecl()->getName() != "cuda") {
    if (Copy->getNumArgs() == 0)
      return;
    QualType Target = Copy->getMethodDecl()->getParamDecl(0)->getType();
    if (!analysis::isRecordNamed(Target, names::TensorOptions) &&
        !analysis::isRecordNamed(Target, names::Device))
      return; // to(dtype), to(other_tensor)
    analysis::DeviceKind Kind =
        analysis::classifyDevice(Copy->getArg(0), Context);
    if (Kind != analysis::DeviceKind::Cuda &&
        Kind != analysis::DeviceKind::MaybeCuda)
      return;
  }

  // What is copied, cheapest test first; each is a tensor made on the host
  // in the step. Only what runs on every training step or evaluation batch
  // counts: made once (a constructor, setup, once per epoch), the copy
  // costs nothing worth a finding; in a dataset or transform the tensors
  // are the CPU's by design.
  const Expr *Source = Copy->getImplicitObjectArgument();
  const auto *Factory = dyn_cast_or_null<CallExpr>(written(Source));
  const bool Direct = Factory && analysis::isTensorFactoryCall(Factory);
  if (Direct && (Factory->getBeginLoc().isMacroID() ||
                 !analysis::isHostTensorFactoryCall(Factory, Context)))
    return;
  const CallExpr *Returned = nullptr;
  if (!Direct && Factory && !isa<CXXMemberCallExpr>(Factory))
    Returned =
        analysis::hostFactoryReturnedBy(Factory->getDirectCallee(), Context);
  std::optional<analysis::HostWidening> Widening;
  // A copy that converts as well (`to(device, dtype)`) is left alone: what
  // to suggest depends on which conversion the author meant.
  const CXXMethodDecl *CopyMethod = Copy->getMethodDecl();
  const bool CopyOnly =
      CopyMethod->getName() == "cuda" ||
      analysis::isRecordNamed(CopyMethod->getParamDecl(0)->getType(),
                              names::TensorOptions);
  if (!Direct && !Returned && CopyOnly)
    Widening = analysis::hostWideningBefore(Source, Context);
  if (!Direct && !Returned && !Widening &&
      !analysis::isProvablyHostTensor(Source, Context))
    return;

  std::optional<analysis::StepPath> Path = Callers.get(Context).perBatch(Copy);
  if (!Path)
    return;
  const bool PerStep = trainingFacts(Context).Loops.isPerStep(*Path);
  if (Direct)
    return reportFactory(*Factory, *Copy, *Path, PerStep, Context);
  if (Returned)
    return reportReturnedFactory(*Returned, *Factory, *Copy, *Path, PerStep,
                                 Context);
  if (Widening)
    return reportWidening(*Widening, *Copy, *Path, PerStep, Context);
  if (std::optional<analysis::ConstantHostTable> Table =
          analysis::constantHostTableCopied(
              Source, Path->Calls.empty() ? Path->StepLoop : nullptr, Context,
              parents(Context)))
    reportConstantTable(*Table, *Copy, *Path, PerStep, Context);
}

void TensorCreatedOffDeviceCheck::reportFactory(const CallExpr &FactoryCall,
                                                const CXXMemberCallExpr &Copy,
                                                const analysis::StepPath &Path,
                                                bool PerStep,
                                                ASTContext &Context) {
  const CallExpr *Factory = &FactoryCall;
  const FunctionDecl *Callee = Factory->getDirectCallee();
  const auto *Member = cast<MemberExpr>(Copy.getCallee());
  // A generator given explicitly is the stream the author wants; a CPU one
  // cannot draw on the GPU, so the device cannot move into this factory.
  if (!Callee || takesGenerator(*Factory, *Callee))
    return;
  const bool IsCuda = Copy.getMethodDecl()->getName() == "cuda";
  const Expr *Destination = IsCuda ? nullptr : Copy.getArg(0);
  const SourceManager &SM = Context.getSourceManager();
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
  bool Safe = analysis::isRewritable(Copy.getSourceRange());
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
        Copy.getMethodDecl()->getParamDecl(0)->getType(), names::TensorOptions);
    for (unsigned I = NonBlockingOnly ? 2 : 1; I < Copy.getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Copy.getArg(I)))
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
                  Member->getOperatorLoc(), Copy.getRParenLoc()));
  }
  notePathToStep(Path, PerStep);
  if (!Safe || !AddDevice)
    diag(Factory->getBeginLoc(),
         "pass the device in the factory's TensorOptions, e.g. "
         "'%0(..., torch::TensorOptions().device(%1))', and drop the copy",
         DiagnosticIDs::Note)
        << FactoryName << (DeviceText.empty() ? "device" : DeviceText);
}

void TensorCreatedOffDeviceCheck::reportReturnedFactory(
    const CallExpr &Factory, const CallExpr &Helper,
    const CXXMemberCallExpr &Copy, const analysis::StepPath &Path, bool PerStep,
    ASTContext &Context) {
  // Reported once per factory, however many sites copy the helper's result.
  if (!ReportedFactories.get(Context).insert(&Factory).second)
    return;
  const SourceManager &SM = Context.getSourceManager();
  const FunctionDecl *Callee = Helper.getDirectCallee();
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  std::string HelperName =
      Method && Method->getParent()->isLambda()
          ? analysis::spelledText(Helper.getArg(0), SM, getLangOpts())
          : Callee->getNameAsString();
  std::string FactoryName =
      analysis::spelledText(Factory.getCallee(), SM, getLangOpts());
  // No fix-it: the device has to reach the helper, whose other callers may
  // want its tensor on the host.
  diag(Factory.getBeginLoc(),
       "'%0' makes the tensor in host memory and the caller of '%1' copies it "
       "to the GPU on every %select{evaluation batch|training step}2; pass "
       "the device to '%1' and on to '%0' to create it there")
      << FactoryName << HelperName << PerStep;
  diag(cast<MemberExpr>(Copy.getCallee())->getMemberLoc(),
       "'%0' copies the result of '%1' to the GPU here", DiagnosticIDs::Note)
      << (Copy.getMethodDecl()->getName() == "cuda" ? "cuda()" : "to()")
      << HelperName;
  notePathToStep(Path, PerStep);
}

void TensorCreatedOffDeviceCheck::reportWidening(
    const analysis::HostWidening &Widening, const CXXMemberCallExpr &Copy,
    const analysis::StepPath &Path, bool PerStep, ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LangOpts = getLangOpts();
  const CXXMemberCallExpr &Conversion = *Widening.Conversion;
  const auto *CopyMember = cast<MemberExpr>(Copy.getCallee());
  const auto *ConversionMember = dyn_cast<MemberExpr>(Conversion.getCallee());
  if (!ConversionMember || ConversionMember->getMemberLoc().isMacroID())
    return;
  std::string CopyText = textBetween(CopyMember->getMemberLoc(),
                                     Copy.getRParenLoc(), SM, LangOpts);
  std::string ConversionText =
      textBetween(ConversionMember->getMemberLoc(), Conversion.getRParenLoc(),
                  SM, LangOpts);
  const Expr *Object = Conversion.getImplicitObjectArgument();

  // The fix swaps the two calls: `x.to(kFloat).to(device)` becomes
  // `x.to(device).to(kFloat)`, the same values on the same device. Only
  // when nothing stands between them (not even a comment), the conversion
  // does nothing but convert, the copy names a device and no dtype (it
  // would convert again), and the narrow tensor is not itself made by a
  // call that the swap would leave copied (a factory: another finding).
  bool Safe =
      Widening.Adjacent && !CopyText.empty() && !ConversionText.empty() &&
      analysis::isRewritable(
          SourceRange(ConversionMember->getMemberLoc(), Copy.getRParenLoc()));
  for (unsigned I = 1; I < Conversion.getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(Conversion.getArg(I)))
      Safe = false;
  if (Copy.getMethodDecl()->getName() == "to") {
    QualType Destination = written(Copy.getArg(0))->getType();
    if (!analysis::isRecordNamed(Destination, names::Device) &&
        !isDeviceTypeEnum(Destination))
      Safe = false;
  }
  const Expr *Narrow = written(Object);
  if (isa<CallExpr>(Narrow) &&
      !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Narrow))
    Safe = false;
  if (Safe) {
    // Only blanks between the conversion and the copy's `.`.
    SourceLocation AfterConversion =
        Lexer::getLocForEndOfToken(Conversion.getRParenLoc(), 0, SM, LangOpts);
    StringRef Between =
        Lexer::getSourceText(CharSourceRange::getCharRange(
                                 AfterConversion, CopyMember->getOperatorLoc()),
                             SM, LangOpts);
    if (!Between.trim().empty())
      Safe = false;
  }

  {
    auto Diag =
        diag(CopyMember->getMemberLoc(),
             "'%0' converts the %1 tensor to %2 in host memory and '%3' "
             "copies %4x the bytes to the GPU on every %select{evaluation "
             "batch|training step}5; copy the %1 tensor and convert it on "
             "the device")
        << ConversionText << dtypeName(Widening.From) << dtypeName(Widening.To)
        << CopyText << Widening.Ratio << PerStep;
    if (Safe)
      Diag << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(ConversionMember->getMemberLoc(),
                                         Copy.getRParenLoc()),
          CopyText + "." + ConversionText);
  }
  notePathToStep(Path, PerStep);
  if (!Safe)
    diag(ConversionMember->getMemberLoc(),
         "copy first, then convert on the device: '%0.%1.%2'%select{|, and "
         "the arithmetic after it}3",
         DiagnosticIDs::Note)
        << analysis::spelledText(Object, SM, LangOpts) << CopyText
        << ConversionText << !Widening.Adjacent;
}

void TensorCreatedOffDeviceCheck::reportConstantTable(
    const analysis::ConstantHostTable &Table, const CXXMemberCallExpr &Copy,
    const analysis::StepPath &Path, bool PerStep, ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LangOpts = getLangOpts();
  if (Table.Maker->getBeginLoc().isMacroID())
    return;
  std::string MakerName =
      analysis::spelledText(Table.Maker->getCallee(), SM, LangOpts);
  std::string CopyText =
      textBetween(cast<MemberExpr>(Copy.getCallee())->getMemberLoc(),
                  Copy.getRParenLoc(), SM, LangOpts);
  diag(cast<MemberExpr>(Copy.getCallee())->getMemberLoc(),
       "'%0' rebuilds a tensor from the constant host data '%1' and '%2' "
       "copies it to the GPU on every %select{evaluation batch|training "
       "step}3; make it on the device once, before the loop")
      << MakerName << Table.Table->getName() << CopyText << PerStep;
  notePathToStep(Path, PerStep);
  // No fix-it: the device, or what else the expression names, may be
  // declared in the loop; where to put the tensor is the author's choice.
  std::string Suggested = analysis::spelledText(&Copy, SM, LangOpts);
  if (Path.Calls.empty() && Path.StepLoop)
    diag(Path.StepLoop->getBeginLoc(),
         "hoist it before this loop, e.g. 'const auto %0_on_device = %1;', "
         "and use that tensor in the loop",
         DiagnosticIDs::Note)
        << Table.Table->getName() << Suggested;
  else
    diag(Table.Maker->getBeginLoc(),
         "make it once, e.g. 'static const auto %0_on_device = %1;' or a "
         "member set up before training, and use that tensor here",
         DiagnosticIDs::Note)
        << Table.Table->getName() << Suggested;
}

} // namespace clang::tidy::libtorch
