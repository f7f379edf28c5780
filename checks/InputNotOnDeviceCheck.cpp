//===--- InputNotOnDeviceCheck.cpp - libtorch-tidy ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "InputNotOnDeviceCheck.h"
#include "analysis/DeviceFacts.h"
#include "analysis/DeviceVariables.h"
#include "analysis/GradModeFacts.h"
#include "analysis/LibTorchCalls.h"
#include "analysis/LibTorchNames.h"
#include "analysis/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

constexpr unsigned MaxDepth = 4;
constexpr char DataLoaderBase[] = "::torch::data::DataLoaderBase";

/// Tensor methods whose result lives where their object lives.
bool keepsPlacement(StringRef Method) {
  return llvm::StringSwitch<bool>(Method)
      .Cases("view", "reshape", "flatten", "squeeze", "unsqueeze", true)
      .Cases("permute", "transpose", "t", "contiguous", "narrow", true)
      .Cases("slice", "select", "detach", "clone", "float", true)
      .Cases("double", "half", "long", "to_dense", "view_as", true)
      .Default(false);
}

/// The range-for loop over a data loader whose loop variable is \p Batch.
const CXXForRangeStmt *
loaderLoopOf(const VarDecl *Batch,
             const analysis::UserCodeParents &UserParents) {
  DynTypedNodeList Parents = UserParents.get(*Batch);
  if (Parents.size() != 1 || !Parents[0].get<DeclStmt>())
    return nullptr;
  DynTypedNodeList Loops = UserParents.get(*Parents[0].get<DeclStmt>());
  const auto *Loop =
      Loops.size() == 1 ? Loops[0].get<CXXForRangeStmt>() : nullptr;
  if (!Loop || Loop->getLoopVariable() != Batch || !Loop->getRangeInit())
    return nullptr;
  QualType Range = Loop->getRangeInit()->getType().getNonReferenceType();
  if (!analysis::isSameOrDerivedFrom(Range->getAsCXXRecordDecl(),
                                     DataLoaderBase))
    return nullptr;
  return Loop;
}

/// `Tensor::to(ScalarType, ...)` and `to(TypeMeta, ...)` only convert the
/// element type: the result stays where the tensor is.
bool isDtypeConversion(const CXXMethodDecl *To) {
  if (To->getNumParams() == 0)
    return false;
  QualType First = To->getParamDecl(0)->getType().getNonReferenceType();
  if (const auto *Enum = First->getAs<EnumType>())
    return Enum->getDecl()->getQualifiedNameAsString() == "c10::ScalarType";
  return analysis::isRecordNamed(First, "::caffe2::TypeMeta");
}

