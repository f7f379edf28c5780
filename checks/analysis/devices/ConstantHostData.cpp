//===--- ConstantHostData.cpp - Host tables rebuilt as tensors ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/ConstantHostData.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "analysis/vocabulary/WalkDepths.h"
#include "utils/AstWalk.h"
#include "utils/CallArguments.h"
#include "utils/References.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// A number written as a constant: a literal, or an arithmetic constant
/// expression (`-1.5`, `kScale * 2` of a constexpr kScale).
bool isConstantElement(const Expr *E, ASTContext &Context) {
  E = utils::stripWrappers(E, utils::ImplicitWrappers | utils::ExplicitCast);
  return E && !E->isValueDependent() && E->getType()->isArithmeticType() &&
         E->isEvaluatable(Context);
}

bool isCalled(const CallExpr *Call, StringRef Name) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier() || Callee->getName() != Name)
    return false;
  // The function itself, not one of a nested namespace.
  return hasQualifiedName(Callee,
                          (Twine(names::TorchNamespace) + "::" + Name).str()) ||
         hasQualifiedName(Callee,
                          (Twine(names::AtNamespace) + "::" + Name).str());
}

/// The variable an argument names, through the conversions that wrap it
/// (`torch::tensor(weights)` builds a TensorDataContainer or an ArrayRef
/// from the vector).
const VarDecl *namedVariable(const Expr *E) {
  for (unsigned Hops = 0; E && Hops < 8; ++Hops) {
    E = utils::stripWrappers(E, utils::ImplicitWrappers | utils::ExplicitCast);
    if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(Ref->getDecl());
    const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() == 0 ||
        isa<CXXTemporaryObjectExpr>(Construct))
      return nullptr;
    for (const Expr *Rest : llvm::drop_begin(Construct->arguments()))
      if (!isa<CXXDefaultArgExpr>(Rest))
        return nullptr;
    E = Construct->getArg(0);
  }
  return nullptr;
}

/// Whether \p E, the argument of `torch::tensor`, is a braced list whose
/// every element is a constant: through the TensorDataContainer (or
/// initializer_list) it converts to, nested lists included.
bool isConstantList(const Expr *E, ASTContext &Context, unsigned Depth = 0) {
  // Deeper than any table written by hand (a 4-D literal has 4 levels,
  // each adding a container and an initializer_list).
  constexpr unsigned MaxDepth = 16;
  E = utils::stripWrappers(E, utils::ImplicitWrappers | utils::ExplicitCast);
  if (!E || Depth > MaxDepth)
    return false;
  if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(E))
    return isConstantList(List->getSubExpr(), Context, Depth + 1);
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return List->getNumInits() > 0 &&
           llvm::all_of(List->inits(), [&](const Expr *Element) {
             return isConstantList(Element, Context, Depth + 1) ||
                    isConstantElement(Element, Context);
           });
  const auto *Construct = dyn_cast<CXXConstructExpr>(E);
  if (!Construct || Construct->getNumArgs() == 0)
    return false;
  // A container made from one element or one list: what it holds.
  for (const Expr *Rest : llvm::drop_begin(Construct->arguments()))
    if (!isa<CXXDefaultArgExpr>(Rest))
      return false;
  return isConstantList(Construct->getArg(0), Context, Depth + 1) ||
         (Depth > 0 && isConstantElement(Construct->getArg(0), Context));
}

/// The variable whose storage `from_blob`'s pointer points into:
/// `table.data()`, `table` (an array), `&table[0]`.
const VarDecl *pointedVariable(const Expr *Pointer) {
  const Expr *E = utils::stripWrappers(Pointer, utils::ImplicitWrappers |
                                                    utils::ExplicitCast);
  if (const auto *AddressOf = dyn_cast_or_null<UnaryOperator>(E);
      AddressOf && AddressOf->getOpcode() == UO_AddrOf) {
    const Expr *Element = utils::stripWrappers(AddressOf->getSubExpr());
    const Expr *Base = nullptr;
    if (const auto *Subscript = dyn_cast_or_null<ArraySubscriptExpr>(Element))
      Base = Subscript->getBase();
    else if (const auto *Operator =
                 dyn_cast_or_null<CXXOperatorCallExpr>(Element);
             Operator && Operator->getOperator() == OO_Subscript)
      Base = Operator->getArg(0);
    return Base ? namedVariable(Base) : nullptr;
  }
  if (const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (Method && Method->getIdentifier() && Method->getName() == "data" &&
        Member->getNumArgs() == 0)
      return namedVariable(Member->getImplicitObjectArgument());
    return nullptr;
  }
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E)) {
    const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl());
    return Variable && Variable->getType()->isArrayType() ? Variable : nullptr;
  }
  return nullptr;
}

bool isConstData(const VarDecl *Variable, ASTContext &Context) {
  return Context.getBaseElementType(Variable->getType()).isConstQualified();
}

