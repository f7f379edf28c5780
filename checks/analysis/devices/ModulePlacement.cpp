//===--- ModulePlacement.cpp - Which modules are moved to a device --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/ModulePlacement.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "utils/CallArguments.h"
#include "utils/References.h"
#include "utils/UserCode.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::libtorch::analysis {

namespace {

ModuleMoves mayBeMoved() { return {true, false}; }
ModuleMoves notMoved() { return {false, false}; }

void merge(ModuleMoves &Into, ModuleMoves From) {
  Into.MaybeMoved |= From.MaybeMoved;
  Into.MovedToDevice |= From.MovedToDevice;
}

/// The first template argument of the ModuleHolder specialization \p Record
/// is or derives from.
const CXXRecordDecl *heldByHolder(const CXXRecordDecl *Record,
                                  unsigned Depth = 0) {
  if (!Record || Depth > 8)
    return nullptr;
  if (const auto *Specialization =
          dyn_cast<ClassTemplateSpecializationDecl>(Record))
    if (hasQualifiedName(Specialization, names::ModuleHolder) &&
        Specialization->getTemplateArgs().size() > 0 &&
        Specialization->getTemplateArgs()[0].getKind() ==
            TemplateArgument::Type)
      return Specialization->getTemplateArgs()[0]
          .getAsType()
          ->getAsCXXRecordDecl();
  Record = Record->getDefinition();
  if (!Record)
    return nullptr;
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (const CXXRecordDecl *Held =
            heldByHolder(Base.getType()->getAsCXXRecordDecl(), Depth + 1))
      return Held;
  return nullptr;
}

const CXXRecordDecl *heldBySharedPtr(const CXXRecordDecl *Record) {
  const auto *Specialization =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(Record);
  if (!Specialization || !hasQualifiedName(Specialization, names::SharedPtr) ||
      Specialization->getTemplateArgs().size() == 0 ||
      Specialization->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  const CXXRecordDecl *Held =
      Specialization->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  return isSameOrDerivedFrom(Held, names::Module) ? Held : nullptr;
}

const Expr *stripCopies(const Expr *E) {
  return utils::stripWrappers(E, utils::ImplicitWrappers |
                                     utils::CopyConstruct |
                                     utils::FunctionalCast);
}

bool isMakeShared(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && hasQualifiedName(Callee, names::MakeShared);
}

/// Whether a constructor argument of a new handle may give it a module made
/// elsewhere, which may have been moved there: another handle
/// (`Net(shared_ptr)`, `Sequential(linear)`), a module (`*linear`), or one
/// inside a wrapper (`AnyModule(linear)`, `{{"fc", linear}}`). Submodules
/// constructed right in the argument (`Sequential(Linear(2, 8), ReLU())`)
/// are as fresh as the new handle.
bool mayShareModule(const Expr *Arg) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitExpr(Expr *E) {
      QualType Type = E->getType();
      if (Type.isNull() ||
          (!isModuleHandleType(Type) &&
           !isSameOrDerivedFrom(
               Type.getNonReferenceType()->getAsCXXRecordDecl(),
               names::Module)))
        return true;
      // Made here, or a wrapper whose operand is visited on its own.
      if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
              CXXBindTemporaryExpr, ExprWithCleanups, CXXConstructExpr,
              CXXFunctionalCastExpr, CXXNullPtrLiteralExpr>(E))
        return true;
      if (const auto *Call = dyn_cast<CallExpr>(E); Call && isMakeShared(Call))
        return true;
      Found = true;
      return false;
    }
  } Finder;
  Finder.TraverseStmt(const_cast<Expr *>(Arg));
  return Finder.Found;
}