/// Whether code of this TU that the loader runs (a dataset's or a
/// transform's member functions, named in the loader's template arguments)
/// may put tensors on a device, or cannot be seen.
bool loaderMayPlaceOnDevice(const CXXRecordDecl *Record, ASTContext &Context,
                            unsigned Depth = 0) {
  if (!Record || Depth > 6)
    return false;
  const SourceManager &SM = Context.getSourceManager();
  if (analysis::isUserCode(Record, SM)) {
    const CXXRecordDecl *Definition = Record->getDefinition();
    if (!Definition)
      return true;
    for (const CXXMethodDecl *Method : Definition->methods()) {
      if (Method->isImplicit() || Method->isDefaulted() || Method->isPure() ||
          Method->isDeleted())
        continue;
      const FunctionDecl *Body = nullptr;
      if (!Method->hasBody(Body))
        return true;
      struct Finder : RecursiveASTVisitor<Finder> {
        ASTContext &Context;
        bool Found = false;
        explicit Finder(ASTContext &Context) : Context(Context) {}
        bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
          const CXXMethodDecl *Called = analysis::tensorMethodCalled(Call);
          if (!Called || !Called->getIdentifier())
            return true;
          if (Called->getName() == "cuda")
            Found = true;
          if (Called->getName() == "to" && Call->getNumArgs() > 0 &&
              !isDtypeConversion(Called)) {
            analysis::DeviceKind Kind =
                analysis::classifyDevice(Call->getArg(0), Context);
            Found |= Kind != analysis::DeviceKind::Cpu &&
                     Kind != analysis::DeviceKind::NoDevice;
          }
          return !Found;
        }
        // `torch::zeros({4}, device)`: made on a device that may be a GPU.
        bool VisitCallExpr(CallExpr *Call) {
          Found |= analysis::isTensorFactoryCall(Call) &&
                   !analysis::isHostTensorFactoryCall(Call, Context);
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

bool isReassigned(const VarDecl *Variable, const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Variable;
    bool Found = false;
    bool refersTo(const Expr *E) const {
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == Variable;
    }
    bool VisitBinaryOperator(BinaryOperator *Op) {
      Found |= Op->isAssignmentOp() && refersTo(Op->getLHS());
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      Found |= Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
               refersTo(Op->getArg(0));
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *Op) {
      Found |= Op->getOpcode() == UO_AddrOf && refersTo(Op->getSubExpr());
      return !Found;
    }
  } Visitor;
  Visitor.Variable = Variable;
  Visitor.TraverseStmt(const_cast<Stmt *>(Body));
  return Visitor.Found;
}

std::vector<const DeclRefExpr *> referencesTo(const VarDecl *Variable,
                                              const Stmt *Body) {
  struct Collector : RecursiveASTVisitor<Collector> {
    const VarDecl *Variable;
    std::vector<const DeclRefExpr *> Refs;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() == Variable)
        Refs.push_back(Ref);
      return true;
    }
  } Visitor;
  Visitor.Variable = Variable;
  Visitor.TraverseStmt(const_cast<Stmt *>(Body));
  return Visitor.Refs;
}

/// A place where a host batch tensor \p Arg is handed to \p Call.
struct BatchUse {
  const Expr *Arg;
  const CallExpr *Call;
};

/// Follows a batch tensor through placement-keeping methods and local
/// variables that are never reassigned, to the calls that take it. A copy
/// (`.to()`, `.cuda()`) or anything we do not understand ends the path.
void collectUses(const Expr *E, const analysis::UserCodeParents &UserParents,
                 unsigned Depth, std::vector<BatchUse> &Uses) {
  for (unsigned Steps = 0; Steps < 32 && Depth <= MaxDepth; ++Steps) {
    DynTypedNodeList Parents = UserParents.get(*E);
    if (Parents.size() != 1)
      return;
    if (const auto *Variable = Parents[0].get<VarDecl>()) {
      const auto *Function =
          dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
      if (!Variable->hasLocalStorage() || !Function || !Function->getBody() ||
          Variable->getType()->isReferenceType() ||
          isReassigned(Variable, Function->getBody()))
        return;
      for (const DeclRefExpr *Ref : referencesTo(Variable, Function->getBody()))
        collectUses(Ref, UserParents, Depth + 1, Uses);
      return;
    }
    const auto *Parent = Parents[0].get<Expr>();
    if (!Parent)
      return;
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
            CXXBindTemporaryExpr, ExprWithCleanups>(Parent)) {
      E = Parent;
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent)) {
      if (!Construct->getConstructor()->isCopyOrMoveConstructor())
        return;
      E = Parent;
      continue;
    }
    if (isa<MemberExpr>(Parent)) {
      DynTypedNodeList CallParents = UserParents.get(*Parent);
      const auto *Call = CallParents.size() == 1
                             ? CallParents[0].get<CXXMemberCallExpr>()
                             : nullptr;
      const CXXMethodDecl *Method = analysis::tensorMethodCalled(Call);
      if (!Method || !Method->getIdentifier())
        return;
      if (keepsPlacement(Method->getName())) {
        E = Call;
        continue;
      }
      // Another tensor method with tensor arguments (`x.add(y)`) combines
      // the batch with them.
      if (analysis::isTensorType(Call->getType()) &&
          Method->getName() != "to" && Method->getName() != "cuda" &&
          Method->getName() != "cpu")
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

void InputNotOnDeviceCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // The cheap structural tests first: member accesses are everywhere in
  // LibTorch's headers, and almost all of them are on `this`.
  Finder->addMatcher(memberExpr(hasObjectExpression(ignoringImpCasts(
                                    declRefExpr(to(varDecl().bind("batch"))))),
                                member(fieldDecl()),
                                unless(isExpansionInSystemHeader()))
                         .bind("member"),
                     this);
}

void InputNotOnDeviceCheck::onEndOfTranslationUnit() {
  Placement.reset();
  LoaderVerdict.clear();
  LibTorchCheck::onEndOfTranslationUnit();
}

bool InputNotOnDeviceCheck::isOnDevice(const Expr *E, ASTContext &Context,
                                       unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return false;
  if (analysis::isProvablyOnDevice(E, Context))
    return true;
  const Expr *Stripped = E->IgnoreImplicit()->IgnoreParens();
  if (analysis::isModuleForwardCall(Stripped))
    return isModuleOnDevice(
        analysis::moduleOfForwardCall(cast<CallExpr>(Stripped)), Context);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Stripped))
    if (const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const auto *Function = dyn_cast_or_null<FunctionDecl>(
              Variable->getParentFunctionOrMethod());
          Function && Function->getBody() && Variable->hasLocalStorage() &&
          !isa<ParmVarDecl>(Variable) && Variable->getInit() &&
          !Variable->getType()->isReferenceType() &&
          !isReassigned(Variable, Function->getBody()))
        return isOnDevice(Variable->getInit(), Context, Depth + 1);
  return false;
}

