//===--- CudaTrainingFacts.cpp - Training loops that run on a GPU ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/program/CudaTrainingFacts.h"
#include "analysis/vocabulary/ConvolutionModules.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "utils/UserCode.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// LibTorch's own spelling of a half or bfloat16 dtype: the `c10::ScalarType`
/// enumerators and the `kHalf` / `kBFloat16` / `kFloat16` constants (c10,
/// and `torch::kFloat16`).
bool isReducedPrecisionDtype(const ValueDecl *Decl) {
  if (const auto *Enumerator = dyn_cast<EnumConstantDecl>(Decl)) {
    const auto *Enum = dyn_cast<EnumDecl>(Enumerator->getDeclContext());
    return Enum && hasQualifiedName(Enum, names::ScalarType) &&
           (Enumerator->getName() == "Half" ||
            Enumerator->getName() == "BFloat16");
  }
  const auto *Variable = dyn_cast<VarDecl>(Decl);
  if (!Variable || !Variable->getIdentifier() || !Variable->isFileVarDecl())
    return false;
  return hasAnyQualifiedName(Variable, names::ReducedPrecisionDtypes);
}

bool namesCudaDevice(const FunctionDecl *Callee) {
  return hasAnyQualifiedName(Callee, names::CudaQueries) ||
         hasQualifiedName(Callee, names::DataParallel);
}

} // namespace

const CudaTrainingFacts::Scan &CudaTrainingFacts::scan() {
  if (Scanned)
    return *Scanned;
  Scanned = std::make_unique<Scan>();
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext &Context;
    Scan &Found;
    Visitor(ASTContext &Context, Scan &Found)
        : Context(Context), Found(Found) {}
    bool shouldVisitLambdaBodies() const { return true; }

    bool VisitFunctionDecl(FunctionDecl *Function) {
      if (!Function->doesThisDeclarationHaveABody())
        return true;
      Found.Functions.push_back(Function);
      if (Function->isMain())
        Found.Main = Function;
      return true;
    }
    bool VisitStmt(Stmt *S) {
      if (utils::isLoop(S))
        Found.Loops.push_back(S);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const ValueDecl *Decl = Ref->getDecl();
      if (isReducedPrecisionDtype(Decl))
        Found.ReducedPrecision = true;
      // kCUDA and DeviceType::CUDA; a local device variable is judged where
      // it is initialized, a parameter not at all (see the header).
      if (isDeviceLikeType(Ref->getType()) && !isa<ParmVarDecl>(Decl) &&
          !(isa<VarDecl>(Decl) && cast<VarDecl>(Decl)->hasLocalStorage()) &&
          classifyDevice(Ref, Context) == DeviceKind::Cuda)
        Found.NamesCudaDevice = true;
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
      QualType Type = Construct->getType();
      if (isRecordNamed(Type, names::Device) && Construct->getNumArgs() > 0 &&
          !Construct->getConstructor()->isCopyOrMoveConstructor() &&
          classifyDevice(Construct, Context) != DeviceKind::Cpu)
        Found.NamesCudaDevice = true;
      if (isConvolutionModuleType(Type) || isConvolutionOptionsType(Type))
        Found.Convolution = true;
      return true;
    }
    bool VisitStringLiteral(StringLiteral *String) {
      // Device strings reach Device's constructor through std::string.
      if (String->getCharByteWidth() == 1 &&
          String->getString().starts_with("cuda"))
        Found.NamesCudaDevice = true;
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->getIdentifier())
        return true;
      if (isInNamespace(Callee, names::AutocastNamespace))
        Found.Autocast = true;
      if (namesCudaDevice(Callee))
        Found.NamesCudaDevice = true;
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee)) {
        if (hasQualifiedName(Method->getParent(), names::Context))
          Found.ContextMethods.insert(Method->getName());
        if (Method->getName() == names::CudaMethod &&
            (isSameOrDerivedFrom(Method->getParent(), names::TensorBase) ||
             isSameOrDerivedFrom(Method->getParent(), names::Module)))
          Found.NamesCudaDevice = true;
      }
      return true;
    }
  } V(Context, *Scanned);

  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    V.TraverseDecl(TopLevel);
  return *Scanned;
}

bool CudaTrainingFacts::hasDeviceParameter(const FunctionDecl *Function) const {
  for (const ParmVarDecl *Parameter : Function->parameters())
    if (isDeviceLikeType(Parameter->getType()))
      return true;
  return false;
}

llvm::ArrayRef<const Stmt *> CudaTrainingFacts::cudaTrainingLoops() {
  if (CudaLoops)
    return *CudaLoops;
  CudaLoops.emplace();
  const Scan &Found = scan();
  for (const Stmt *Loop : Found.Loops) {
    if (!Training.Loops.isStepLoop(Loop))
      continue;
    const FunctionDecl *Function =
        utils::enclosingFunction(Loop, Training.Parents);
    if (!Function || Training.Devices.isCpuOnlyFunction(Function))
      continue;
    if (Found.NamesCudaDevice || (!Found.Main && hasDeviceParameter(Function)))
      CudaLoops->push_back(Loop);
  }
  return *CudaLoops;
}

bool CudaTrainingFacts::isCudaTrainingLoop(const Stmt *Loop) {
  return llvm::is_contained(cudaTrainingLoops(), Loop);
}

bool CudaTrainingFacts::isOutermostCudaTrainingLoop(const Stmt *Loop) {
  if (!isCudaTrainingLoop(Loop))
    return false;
  const SourceManager &SM = Context.getSourceManager();
  const SourceLocation Begin = SM.getExpansionLoc(Loop->getBeginLoc());
  return llvm::none_of(cudaTrainingLoops(), [&](const Stmt *Other) {
    if (Other == Loop)
      return false;
    const SourceLocation OtherBegin = SM.getExpansionLoc(Other->getBeginLoc());
    const SourceLocation OtherEnd = SM.getExpansionLoc(Other->getEndLoc());
    return OtherBegin != Begin && SM.isPointWithin(Begin, OtherBegin, OtherEnd);
  });
}

bool CudaTrainingFacts::usesAutocast() { return scan().Autocast; }

bool CudaTrainingFacts::namesReducedPrecisionDtype() {
  return scan().ReducedPrecision;
}

bool CudaTrainingFacts::callsContextMethod(llvm::StringRef Name) {
  return scan().ContextMethods.contains(Name);
}

bool CudaTrainingFacts::buildsConvolutionModules() {
  return scan().Convolution;
}

const FunctionDecl *CudaTrainingFacts::mainDefinition() { return scan().Main; }

} // namespace clang::tidy::libtorch::analysis
