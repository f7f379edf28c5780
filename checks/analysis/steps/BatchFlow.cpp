//===--- BatchFlow.cpp - Where a batch from a data loader goes ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/BatchFlow.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "utils/References.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// Tensor methods whose result lives where their object lives.
bool keepsPlacement(StringRef Method) {
  return llvm::is_contained(names::PlacementKeepingMethods, Method);
}

} // namespace

const CXXForRangeStmt *loaderLoopOf(const VarDecl *Batch,
                                    const utils::UserCodeParents &UserParents) {
  DynTypedNodeList Parents = UserParents.get(*Batch);
  if (Parents.size() != 1 || !Parents[0].get<DeclStmt>())
    return nullptr;
  DynTypedNodeList Loops = UserParents.get(*Parents[0].get<DeclStmt>());
  const auto *Loop =
      Loops.size() == 1 ? Loops[0].get<CXXForRangeStmt>() : nullptr;
  if (!Loop || Loop->getLoopVariable() != Batch || !Loop->getRangeInit())
    return nullptr;
  QualType Range = Loop->getRangeInit()->getType().getNonReferenceType();
  if (!isSameOrDerivedFrom(Range->getAsCXXRecordDecl(), names::DataLoaderBase))
    return nullptr;
  return Loop;
}

namespace {

/// `Tensor::to(ScalarType, ...)` and `to(TypeMeta, ...)` only convert the
/// element type: the result stays where the tensor is.
bool isDtypeConversion(const CXXMethodDecl *To) {
  if (To->getNumParams() == 0)
    return false;
  QualType First = To->getParamDecl(0)->getType().getNonReferenceType();
  if (const auto *Enum = First->getAs<EnumType>())
    return hasQualifiedName(Enum->getDecl(), names::ScalarType);
  return isRecordNamed(First, names::TypeMeta);
}

} // namespace

bool loaderMayPlaceOnDevice(const CXXRecordDecl *Record, ASTContext &Context,
                            unsigned Depth) {
  if (!Record || Depth > 6)
    return false;
  const SourceManager &SM = Context.getSourceManager();
  if (utils::isUserCode(Record, SM)) {
    const CXXRecordDecl *Definition = Record->getDefinition();
    if (!Definition)
      return true;
    for (const CXXMethodDecl *Method : Definition->methods()) {
      if (Method->isImplicit() || Method->isDefaulted() ||
          Method->isPureVirtual() || Method->isDeleted())
        continue;
      const FunctionDecl *Body = nullptr;
      if (!Method->hasBody(Body))
        return true;
      struct Finder : RecursiveASTVisitor<Finder> {
        ASTContext &Context;
        bool Found = false;
        explicit Finder(ASTContext &Context) : Context(Context) {}
        bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
          const CXXMethodDecl *Called = tensorMethodCalled(Call);
          if (!Called || !Called->getIdentifier())
            return true;
          if (Called->getName() == names::CudaMethod)
            Found = true;
          if (Called->getName() == names::ToMethod && Call->getNumArgs() > 0 &&
              !isDtypeConversion(Called)) {
            DeviceKind Kind = classifyDevice(Call->getArg(0), Context);
            Found |= Kind != DeviceKind::Cpu && Kind != DeviceKind::NoDevice;
          }
          return !Found;
        }
        // `torch::zeros({4}, device)`: made on a device that may be a GPU.
        bool VisitCallExpr(CallExpr *Call) {
          Found |= isTensorFactoryCall(Call) &&
                   !isHostTensorFactoryCall(Call, Context);
          return !Found;
        }
      } Visitor(Context);
      // A constructor may fill the dataset's tensors on the device in its
      // member initializers.
      if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(Body))
        for (const CXXCtorInitializer *Init : Constructor->inits())
          if (Init->isWritten())
            Visitor.TraverseStmt(Init->getInit());
      Visitor.TraverseStmt(Body->getBody());
      if (Visitor.Found)
        return true;
    }
  }
  if (const auto *Specialization =
          dyn_cast<ClassTemplateSpecializationDecl>(Record))
    for (const TemplateArgument &Arg :
         Specialization->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type &&
          loaderMayPlaceOnDevice(Arg.getAsType()->getAsCXXRecordDecl(), Context,
                                 Depth + 1))
        return true;
  return false;
}

bool mayHoldAnotherTensor(const VarDecl *Variable, const Stmt *Body) {
  return utils::isAssignedOrAddressTaken(
      Variable, Body, utils::ImplicitWrappers | utils::SubstTemplateParam);
}

namespace {

/// Follows a batch tensor through placement-keeping methods and local
/// variables that are never reassigned, to the calls that take it. A copy
/// (`.to()`, `.cuda()`) or anything we do not understand ends the path.
void collectUses(const Expr *E, const utils::UserCodeParents &UserParents,
                 unsigned Depth, std::vector<BatchUse> &Uses) {
  for (unsigned Steps = 0; Steps < 32 && Depth <= MaxBatchFlowDepth; ++Steps) {
    // A copy of the batch tensor is on the batch's device.
    utils::Above Up = utils::parentIgnoring(
        E, UserParents, utils::ImplicitWrappers | utils::CopyConstruct);
    E = cast<Expr>(Up.Child);
    if (const auto *Variable = Up.Parent.get<VarDecl>()) {
      const auto *Function =
          dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
      if (!Variable->hasLocalStorage() || !Function || !Function->getBody() ||
          Variable->getType()->isReferenceType() ||
          mayHoldAnotherTensor(Variable, Function->getBody()))
        return;
      for (const DeclRefExpr *Ref :
           utils::referencesTo(Variable, Function->getBody()))
        collectUses(Ref, UserParents, Depth + 1, Uses);
      return;
    }
    const auto *Parent = Up.Parent.get<Expr>();
    if (!Parent || isa<CXXConstructExpr>(Parent))
      return;
    if (isa<MemberExpr>(Parent)) {
      DynTypedNodeList CallParents = UserParents.get(*Parent);
      const auto *Call = CallParents.size() == 1
                             ? CallParents[0].get<CXXMemberCallExpr>()
                             : nullptr;
      const CXXMethodDecl *Method = tensorMethodCalled(Call);
      if (!Method || !Method->getIdentifier())
        return;
      if (keepsPlacement(Method->getName())) {
        E = Call;
        continue;
      }
      // Another tensor method with tensor arguments (`x.add(y)`) combines
      // the batch with them.
      if (isTensorType(Call->getType()) &&
          Method->getName() != names::ToMethod &&
          Method->getName() != names::CudaMethod && Method->getName() != "cpu")
        Uses.push_back({E, Call});
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
      if (Call->getCallee() != E)
        Uses.push_back({E, Call});
      return;
    }
    return;
  }
}

} // namespace

std::vector<BatchUse> batchUses(const Expr *Batch,
                                const utils::UserCodeParents &UserParents) {
  std::vector<BatchUse> Uses;
  collectUses(Batch, UserParents, 0, Uses);
  return Uses;
}

} // namespace clang::tidy::libtorch::analysis