/// \p Data (`table.data()`) is given to a `from_blob` whose tensor is
/// copied at once (`.clone()`, `.to(...)`, `.cuda()`): the values are read.
bool isCopiedAtOnce(const CXXMemberCallExpr *Data,
                    const utils::UserCodeParents &Parents) {
  utils::Above Blob = utils::parentIgnoring(
      Data, Parents, utils::ImplicitWrappers | utils::ExplicitCast);
  const auto *Maker = Blob.Parent.get<CallExpr>();
  if (!Maker || !isCalled(Maker, "from_blob") || Maker->getNumArgs() == 0 ||
      Maker->getArg(0) != Blob.Child)
    return false;
  utils::Above Member = utils::parentIgnoring(Maker, Parents);
  const auto *Access = Member.Parent.get<MemberExpr>();
  if (!Access)
    return false;
  utils::Above Call = utils::parentIgnoring(Access, Parents);
  const auto *Method = Call.Parent.get<CXXMemberCallExpr>();
  const CXXMethodDecl *Called = Method ? Method->getMethodDecl() : nullptr;
  return Called && Called->getIdentifier() &&
         (Called->getName() == "clone" ||
          Called->getName() == names::ToMethod ||
          Called->getName() == names::CudaMethod ||
          Called->getName() == "contiguous");
}

/// The value of \p E (an lvalue naming the table or a part of it) is only
/// read where it is used.
bool isOnlyRead(const Expr *E, const utils::UserCodeParents &Parents,
                unsigned Depth = 0) {
  if (Depth > ParentHops::ReadOfTable)
    return false;
  DynTypedNodeList Above = Parents.get(*E);
  if (Above.size() != 1)
    return false;
  const DynTypedNode &Parent = Above[0];
  if (const auto *Variable = Parent.get<VarDecl>())
    return !utils::bindsMutably(Variable->getType());
  const auto *P = Parent.get<Expr>();
  if (!P)
    return false;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) {
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
      return true;
    case CK_NoOp:
    case CK_UncheckedDerivedToBase:
    case CK_DerivedToBase:
      return isOnlyRead(P, Parents, Depth + 1);
    case CK_ArrayToPointerDecay: {
      // `table[i]`: an element, read or written.
      auto Up = Parents.get(*P);
      if (Up.size() == 1)
        if (const auto *Subscript = Up[0].get<ArraySubscriptExpr>())
          return Subscript->getBase() == P &&
                 isOnlyRead(Subscript, Parents, Depth + 1);
      return isa<PointerType>(P->getType()) &&
             P->getType()->getPointeeType().isConstQualified() &&
             isOnlyRead(P, Parents, Depth + 1);
    }
    default:
      return false;
    }
  }
  if (isa<ParenExpr, MaterializeTemporaryExpr>(P))
    return isOnlyRead(P, Parents, Depth + 1);
  if (const auto *Member = dyn_cast<MemberExpr>(P)) {
    if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
      return Field && isOnlyRead(P, Parents, Depth + 1);
    auto Up = Parents.get(*P);
    const auto *Call =
        Up.size() == 1 ? Up[0].get<CXXMemberCallExpr>() : nullptr;
    const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
    if (!Call || !Method)
      return false;
    if (Method->isConst())
      return true;
    if (Method->getIdentifier() && Method->getName() == "data")
      return isCopiedAtOnce(Call, Parents);
    // `v.at(i)`, `v.front()` on a mutable vector: an element.
    return Method->getIdentifier() &&
           (Method->getName() == "at" || Method->getName() == "front" ||
            Method->getName() == "back") &&
           isOnlyRead(Call, Parents, Depth + 1);
  }
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(P)) {
    if (Operator->getNumArgs() > 0 && Operator->getArg(0) == E) {
      if (Operator->getOperator() == OO_Subscript)
        return isOnlyRead(P, Parents, Depth + 1);
      if (const auto *Method =
              dyn_cast_or_null<CXXMethodDecl>(Operator->getDirectCallee()))
        return Method->isConst();
    }
    const ParmVarDecl *Parameter = utils::parameterOfArgument(P, E);
    return Parameter && !utils::bindsMutably(Parameter->getType());
  }
  if (isa<CallExpr, CXXConstructExpr>(P)) {
    const ParmVarDecl *Parameter = utils::parameterOfArgument(P, E);
    return Parameter && !utils::bindsMutably(Parameter->getType());
  }
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(P))
    return Subscript->getBase() != E || isOnlyRead(P, Parents, Depth + 1);
  if (const auto *Unary = dyn_cast<UnaryOperator>(P))
    return !Unary->isIncrementDecrementOp() && Unary->getOpcode() != UO_AddrOf;
  if (const auto *Binary = dyn_cast<BinaryOperator>(P))
    return !Binary->isAssignmentOp() || Binary->getRHS() == E;
  return false;
}

