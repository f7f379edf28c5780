//===--- CpuOnlyProgram.cpp - A program held to the CPU -------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/program/CpuOnlyProgram.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// Records what one device variable places.
class DeviceUseFinder : public RecursiveASTVisitor<DeviceUseFinder> {
public:
  DeviceUseFinder(const VarDecl *Device, const utils::UserCodeParents &Parents)
      : Device(Device), Parents(Parents) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() != Device)
      return true;
    // The device reaches the call through conversions and copies (a
    // torch::Device converts to a TensorOptions); the end of a full
    // expression is not on that way.
    const auto *Parent =
        utils::parentIgnoring(Ref, Parents,
                              (utils::ImplicitWrappers & ~utils::Cleanups) |
                                  utils::Construct)
            .Parent.get<Expr>();
    if (!Parent)
      return true;
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Parent)) {
      if (isModuleToCall(Call))
        Uses.PlacesModule = true;
      else if (tensorMethodCalled(Call))
        Uses.PlacesTensors = true;
    } else if (isa<CallExpr>(Parent) && isTensorType(Parent->getType())) {
      Uses.PlacesTensors = true; // a factory
    }
    return true;
  }
  DeviceUses Uses;

private:
  const VarDecl *Device;
  const utils::UserCodeParents &Parents;
};

/// Stops at the first training loop.
class TrainingLoopFinder : public RecursiveASTVisitor<TrainingLoopFinder> {
public:
  explicit TrainingLoopFinder(TrainingLoopModel &Loops) : Loops(Loops) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitStmt(Stmt *S) {
    if (utils::isLoop(S) && Loops.isTrainingLoop(S))
      Found = true;
    return !Found;
  }
  bool Found = false;

private:
  TrainingLoopModel &Loops;
};

/// Stops at the first read of tensor memory through a raw pointer.
class RawTensorReadFinder : public RecursiveASTVisitor<RawTensorReadFinder> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = tensorMethodCalled(Call);
    if (Method && Method->getIdentifier() &&
        (Method->getName() == "data_ptr" || Method->getName() == "accessor" ||
         Method->getName() == "mutable_data_ptr"))
      Found = true;
    return !Found;
  }
  bool Found = false;
};

} // namespace

DeviceUses usesOfDevice(const VarDecl *Device, ASTContext &Context,
                        const utils::UserCodeParents &Parents) {
  DeviceUseFinder Finder(Device, Parents);
  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    Finder.TraverseDecl(TopLevel);
  return Finder.Uses;
}

bool unitHoldsTrainingLoop(ASTContext &Context, TrainingLoopModel &Loops) {
  TrainingLoopFinder Finder(Loops);
  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    if (!Finder.Found)
      Finder.TraverseDecl(TopLevel);
  return Finder.Found;
}

bool readsTensorMemoryDirectly(ASTContext &Context) {
  RawTensorReadFinder Finder;
  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    if (!Finder.Found)
      Finder.TraverseDecl(TopLevel);
  return Finder.Found;
}

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

} // namespace clang::tidy::libtorch::analysis