/// A handle made right here (`Net model;`, `Net(3)`, `nullptr`,
/// `std::make_shared<NetImpl>()`): no one could have moved it before.
bool isFreshHandle(const Expr *Init) {
  Init = stripCopies(Init);
  if (!Init)
    return false;
  if (isa<CXXNullPtrLiteralExpr>(Init))
    return true;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init))
    return llvm::none_of(Construct->arguments(), mayShareModule);
  if (const auto *Call = dyn_cast<CallExpr>(Init))
    return isMakeShared(Call) &&
           llvm::none_of(Call->arguments(), mayShareModule);
  return false;
}

bool isDeviceParameter(const ParmVarDecl *Parameter) {
  return isRecordNamed(Parameter->getType(), names::Device);
}

/// `to(device)` on `this`, in a member function of a module class.
bool movesThis(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      const CXXMethodDecl *Method = Call->getMethodDecl();
      if (Method && Method->getIdentifier() && Method->getName() == "to" &&
          Method->getNumParams() > 0 &&
          isDeviceParameter(Method->getParamDecl(0)) &&
          isSameOrDerivedFrom(Method->getParent(), names::Module) &&
          isa<CXXThisExpr>(
              Call->getImplicitObjectArgument()->IgnoreParenImpCasts()))
        Found = true;
      return !Found;
    }
  } Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return Finder.Found;
}

} // namespace

bool isModuleHandleType(QualType Type) {
  if (Type.isNull())
    return false;
  const CXXRecordDecl *Record =
      Type.getNonReferenceType()->getAsCXXRecordDecl();
  return heldBySharedPtr(Record) || heldByHolder(Record);
}

const CXXRecordDecl *moduleClassOf(QualType HandleType) {
  if (HandleType.isNull())
    return nullptr;
  const CXXRecordDecl *Record =
      HandleType.getNonReferenceType()->getAsCXXRecordDecl();
  if (const CXXRecordDecl *Held = heldBySharedPtr(Record))
    return Held;
  return heldByHolder(Record);
}

const ValueDecl *moduleOfForwardCall(const Expr *ForwardCall) {
  const Expr *Handle = nullptr;
  if (const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(ForwardCall)) {
    // model->forward(x): the object is `operator->` applied to the handle.
    const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(
        Member->getImplicitObjectArgument()->IgnoreParenImpCasts());
    if (!Arrow || Arrow->getOperator() != OO_Arrow || Arrow->getNumArgs() < 1)
      return nullptr;
    Handle = Arrow->getArg(0);
  } else if (const auto *Operator =
                 dyn_cast_or_null<CXXOperatorCallExpr>(ForwardCall)) {
    if (Operator->getOperator() != OO_Call || Operator->getNumArgs() < 1)
      return nullptr;
    Handle = Operator->getArg(0);
  }
  if (!Handle)
    return nullptr;
  // std::shared_ptr's operator-> is a member of a base class: look through
  // the derived-to-base cast to the handle itself.
  Handle = Handle->IgnoreParenImpCasts();
  if (!isModuleHandleType(Handle->getType()))
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Handle))
    return dyn_cast<VarDecl>(Ref->getDecl());
  if (const auto *Member = dyn_cast<MemberExpr>(Handle))
    if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(Member->getMemberDecl());
  return nullptr;
}

ModuleMoves ModulePlacement::movesOf(const ValueDecl *Handle) {
  auto Cached = Known.find(Handle);
  if (Cached != Known.end())
    return Cached->second;
  ModuleMoves Result = mayBeMoved();
  if (const auto *Variable = dyn_cast_or_null<VarDecl>(Handle))
    Result = movesOfVariable(Variable, 0);
  else if (const auto *Field = dyn_cast_or_null<FieldDecl>(Handle))
    Result = movesOfField(Field);
  Known[Handle] = Result;
  return Result;
}