/// \p Ref starts an alias of the table: its address, or a pointer or a
/// mutable reference initialized from it (or from a part of it).
bool makesAlias(const DeclRefExpr *Ref, const utils::UserCodeParents &Parents) {
  bool Alias = false;
  unsigned Hops = 0;
  utils::forEachAncestor(
      DynTypedNode::create(*Ref), Parents,
      [&](const DynTypedNode &Above, const DynTypedNode &Below) {
        if (Hops++ == ParentHops::AliasOfTable)
          return false;
        const auto *Child = Below.get<Stmt>();
        if (const auto *Variable = Above.get<VarDecl>()) {
          Alias = utils::bindsMutably(Variable->getType()) ||
                  (Variable->getType()->isRecordType() &&
                   !isa<DeclRefExpr>(Child)); // an iterator, a span
          return false;
        }
        const auto *Parent = Above.get<Expr>();
        if (!Parent)
          return false;
        if (const auto *Unary = dyn_cast<UnaryOperator>(Parent);
            Unary && Unary->getOpcode() == UO_AddrOf) {
          Alias = true;
          return false;
        }
        if (isa<LambdaExpr>(Parent))
          return false; // its body's uses are checked where they are
        return isa<ImplicitCastExpr, ParenExpr, MemberExpr, CXXMemberCallExpr,
                   ArraySubscriptExpr, CXXOperatorCallExpr>(Parent);
      });
  return Alias;
}

bool contains(SourceRange Range, SourceLocation Loc, const SourceManager &SM) {
  return !SM.isBeforeInTranslationUnit(Loc, Range.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Range.getEnd(), Loc);
}

/// A local table of \p Loop's function, declared before it, that nothing
/// in the loop or in a lambda changes. \p Exempt: the maker's own read.
bool isUnchangedIn(const VarDecl *Table, const Stmt *Loop, const Expr *Exempt,
                   ASTContext &Context, const utils::UserCodeParents &Parents) {
  const SourceManager &SM = Context.getSourceManager();
  const FunctionDecl *Function = utils::enclosingFunction(Loop, Parents);
  if (!Function || !Function->getBody() ||
      Table->getDeclContext() != Function ||
      !SM.isBeforeInTranslationUnit(Table->getLocation(), Loop->getBeginLoc()))
    return false;
  for (const DeclRefExpr *Ref :
       utils::referencesTo(Table, Function->getBody())) {
    if (contains(Exempt->getSourceRange(), Ref->getLocation(), SM))
      continue;
    bool InLoop = contains(Loop->getSourceRange(), Ref->getLocation(), SM);
    bool InLambda = utils::enclosingCallable(Ref, Parents) != Function;
    if (InLoop || InLambda ? !isOnlyRead(Ref, Parents)
                           : makesAlias(Ref, Parents))
      return false;
  }
  return true;
}

} // namespace

std::optional<ConstantHostTable>
constantHostTableCopied(const Expr *CopySource, const Stmt *Loop,
                        ASTContext &Context,
                        const utils::UserCodeParents &Parents) {
  const Expr *E = utils::stripWrappers(CopySource);
  if (const CXXMethodDecl *Method = tensorMethodCalled(E);
      Method && Method->getIdentifier() &&
      (Method->getName() == "clone" || Method->getName() == "contiguous"))
    E = utils::stripWrappers(
        cast<CXXMemberCallExpr>(E)->getImplicitObjectArgument());
  const auto *Maker = dyn_cast_or_null<CallExpr>(E);
  if (!Maker || Maker->getNumArgs() == 0)
    return std::nullopt;
  const VarDecl *Table = nullptr;
  if (isCalled(Maker, "tensor") && isConstantList(Maker->getArg(0), Context))
    return ConstantHostTable{Maker, nullptr, Maker->getArg(0)};
  if (isCalled(Maker, "tensor"))
    Table = namedVariable(Maker->getArg(0));
  else if (isCalled(Maker, "from_blob"))
    Table = pointedVariable(Maker->getArg(0));
  if (!Table || isa<ParmVarDecl>(Table) || Table->getType()->isReferenceType())
    return std::nullopt;
  ConstantHostTable Result{Maker, Table};
  if (Table->isConstexpr())
    return Result;
  if (isConstData(Table, Context)) {
    if (!Table->hasLocalStorage())
      return Result; // static const, a namespace-scope constant
    // A local constant declared in the loop may be computed per iteration.
    if (Loop && Context.getSourceManager().isBeforeInTranslationUnit(
                    Table->getLocation(), Loop->getBeginLoc()))
      return Result;
    return std::nullopt;
  }
  if (!Loop || !Table->hasLocalStorage())
    return std::nullopt;
  if (isUnchangedIn(Table, Loop, Maker->getArg(0), Context, Parents))
    return Result;
  return std::nullopt;
}

} // namespace clang::tidy::libtorch::analysis
