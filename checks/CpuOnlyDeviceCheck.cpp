//===--- CpuOnlyDeviceCheck.cpp - libtorch-tidy ---------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CpuOnlyDeviceCheck.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceVariables.h"
#include "analysis/program/CpuOnlyProgram.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchMatchers.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/FixIts.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

constexpr char ChooseDevice[] =
    "torch::cuda::is_available() ? torch::kCUDA : torch::kCPU";

} // namespace

void CpuOnlyDeviceCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      varDecl(unless(isExpansionInSystemHeader()), unless(parmVarDecl()),
              hasInitializer(expr()),
              hasType(hasUnqualifiedDesugaredType(recordType(
                  hasDeclaration(cxxRecordDecl(hasName(names::Device)))))))
          .bind("device"),
      this);
  Finder->addMatcher(cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                                       analysis::matchers::moduleTo())
                         .bind("moduleTo"),
                     this);
}

bool CpuOnlyDeviceCheck::isCpuOnlyTrainingProgram(ASTContext &Context) {
  std::optional<bool> &Known = TrainingProgram.get(Context);
  if (Known)
    return *Known;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  // Only a program that cannot use a GPU as written, and that trains.
  Known = TU.Devices.isGpuFreeProgram() &&
          analysis::unitHoldsTrainingLoop(Context, TU.Loops);
  return *Known;
}

void CpuOnlyDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  if (const auto *Call =
          Result.Nodes.getNodeAs<CXXMemberCallExpr>("moduleTo")) {
    // `model->to(torch::kCPU)` written out; a device variable is reported
    // at its declaration instead.
    if (Call->getNumArgs() == 0 ||
        !analysis::isRecordNamed(
            Call->getMethodDecl()->getParamDecl(0)->getType(), names::Device))
      return;
    const Expr *Target = analysis::asWritten(Call->getArg(0));
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Target))
      if (const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl());
          Variable && Variable->isLocalVarDeclOrParm())
        return;
    if (analysis::classifyDevice(Target, Context) !=
            analysis::DeviceKind::Cpu ||
        !isCpuOnlyTrainingProgram(Context))
      return;
    diag(Call->getArg(0)->getBeginLoc(),
         "the model is placed on the CPU and the program never asks whether "
         "CUDA is available: training can never use a GPU; choose the device "
         "with 'torch::cuda::is_available()'");
    diag(Call->getArg(0)->getBeginLoc(),
         "e.g. 'torch::Device device(%0);', then move the model and every "
         "batch with '.to(device)'",
         DiagnosticIDs::Note)
        << ChooseDevice;
    return;
  }

  const auto *Device = Result.Nodes.getNodeAs<VarDecl>("device");
  if (!Device || !analysis::isRecordNamed(Device->getType(), names::Device) ||
      analysis::classifyDeviceDecl(Device, Context) !=
          analysis::DeviceKind::Cpu)
    return;
  // A device chosen from a flag or an environment variable is a choice.
  if (analysis::readsCommandLineOrEnvironment(Device->getInit(), Context))
    return;
  if (!isCpuOnlyTrainingProgram(Context))
    return;
  analysis::DeviceUses Uses =
      analysis::usesOfDevice(Device, Context, parents(Context));
  if (!Uses.PlacesModule && !Uses.PlacesTensors)
    return; // not the program's device (unused, or only printed)

  const Expr *Token = analysis::cpuToken(Device->getInit());
  // A GPU device fixes the program only when the model and its data both
  // follow this variable and nothing reads tensor memory as host memory.
  bool Fixable = Token && Uses.PlacesModule && Uses.PlacesTensors &&
                 utils::isRewritable(Token->getSourceRange()) &&
                 !analysis::readsTensorMemoryDirectly(Context);
  {
    auto Diag =
        diag(Device->getLocation(),
             "device '%0' is hard-coded to the CPU and the program never asks "
             "whether CUDA is available: training can never use a GPU; "
             "choose it with 'torch::cuda::is_available()'")
        << Device->getName();
    if (Fixable)
      Diag << FixItHint::CreateReplacement(Token->getSourceRange(),
                                           ChooseDevice);
  }
  if (!Fixable)
    diag(Device->getLocation(),
         "e.g. 'torch::Device %0(%1);', and move the model and every batch "
         "with '.to(%0)'",
         DiagnosticIDs::Note)
        << Device->getName() << ChooseDevice;
}

} // namespace clang::tidy::libtorch