ModuleMoves ModulePlacement::movesOfVariable(const VarDecl *Variable,
                                             unsigned Depth) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
  if (!Function || !Function->getBody() || Depth > CallDepth::ModuleHandOff)
    return mayBeMoved();
  if (!isa<ParmVarDecl>(Variable)) {
    // A handle copied from elsewhere (a reference, a factory function's
    // result, another variable) may hold a module moved there.
    if (Variable->getType()->isReferenceType() ||
        !Variable->hasLocalStorage() || !isFreshHandle(Variable->getInit()))
      return mayBeMoved();
  }

  ModuleMoves Result = notMoved();
  for (const DeclRefExpr *Ref :
       utils::referencesTo(Variable, Function->getBody())) {
    merge(Result, movesOfUse(Ref, Depth));
    if (Result.MaybeMoved && Result.MovedToDevice)
      break;
  }
  if (constructorMoves(moduleClassOf(Variable->getType())))
    Result.MaybeMoved = true;
  return Result;
}

ModuleMoves ModulePlacement::movesOfField(const FieldDecl *Field) {
  const auto *Owner = dyn_cast<CXXRecordDecl>(Field->getParent());
  // A submodule of a module moves with its parent.
  if (!Owner || isSameOrDerivedFrom(Owner, names::Module))
    return mayBeMoved();
  const SourceManager &SM = Context.getSourceManager();
  for (const CXXMethodDecl *Method : Owner->methods()) {
    if (Method->isImplicit() || Method->isDefaulted() || Method->isDeleted() ||
        Method->isPureVirtual())
      continue;
    // A member function defined in another TU may move it.
    const FunctionDecl *Definition = nullptr;
    if (!Method->hasBody(Definition) || !utils::isUserCode(Definition, SM))
      return mayBeMoved();
    if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(Definition))
      for (const CXXCtorInitializer *Init : Constructor->inits())
        if (Init->isWritten() && Init->getMember() == Field &&
            !isFreshHandle(Init->getInit()))
          return mayBeMoved();
  }
  if (const Expr *Init = Field->getInClassInitializer();
      Init && !isFreshHandle(Init))
    return mayBeMoved();

  indexFieldUses();
  ModuleMoves Result = notMoved();
  for (const MemberExpr *Use : FieldUses.lookup(Field))
    merge(Result, movesOfUse(Use, 0));
  if (constructorMoves(moduleClassOf(Field->getType())))
    Result.MaybeMoved = true;
  return Result;
}

