//===--- TensorCreatedOffDeviceCheck.cpp - libtorch-tidy ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TensorCreatedOffDeviceCheck.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceIntoFactory.h"
#include "analysis/devices/HostTensorSources.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchMatchers.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

void TensorCreatedOffDeviceCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  Finder->addMatcher(cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                                       analysis::matchers::tensorToOrCuda())
                         .bind("copy"),
                     this);
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()),
                              analysis::matchers::tensorFactoryCall())
                         .bind("factory"),
                     this);
  // Calls of functions defined elsewhere, for the summaries' host copies.
  if (hasSummaries())
    Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()),
                                callee(functionDecl(unless(isDefinition()))))
                           .bind("call"),
                       this);
}

void TensorCreatedOffDeviceCheck::check(
    const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  if (const auto *Factory = Result.Nodes.getNodeAs<CallExpr>("factory"))
    return handle(*Factory, Context);
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call"))
    return handleCallElsewhere(*Call, Context);
  const auto *Copy = Result.Nodes.getNodeAs<CXXMemberCallExpr>("copy");
  const auto *Member = dyn_cast<MemberExpr>(Copy->getCallee());
  // A copy written in a macro may serve other call sites: silent.
  if (!Member || Member->getMemberLoc().isMacroID())
    return;
  // Only a copy to a GPU: a copy to the CPU is no transfer.
  if (analysis::copiesToGpu(*Copy, Context))
    handle(*Copy, Context);
}

void TensorCreatedOffDeviceCheck::handle(const CXXMemberCallExpr &Copy,
                                         ASTContext &Context) {
  std::optional<analysis::HostCopySource> Made =
      analysis::hostCopySource(Copy, Context);
  // Only per step or evaluation batch: made once (setup, once per epoch),
  // the copy costs nothing worth a finding; in a dataset or transform the
  // tensors are the CPU's by design.
  std::optional<analysis::StepPath> Path =
      Made ? Callers.get(Context).perBatch(&Copy) : std::nullopt;
  if (!Path)
    return;
  const bool PerStep = trainingFacts(Context).Loops.isPerStep(*Path);
  switch (Made->What) {
  case analysis::HostCopySource::Direct:
    return diagnoseFactory(*Made->Factory, Copy, *Path, PerStep, Context);
  case analysis::HostCopySource::Returned:
    return diagnoseReturnedFactory(*Made->Factory, *Made->Helper, Copy, *Path,
                                   PerStep, Context);
  case analysis::HostCopySource::Widening:
    return diagnoseWidening(*Made->Widened, Copy, *Path, PerStep, Context);
  case analysis::HostCopySource::HostTensor:
    if (std::optional<analysis::ConstantHostTable> Table =
            analysis::constantHostTableCopied(
                Copy.getImplicitObjectArgument(),
                Path->Calls.empty() ? Path->StepLoop : nullptr, Context,
                parents(Context)))
      diagnoseConstantTable(*Table, Copy, *Path, PerStep, Context);
    return;
  }
}

void TensorCreatedOffDeviceCheck::handle(const CallExpr &Factory,
                                         ASTContext &Context) {
  // A factory written in a macro may serve other call sites: silent; a
  // program that cannot use a GPU has no device tensor to meet.
  if (compat::beginOf(Factory).isMacroID() ||
      trainingFacts(Context).Devices.isGpuFreeProgram())
    return;
  std::optional<analysis::HostOperand> Operand =
      analysis::hostOperandOf(Factory, Context, parents(Context));
  if (!Operand)
    return;
  if (std::optional<analysis::StepPath> Path =
          Callers.get(Context).perBatch(&Factory))
    diagnoseHostOperand(*Operand, *Path,
                        trainingFacts(Context).Loops.isPerStep(*Path), Context);
}

void TensorCreatedOffDeviceCheck::handleCallElsewhere(const CallExpr &Call,
                                                      ASTContext &Context) {
  std::optional<analysis::HostCopyElsewhere> Made =
      summaryTable(Context).hostCopyOfCall(Call);
  std::optional<analysis::StepPath> Path =
      Made ? Callers.get(Context).perBatch(&Call) : std::nullopt;
  if (!Path)
    return;
  // No fix-it: the factory is in another file, perhaps called elsewhere too.
  const analysis::SummarizedHostCopy &Copy = Made->What;
  const std::string Makes = analysis::whatItMakes(Copy).str();
  diagnoseCallElsewhere(Call, Makes + " and copies it to the GPU",
                        analysis::remedyThere(Copy), *Path,
                        trainingFacts(Context).Loops.isPerStep(*Path),
                        Made->Calls, Copy.Place,
                        "'" + Copy.Factory + "' " + Makes + " and '" +
                            Copy.Copy + "' copies it to the GPU on each call",
                        Context);
}