bool InputNotOnDeviceCheck::isModuleOnDevice(const ValueDecl *Module,
                                             ASTContext &Context) {
  if (!Module)
    return false;
  if (!Placement)
    Placement =
        std::make_unique<analysis::ModulePlacement>(Context, parents(Context));
  if (Placement->movesOf(Module).MovedToDevice)
    return true;
  // A module handed in: on the device when a caller of this TU moved it.
  const auto *Parameter = dyn_cast<ParmVarDecl>(Module);
  const auto *Function =
      Parameter ? dyn_cast<FunctionDecl>(Parameter->getDeclContext()) : nullptr;
  if (!Function)
    return false;
  unsigned Index = Parameter->getFunctionScopeIndex();
  analysis::TrainingFacts &TU = trainingFacts(Context);
  const FunctionDecl *Canonical = Function->getCanonicalDecl();
  for (const CallExpr *Call : TU.Loops.callSitesOf(Canonical)) {
    unsigned Offset = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
    if (Index + Offset >= Call->getNumArgs())
      continue;
    const Expr *Arg = Call->getArg(Index + Offset)->IgnoreParenImpCasts();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg))
      if (Construct->getNumArgs() == 1)
        Arg = Construct->getArg(0)->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg))
      if (const auto *Handle = dyn_cast<VarDecl>(Ref->getDecl());
          Handle && !isa<ParmVarDecl>(Handle) &&
          analysis::isModuleHandleType(Handle->getType()) &&
          Placement->movesOf(Handle).MovedToDevice)
        return true;
  }
  return false;
}

void InputNotOnDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Member = Result.Nodes.getNodeAs<MemberExpr>("member");
  const auto *Batch = Result.Nodes.getNodeAs<VarDecl>("batch");
  ASTContext &Context = *Result.Context;
  // Written in a macro: the macro may serve other call sites.
  if (Member->getBeginLoc().isMacroID() ||
      !analysis::isTensorType(Member->getType()))
    return;
  const analysis::UserCodeParents &UserParents = parents(Context);
  const CXXForRangeStmt *Loop = loaderLoopOf(Batch, UserParents);
  if (!Loop)
    return;
  // A dataset or transform of this TU that puts its tensors on the device
  // (or that we cannot see) makes batches that are already there.
  const CXXRecordDecl *Loader = Loop->getRangeInit()
                                    ->getType()
                                    .getNonReferenceType()
                                    ->getAsCXXRecordDecl();
  auto Verdict = LoaderVerdict.find(Loader);
  if (Verdict == LoaderVerdict.end())
    Verdict = LoaderVerdict
                  .try_emplace(Loader, loaderMayPlaceOnDevice(Loader, Context))
                  .first;
  if (Verdict->second)
    return;
  const FunctionDecl *Function =
      analysis::enclosingFunction(Member, UserParents);
  if (!Function || trainingFacts(Context).Devices.isCpuOnlyFunction(Function))
    return;

  std::vector<BatchUse> Uses;
  collectUses(Member, UserParents, 0, Uses);
  const BatchUse *Found = nullptr;
  bool WithModel = false;
  for (const BatchUse &U : Uses) {
    const CallExpr *Call = U.Call;
    if (analysis::isModuleForwardCall(Call) &&
        isModuleOnDevice(analysis::moduleOfForwardCall(Call), Context)) {
      Found = &U;
      WithModel = true;
      break;
    }
    // A loss or an op: only LibTorch's own, with another operand on the
    // device. The object of a member call counts as an operand.
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      continue;
    std::string Name = Callee->getQualifiedNameAsString();
    bool IsLibTorch = StringRef(Name).startswith("torch::") ||
                      StringRef(Name).startswith("at::") ||
                      analysis::tensorMethodCalled(Call) ||
                      analysis::isModuleForwardCall(Call);
    if (!IsLibTorch)
      continue;
    llvm::SmallVector<const Expr *, 4> Operands(Call->arguments());
    if (const auto *MemberCall = dyn_cast<CXXMemberCallExpr>(Call))
      Operands.push_back(MemberCall->getImplicitObjectArgument());
    for (const Expr *Operand : Operands)
      if (Operand != U.Arg && analysis::isTensorType(Operand->getType()) &&
          isOnDevice(Operand, Context, 0)) {
        Found = &U;
        break;
      }
    if (Found)
      break;
  }
  if (!Found)
    return;

  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LangOpts = getLangOpts();
  std::string Spelled = analysis::spelledText(Member, SM, LangOpts);
  auto Devices = analysis::cudaDeviceVariablesAt(Member, Context, UserParents);
  {
    auto Diag =
        diag(Found->Arg->getBeginLoc(),
             "'%0' is a data-loader batch in host memory, used with %select{"
             "tensors|the model}1 on the GPU; copy it to the device with "
             "'.to(device)' first")
        << Spelled << WithModel;
    if (Devices.size() == 1 && analysis::isRewritable(Member->getSourceRange()))
      Diag << FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(Member->getEndLoc(), 0, SM, LangOpts),
          ".to(" + Devices.front()->getName().str() +
              ", /*non_blocking=*/true)");
  }
  if (Found->Arg->getBeginLoc() != Member->getBeginLoc())
    diag(Member->getBeginLoc(), "the batch tensor comes from here",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