ModuleMoves ModulePlacement::movesOfUse(const Expr *Use, unsigned Depth) {
  const Expr *E = Use;
  for (unsigned Steps = 0; Steps < 32; ++Steps) {
    utils::Above Up = utils::parentIgnoring(E, Parents);
    E = cast<Expr>(Up.Child);
    const auto *Parent = Up.Parent.get<Expr>();
    // A declaration (`auto alias = model;`), a return, ...: it escapes.
    if (!Parent)
      return mayBeMoved();
    // Captured by a lambda: its uses in the body are visited on their own.
    if (isa<LambdaExpr>(Parent))
      return notMoved();
    if (const auto *Unary = dyn_cast<UnaryOperator>(Parent)) {
      if (Unary->getOpcode() == UO_Deref) {
        E = Unary;
        continue;
      }
      return Unary->getOpcode() == UO_LNot ? notMoved() : mayBeMoved();
    }
    if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Parent)) {
      if (Operator->getNumArgs() > 0 && Operator->getArg(0) == E) {
        switch (Operator->getOperator()) {
        case OO_Arrow:
        case OO_Star:
          E = Operator;
          continue;
        case OO_Call: // model(x): a forward pass
        case OO_EqualEqual:
        case OO_ExclaimEqual:
          return notMoved();
        default:
          return mayBeMoved();
        }
      }
      // Printed: `std::cout << *model`.
      if (Operator->getOperator() == OO_LessLess)
        return notMoved();
    }
    if (const auto *Member = dyn_cast<MemberExpr>(Parent)) {
      const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
      DynTypedNodeList CallParents = Parents.get(*Member);
      const auto *Call = CallParents.size() == 1
                             ? CallParents[0].get<CXXMemberCallExpr>()
                             : nullptr;
      // A submodule reached through the handle (`model->fc->to(...)`) may
      // be moved on its own: we do not follow fields.
      if (!Method || !Call || Call->getCallee() != Member)
        return mayBeMoved();
      StringRef Name = Method->getIdentifier() ? Method->getName() : "";
      if (isSameOrDerivedFrom(Method->getParent(), names::Module)) {
        if (Name == "to") {
          if (Method->getNumParams() == 0 ||
              !isDeviceParameter(Method->getParamDecl(0)))
            return notMoved(); // to(dtype)
          DeviceKind Kind = classifyDevice(Call->getArg(0), Context);
          return {true,
                  Kind == DeviceKind::Cuda || Kind == DeviceKind::MaybeCuda};
        }
        // Callbacks and loading may move parameters.
        if (Name == "apply" || Name == "load" || Name == "replace_module")
          return mayBeMoved();
        return notMoved(); // forward, parameters, train, eval, ...
      }
      // The handle's own methods: get() and ptr() give the module again.
      if (Name == "get" || Name == "ptr") {
        E = Call;
        continue;
      }
      if (Name == "reset" || Name == "swap")
        return mayBeMoved();
      return notMoved(); // is_empty(), use_count(), ...
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent)) {
      // A copy into a by-value parameter or a variable: the parent decides.
      if (Construct->getConstructor()->isCopyOrMoveConstructor()) {
        E = Construct;
        continue;
      }
      return mayBeMoved();
    }
    if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return mayBeMoved();
      if (hasQualifiedName(Callee, names::Save))
        return notMoved();
      const ParmVarDecl *Parameter = utils::parameterOfArgument(Call, E);
      const FunctionDecl *Definition = nullptr;
      // A helper of this TU: follow its parameter.
      if (Parameter && Callee->hasBody(Definition) &&
          utils::isUserCode(Definition, Context.getSourceManager()) &&
          Depth < CallDepth::ModuleHandOff)
        return movesOfVariable(
            Definition->getParamDecl(Parameter->getFunctionScopeIndex()),
            Depth + 1);
      return mayBeMoved();
    }
    return mayBeMoved();
  }
  return mayBeMoved();
}

bool ModulePlacement::constructorMoves(const CXXRecordDecl *ModuleClass) {
  if (!ModuleClass)
    return false;
  ModuleClass = ModuleClass->getDefinition();
  if (!ModuleClass ||
      !utils::isUserCode(ModuleClass, Context.getSourceManager()))
    return false;
  auto Cached = ConstructorMoves.find(ModuleClass);
  if (Cached != ConstructorMoves.end())
    return Cached->second;
  bool Moves = false;
  for (const CXXConstructorDecl *Constructor : ModuleClass->ctors()) {
    if (Constructor->isImplicit() || Constructor->isDefaulted() ||
        Constructor->isDeleted())
      continue;
    const FunctionDecl *Definition = nullptr;
    // Defined in another TU: it may move the module.
    if (!Constructor->hasBody(Definition) || movesThis(Definition->getBody())) {
      Moves = true;
      break;
    }
  }
  ConstructorMoves[ModuleClass] = Moves;
  return Moves;
}

void ModulePlacement::indexFieldUses() {
  if (FieldUsesIndexed)
    return;
  FieldUsesIndexed = true;
  struct Collector : RecursiveASTVisitor<Collector> {
    decltype(FieldUses) &Uses;
    explicit Collector(decltype(FieldUses) &Uses) : Uses(Uses) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitMemberExpr(MemberExpr *Member) {
      if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
        if (isModuleHandleType(Field->getType()))
          Uses[Field].push_back(Member);
      return true;
    }
  } Visitor(FieldUses);
  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    Visitor.TraverseDecl(TopLevel);
}

} // namespace clang::tidy::libtorch::analysis