void TensorCreatedOffDeviceCheck::diagnoseFactory(
    const CallExpr &Factory, const CXXMemberCallExpr &Copy,
    const analysis::StepPath &Path, bool PerStep, ASTContext &Context) {
  const FunctionDecl *Callee = Factory.getDirectCallee();
  const auto *Member = cast<MemberExpr>(Copy.getCallee());
  // A generator given explicitly is the stream the author wants; a CPU one
  // cannot draw on the GPU, so the device cannot move into this factory.
  if (!Callee || analysis::takesGenerator(Factory, *Callee))
    return;
  const bool IsCuda = Copy.getMethodDecl()->getName() == names::CudaMethod;
  std::string FactoryName = spelled(Factory.getCallee(), Context);
  std::string CopyText =
      IsCuda ? ".cuda()" : ".to(" + spelled(Copy.getArg(0), Context) + ")";
  // The fix: the device goes into the factory's TensorOptions, the copy
  // goes away.
  const analysis::FactoryDevice Device =
      analysis::deviceIntoFactory(Factory, Copy, Context, getLangOpts());
  {
    auto Diag = diag(Member->getMemberLoc(),
                     "'%0' makes the tensor in host memory and '%1' copies it "
                     "to the GPU on every %select{evaluation batch|training "
                     "step}2; pass the device to '%0' to create it there")
                << FactoryName << CopyText << PerStep;
    if (Device.AddDevice)
      Diag << *Device.AddDevice
           << FixItHint::CreateRemoval(CharSourceRange::getTokenRange(
                  Member->getOperatorLoc(), Copy.getRParenLoc()));
  }
  notePathToStep(Path, PerStep);
  if (!Device.AddDevice)
    notePassDevice(Factory, FactoryName,
                   Device.DeviceText.empty() ? "device" : Device.DeviceText,
                   /*DropCopy=*/true);
}

void TensorCreatedOffDeviceCheck::diagnoseReturnedFactory(
    const CallExpr &Factory, const CallExpr &Helper,
    const CXXMemberCallExpr &Copy, const analysis::StepPath &Path, bool PerStep,
    ASTContext &Context) {
  // Reported once per factory, however many sites copy the helper's result.
  if (!ReportedFactories.get(Context).insert(&Factory).second)
    return;
  const FunctionDecl *Callee = Helper.getDirectCallee();
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  std::string HelperName = Method && Method->getParent()->isLambda()
                               ? spelled(Helper.getArg(0), Context)
                               : Callee->getNameAsString();
  std::string FactoryName = spelled(Factory.getCallee(), Context);
  // No fix-it: the device has to reach the helper, whose other callers may
  // want its tensor on the host.
  diag(compat::beginOf(Factory),
       "'%0' makes the tensor in host memory and the caller of '%1' copies it "
       "to the GPU on every %select{evaluation batch|training step}2; pass "
       "the device to '%1' and on to '%0' to create it there")
      << FactoryName << HelperName << PerStep;
  diag(cast<MemberExpr>(Copy.getCallee())->getMemberLoc(),
       "'%0' copies the result of '%1' to the GPU here", DiagnosticIDs::Note)
      << (Copy.getMethodDecl()->getName() == names::CudaMethod ? "cuda()"
                                                               : "to()")
      << HelperName;
  notePathToStep(Path, PerStep);
}

void TensorCreatedOffDeviceCheck::diagnoseWidening(
    const analysis::HostWidening &Widening, const CXXMemberCallExpr &Copy,
    const analysis::StepPath &Path, bool PerStep, ASTContext &Context) {
  const CXXMemberCallExpr &Conversion = *Widening.Conversion;
  const auto *CopyMember = cast<MemberExpr>(Copy.getCallee());
  const auto *ConversionMember = dyn_cast<MemberExpr>(Conversion.getCallee());
  // A conversion written in a macro may serve other call sites: silent.
  if (!ConversionMember || ConversionMember->getMemberLoc().isMacroID())
    return;
  std::string CopyText = spelled(Copy, Context);
  std::string ConversionText = spelled(Conversion, Context);
  // The fix swaps the two calls: the copy moves the narrow tensor, the
  // device converts it.
  const bool Swappable = analysis::isWideningSwappable(
      Widening, Copy, Context.getSourceManager(), getLangOpts());
  {
    auto Diag =
        diag(CopyMember->getMemberLoc(),
             "'%0' converts the %1 tensor to %2 in host memory and '%3' "
             "copies %4x the bytes to the GPU on every %select{evaluation "
             "batch|training step}5; copy the %1 tensor and convert it on "
             "the device")
        << ConversionText << analysis::dtypeDisplayName(Widening.From)
        << analysis::dtypeDisplayName(Widening.To) << CopyText << Widening.Ratio
        << PerStep;
    if (Swappable)
      Diag << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(ConversionMember->getMemberLoc(),
                                         Copy.getRParenLoc()),
          CopyText + "." + ConversionText);
  }
  notePathToStep(Path, PerStep);
  if (!Swappable)
    diag(ConversionMember->getMemberLoc(),
         "copy first, then convert on the device: '%0.%1.%2'%select{|, and "
         "the arithmetic after it}3",
         DiagnosticIDs::Note)
        << spelled(Conversion.getImplicitObjectArgument(), Context) << CopyText
        << ConversionText << !Widening.Adjacent;
}

