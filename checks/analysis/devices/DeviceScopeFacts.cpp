//===--- DeviceScopeFacts.cpp - Devices a function or program names -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/DeviceScopeFacts.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/UserCode.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// `torch::cuda::is_available()` and the like: asks whether a GPU is there.
bool isCudaQuery(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return false;
  return hasAnyQualifiedName(Callee, names::CudaQueries);
}

} // namespace

DeviceScopeFacts::Mentions DeviceScopeFacts::mentionsIn(const Stmt *Body) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext &Context;
    Mentions Found;
    explicit Visitor(ASTContext &Context) : Context(Context) {}
    bool shouldVisitLambdaBodies() const { return true; }
    void note(DeviceKind Kind) {
      if (Kind == DeviceKind::Cpu)
        Found.Cpu = true;
      else if (Kind != DeviceKind::NoDevice)
        Found.CudaCapable = true;
    }
    // Any CUDA device counts; a CPU device counts only where the program
    // chooses its device (a Device variable or construction), not where a
    // tensor is copied back with to(kCPU).
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (isa<EnumConstantDecl>(Ref->getDecl()) &&
          isDeviceTypeEnum(Ref->getType())) {
        if (classifyDevice(Ref, Context) != DeviceKind::Cpu)
          Found.CudaCapable = true;
      } else if (const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl())) {
        // Device constants (kCUDA) and variables we cannot see into.
        if (isDeviceLikeType(Variable->getType()) &&
            (!Variable->hasLocalStorage() || isa<ParmVarDecl>(Variable)) &&
            classifyDevice(Ref, Context) != DeviceKind::Cpu)
          Found.CudaCapable = true;
      }
      return true;
    }
    bool VisitVarDecl(VarDecl *Variable) {
      if (isDeviceLikeType(Variable->getType()) && Variable->getInit() &&
          !isa<ParmVarDecl>(Variable))
        note(classifyDevice(Variable->getInit(), Context));
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
      if (isRecordNamed(Construct->getType(), names::Device))
        note(classifyDevice(Construct, Context));
      return true;
    }
    bool VisitStringLiteral(StringLiteral *String) {
      StringRef Text = String->getString();
      if (Text.starts_with("cuda"))
        Found.CudaCapable = true;
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (isCudaQuery(Call))
        Found.CudaCapable = true;
      else if (const CXXMethodDecl *Method = tensorMethodCalled(Call))
        if (Method->getName() == names::CudaMethod)
          Found.CudaCapable = true;
      // A device that comes out of a call (`tensor.device()`) is unknown.
      if (isRecordNamed(Call->getType(), names::Device))
        Found.CudaCapable = true;
      return true;
    }
    bool VisitMemberExpr(MemberExpr *Member) {
      if (isDeviceLikeType(Member->getType()) &&
          !isa<CXXMethodDecl>(Member->getMemberDecl()))
        Found.CudaCapable = true;
      return true;
    }
  } V(Context);
  V.TraverseStmt(const_cast<Stmt *>(Body));
  return V.Found;
}

bool DeviceScopeFacts::isCpuOnlyFunction(const FunctionDecl *Function) {
  if (!Function || !Function->getBody())
    return false;
  auto Known = CpuOnly.find(Function);
  if (Known != CpuOnly.end())
    return Known->second;
  Mentions Found = mentionsIn(Function->getBody());
  // A device handed in by the caller may be anything.
  for (const ParmVarDecl *Parameter : Function->parameters())
    if (isDeviceLikeType(Parameter->getType()))
      Found.CudaCapable = true;
  bool Result = Found.Cpu && !Found.CudaCapable;
  CpuOnly[Function] = Result;
  return Result;
}

bool DeviceScopeFacts::isGpuFreeProgram() {
  if (GpuFree)
    return *GpuFree;
  bool HasMain = false;
  Mentions Found;
  struct BodyCollector : RecursiveASTVisitor<BodyCollector> {
    std::vector<const Stmt *> Bodies;
    bool &HasMain;
    explicit BodyCollector(bool &HasMain) : HasMain(HasMain) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(FunctionDecl *Function) {
      if (Function->isMain())
        HasMain = true;
      if (Function->doesThisDeclarationHaveABody())
        Bodies.push_back(Function->getBody());
      return true;
    }
  } Collector(HasMain);
  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    Collector.TraverseDecl(TopLevel);
  for (const Stmt *Body : Collector.Bodies) {
    Mentions InBody = mentionsIn(Body);
    Found.CudaCapable |= InBody.CudaCapable;
  }
  GpuFree = HasMain && !Found.CudaCapable;
  return *GpuFree;
}

} // namespace clang::tidy::libtorch::analysis
