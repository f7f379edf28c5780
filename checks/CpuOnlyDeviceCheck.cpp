//===--- CpuOnlyDeviceCheck.cpp - libtorch-tidy ---------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CpuOnlyDeviceCheck.h"
#include "analysis/DeviceFacts.h"
#include "analysis/DeviceVariables.h"
#include "analysis/LibTorchCalls.h"
#include "analysis/LibTorchNames.h"
#include "analysis/SourceText.h"
#include "utils/AstWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

constexpr char ChooseDevice[] =
    "torch::cuda::is_available() ? torch::kCUDA : torch::kCPU";

/// `torch::kCPU` or `"cpu"` as written in a device's initializer
/// (`Device d(torch::kCPU)`, `Device d = torch::kCPU`,
/// `auto d = torch::Device("cpu")`): the token a fix replaces.
const Expr *cpuToken(const Expr *Init) {
  for (unsigned Depth = 0; Init && Depth < 6; ++Depth) {
    Init = Init->IgnoreImplicit()->IgnoreParens();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Init)) {
      Init = Cast->getSubExpr();
      continue;
    }
    // The enumerator, or a constant such as `torch::kCPU`.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Init)) {
      const auto *Constant = dyn_cast<VarDecl>(Ref->getDecl());
      bool IsCpu = isa<EnumConstantDecl>(Ref->getDecl())
                       ? Ref->getDecl()->getName() == "CPU"
                       : Constant && !Constant->isLocalVarDeclOrParm() &&
                             Constant->getType().isConstQualified() &&
                             Constant->getName() == "kCPU";
      return IsCpu ? Ref : nullptr;
    }
    if (const auto *String = dyn_cast<StringLiteral>(Init))
      return String->getString() == "cpu" ? String : nullptr;
    const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
    if (!Construct || Construct->getNumArgs() == 0)
      return nullptr;
    // Device(type, index): an explicit index is kept as written.
    for (unsigned I = 1; I < Construct->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Construct->getArg(I)))
        return nullptr;
    Init = Construct->getArg(0);
  }
  return nullptr;
}

/// How the program uses a device variable.
struct DeviceUses {
  bool PlacesModule = false;  // module->to(device)
  bool PlacesTensors = false; // tensor.to(device), factory(..., device)
};

bool isModuleTo(const CXXMemberCallExpr *Call) {
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  return Method && Method->getIdentifier() && Method->getName() == "to" &&
         analysis::isSameOrDerivedFrom(Method->getParent(), names::Module);
}

DeviceUses usesOf(const VarDecl *Device, ASTContext &Context,
                  const analysis::UserCodeParents &UserParents) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const VarDecl *Device;
    const analysis::UserCodeParents &UserParents;
    DeviceUses Uses;
    Visitor(const VarDecl *Device, const analysis::UserCodeParents &UserParents)
        : Device(Device), UserParents(UserParents) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() != Device)
        return true;
      // The device reaches the call through conversions and copies (a
      // torch::Device converts to a TensorOptions); the end of a full
      // expression is not on that way.
      const auto *Parent =
          utils::parentIgnoring(Ref, UserParents,
                                (utils::ImplicitWrappers & ~utils::Cleanups) |
                                    utils::Construct)
              .Parent.get<Expr>();
      if (!Parent)
        return true;
      if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Parent)) {
        if (isModuleTo(Call))
          Uses.PlacesModule = true;
        else if (analysis::tensorMethodCalled(Call))
          Uses.PlacesTensors = true;
      } else if (isa<CallExpr>(Parent) &&
                 analysis::isTensorType(Parent->getType())) {
        Uses.PlacesTensors = true; // a factory
      }
      return true;
    }
  } V(Device, UserParents);
  for (Decl *TopLevel : analysis::userTopLevelDecls(Context))
    V.TraverseDecl(TopLevel);
  return V.Uses;
}

} // namespace

void CpuOnlyDeviceCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      varDecl(unless(isExpansionInSystemHeader()), unless(parmVarDecl()),
              hasInitializer(expr()),
              hasType(hasUnqualifiedDesugaredType(recordType(
                  hasDeclaration(cxxRecordDecl(hasName(names::Device)))))))
          .bind("device"),
      this);
  Finder->addMatcher(
      cxxMemberCallExpr(
          unless(isExpansionInSystemHeader()),
          callee(cxxMethodDecl(hasName("to"),
                               ofClass(cxxRecordDecl(isSameOrDerivedFrom(
                                   cxxRecordDecl(hasName(names::Module))))))))
          .bind("moduleTo"),
      this);
}

bool CpuOnlyDeviceCheck::isCpuOnlyTrainingProgram(ASTContext &Context) {
  std::optional<bool> &Known = TrainingProgram.get(Context);
  if (Known)
    return *Known;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  bool Result = false;
  if (TU.Devices.isGpuFreeProgram()) {
    struct LoopFinder : RecursiveASTVisitor<LoopFinder> {
      analysis::TrainingLoopModel &Loops;
      bool Found = false;
      explicit LoopFinder(analysis::TrainingLoopModel &Loops) : Loops(Loops) {}
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool VisitStmt(Stmt *S) {
        if (analysis::TrainingLoopModel::isLoop(S) && Loops.isTrainingLoop(S))
          Found = true;
        return !Found;
      }
    } Finder(TU.Loops);
    for (Decl *TopLevel : analysis::userTopLevelDecls(Context))
      if (!Finder.Found)
        Finder.TraverseDecl(TopLevel);
    Result = Finder.Found;
  }
  Known = Result;
  return Result;
}

/// Code that reads tensor memory through raw pointers assumes the host:
/// on a GPU it would need a copy first.
static bool readsTensorMemoryDirectly(ASTContext &Context) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      const CXXMethodDecl *Method = analysis::tensorMethodCalled(Call);
      if (Method && Method->getIdentifier() &&
          (Method->getName() == "data_ptr" || Method->getName() == "accessor" ||
           Method->getName() == "mutable_data_ptr"))
        Found = true;
      return !Found;
    }
  } Visitor;
  for (Decl *TopLevel : analysis::userTopLevelDecls(Context))
    if (!Visitor.Found)
      Visitor.TraverseDecl(TopLevel);
  return Visitor.Found;
}

void CpuOnlyDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  if (const auto *Call =
          Result.Nodes.getNodeAs<CXXMemberCallExpr>("moduleTo")) {
    // `model->to(torch::kCPU)` written out; a device variable is reported
    // at its declaration instead.
    if (!isModuleTo(Call) || Call->getNumArgs() == 0 ||
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
  DeviceUses Uses = usesOf(Device, Context, parents(Context));
  if (!Uses.PlacesModule && !Uses.PlacesTensors)
    return; // not the program's device (unused, or only printed)

  const Expr *Token = cpuToken(Device->getInit());
  // A GPU device fixes the program only when the model and its data both
  // follow this variable and nothing reads tensor memory as host memory.
  bool Fixable = Token && Uses.PlacesModule && Uses.PlacesTensors &&
                 analysis::isRewritable(Token->getSourceRange()) &&
                 !readsTensorMemoryDirectly(Context);
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