void TensorCreatedOffDeviceCheck::diagnoseHostOperand(
    const analysis::HostOperand &Operand, const analysis::StepPath &Path,
    bool PerStep, ASTContext &Context) {
  const CallExpr &Factory = *Operand.Factory;
  std::string FactoryName = spelled(Factory.getCallee(), Context);
  std::string DeviceTensor = spelled(Operand.DeviceTensor, Context);
  const analysis::FactoryDevice Device = analysis::deviceForFactory(
      Operand, Context, parents(Context), getLangOpts());
  {
    auto Diag = diag(compat::beginOf(Factory),
                     "'%0' makes the tensor in host memory on every "
                     "%select{evaluation batch|training step}1 and hands it, "
                     "uncopied, to an operation with '%2' on the device: on a "
                     "GPU it fails with tensors on two devices; pass the "
                     "device to '%0'")
                << FactoryName << PerStep << DeviceTensor;
    if (Device.AddDevice)
      Diag << *Device.AddDevice;
  }
  notePathToStep(Path, PerStep);
  diag(Operand.Operation->getExprLoc(), "the host tensor meets '%0' here",
       DiagnosticIDs::Note)
      << DeviceTensor;
  if (!Device.AddDevice)
    notePassDevice(Factory, FactoryName,
                   Device.DeviceText.empty() ? DeviceTensor + ".device()"
                                             : Device.DeviceText,
                   /*DropCopy=*/false);
}

void TensorCreatedOffDeviceCheck::notePassDevice(const CallExpr &Factory,
                                                 StringRef FactoryName,
                                                 StringRef Device,
                                                 bool DropCopy) {
  diag(compat::beginOf(Factory),
       "pass the device in the factory's TensorOptions, e.g. "
       "'%0(..., torch::TensorOptions().device(%1))'%select{|, and drop the "
       "copy}2",
       DiagnosticIDs::Note)
      << FactoryName << Device << DropCopy;
}

void TensorCreatedOffDeviceCheck::diagnoseConstantTable(
    const analysis::ConstantHostTable &Table, const CXXMemberCallExpr &Copy,
    const analysis::StepPath &Path, bool PerStep, ASTContext &Context) {
  if (compat::beginOf(*Table.Maker).isMacroID())
    return;
  std::string MakerName = spelled(Table.Maker->getCallee(), Context);
  std::string CopyText = spelled(Copy, Context);
  // Values written in the call go by their text.
  const std::string Data = Table.Table ? Table.Table->getName().str()
                                       : spelled(Table.Values, Context);
  const std::string Hoisted = Table.Table ? Data : "table";
  diag(cast<MemberExpr>(Copy.getCallee())->getMemberLoc(),
       "'%0' rebuilds a tensor from the constant host data '%1' and '%2' "
       "copies it to the GPU on every %select{evaluation batch|training "
       "step}3; make it on the device once, before the loop")
      << MakerName << Data << CopyText << PerStep;
  notePathToStep(Path, PerStep);
  // No fix-it: the device, or what else the expression names, may be
  // declared in the loop; where to put the tensor is the author's choice.
  const bool InLoop = Path.Calls.empty() && Path.StepLoop;
  diag(InLoop ? Path.StepLoop->getBeginLoc() : compat::beginOf(*Table.Maker),
       "%select{make it once, e.g. 'static const auto %1_on_device = %2;' or "
       "a member set up before training, and use that tensor here|hoist it "
       "before this loop, e.g. 'const auto %1_on_device = %2;', and use that "
       "tensor in the loop}0",
       DiagnosticIDs::Note)
      << InLoop << Hoisted << spelled(&Copy, Context);
}

} // namespace clang::tidy::libtorch
