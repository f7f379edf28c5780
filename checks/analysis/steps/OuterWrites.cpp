//===--- OuterWrites.cpp - Tensors a piece of code hands outward ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/OuterWrites.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/CallArguments.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// How deep mayHoldTensors looks into fields, bases and template arguments
/// before it answers "may hold".
constexpr unsigned MaxTypeDepth = 16;

bool holdsTensors(QualType Type, llvm::SmallPtrSetImpl<const Decl *> &Seen,
                  unsigned Depth) {
  if (Type.isNull())
    return true;
  Type = Type.getNonReferenceType().getCanonicalType();
  if (Type->isDependentType())
    return true;
  if (Type->isVoidType() || Type->isArithmeticType() ||
      Type->isEnumeralType() || Type->isNullPtrType() || Type->isFunctionType())
    return false;
  if (const ArrayType *Array = Type->getAsArrayTypeUnsafe())
    return holdsTensors(Array->getElementType(), Seen, Depth);
  if (Type->isPointerType()) {
    QualType Pointee = Type->getPointeeType();
    // `void *` is type-erased storage (std::any, std::function): anything.
    return Pointee->isVoidType() || holdsTensors(Pointee, Seen, Depth);
  }
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return true;
  Record = Record->getDefinition();
  if (isTensorType(Type) || isModuleClass(Record) ||
      isSameOrDerivedFrom(Record, names::IValue))
    return true;
  // Streams keep `void *` words for their users, never tensors.
  if (isSameOrDerivedFrom(Record, names::IosBase))
    return false;
  // A record met again on the way down (a list node pointing to its own
  // kind) adds nothing the first visit does not answer.
  if (!Seen.insert(Record).second)
    return false;
  if (Depth >= MaxTypeDepth)
    return true;
  // Template arguments too: a std::map's nodes are no field of the map.
  if (const auto *Specialization =
          dyn_cast<ClassTemplateSpecializationDecl>(Record)) {
    for (const TemplateArgument &Argument :
         Specialization->getTemplateArgs().asArray()) {
      if (Argument.getKind() == TemplateArgument::Type &&
          holdsTensors(Argument.getAsType(), Seen, Depth + 1))
        return true;
      if (Argument.getKind() == TemplateArgument::Pack)
        for (const TemplateArgument &Element : Argument.pack_elements())
          if (Element.getKind() == TemplateArgument::Type &&
              holdsTensors(Element.getAsType(), Seen, Depth + 1))
            return true;
    }
  }
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (holdsTensors(Base.getType(), Seen, Depth + 1))
      return true;
  for (const FieldDecl *Field : Record->fields())
    if (holdsTensors(Field->getType(), Seen, Depth + 1))
      return true;
  return false;
}

class OuterWriteFinder : public RecursiveASTVisitor<OuterWriteFinder> {
public:
  llvm::SmallPtrSet<const VarDecl *, 16> Locals;
  const Stmt *Found = nullptr;

  bool VisitReturnStmt(ReturnStmt *Return) {
    if (Return->getRetValue() &&
        mayHoldTensors(Return->getRetValue()->getType()))
      Found = Return;
    return !Found;
  }
  bool VisitBinaryOperator(BinaryOperator *Binary) {
    if (Binary->isAssignmentOp())
      write(Binary->getLHS(), Binary->getLHS()->getType(), Binary);
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *Unary) {
    if (Unary->isIncrementDecrementOp())
      write(Unary->getSubExpr(), Unary->getSubExpr()->getType(), Unary);
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
    if (Operator && Operator->getNumArgs() > 0 &&
        (Operator->isAssignmentOp() || Operator->getOperator() == OO_PlusPlus ||
         Operator->getOperator() == OO_MinusMinus)) {
      write(Operator->getArg(0), Operator->getArg(0)->getType(), Call);
      return !Found;
    }
    // The object of a member call (the first argument of a member
    // operator) takes in what the arguments hold.
    unsigned Shift = 0;
    const Expr *Object = nullptr;
    QualType ObjectType;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      Object = Member->getImplicitObjectArgument();
      ObjectType = Member->getObjectType();
    } else if (utils::objectArgumentCount(Call) == 1) {
      Object = Call->getArg(0);
      ObjectType = Object->getType();
      Shift = 1;
    }
    const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
    if (Object && Method && !Method->isStatic() &&
        !isModuleClass(Method->getParent())) {
      // LibTorch declares a tensor's in-place operations `const`.
      bool Mutates =
          isTensorType(ObjectType)
              ? Method->getIdentifier() && Method->getName().ends_with("_")
              : !Method->isConst();
      bool TakesTensors = false;
      for (unsigned I = Shift; I < Call->getNumArgs(); ++I)
        TakesTensors |= mayHoldTensors(Call->getArg(I)->getType());
      if (Mutates && TakesTensors)
        write(Object, ObjectType, Call);
    }
    for (unsigned I = Shift; I < Call->getNumArgs() && !Found; ++I) {
      const ParmVarDecl *Parameter = utils::parameterOfArgument(Call, I);
      if (!Parameter)
        break;
      QualType Target = writableTarget(Parameter->getType());
      if (!Target.isNull())
        write(Call->getArg(I), Target, Call);
    }
    return !Found;
  }

private:
  void write(const Expr *Target, QualType Type, const Stmt *Where) {
    if (!Found && mayHoldTensors(Type) && isOuter(Target))
      Found = Where;
  }

  /// What \p E designates was declared outside the region (or cannot be
  /// traced to a local of it).
  bool isOuter(const Expr *E) const {
    // Through `*it` or `p->x` a local handle writes where it points.
    bool Dereferenced = false;
    for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
      E = E->IgnoreParens()->IgnoreImplicit()->IgnoreParens();
      if (const auto *Member = dyn_cast<MemberExpr>(E)) {
        Dereferenced |= Member->isArrow();
        E = Member->getBase();
      } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
        E = Subscript->getBase();
      } else if (const auto *Unary = dyn_cast<UnaryOperator>(E);
                 Unary && (Unary->getOpcode() == UO_Deref ||
                           Unary->getOpcode() == UO_AddrOf)) {
        Dereferenced |= Unary->getOpcode() == UO_Deref;
        E = Unary->getSubExpr();
      } else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E);
                 Operator && Operator->getNumArgs() > 0 &&
                 (Operator->getOperator() == OO_Subscript ||
                  Operator->getOperator() == OO_Arrow ||
                  Operator->getOperator() == OO_Star)) {
        Dereferenced |= Operator->getOperator() != OO_Subscript;
        E = Operator->getArg(0);
      } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
        // `outs.back() = y` writes outs, and so do a view of a tensor
        // (`acc.view(-1).add_(y)`) and an iterator (`*outs.begin() = y`);
        // a module's forward returns new values.
        const CXXMethodDecl *Method = Call->getMethodDecl();
        if (!Method ||
            !(Dereferenced || Method->getReturnType()->isReferenceType() ||
              isTensorType(Call->getObjectType())))
          return false;
        E = Call->getImplicitObjectArgument();
      } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
                 Construct && Construct->getNumArgs() == 1 &&
                 Construct->getConstructor()->isCopyOrMoveConstructor()) {
        // `auto local = x;`: a copied tensor shares x's storage.
        E = Construct->getArg(0);
      } else if (isa<CXXThisExpr>(E)) {
        return true;
      } else if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
        const ValueDecl *D = Ref->getDecl();
        if (const auto *Binding = dyn_cast_or_null<BindingDecl>(D))
          D = Binding->getDecomposedDecl();
        const auto *Variable = dyn_cast_or_null<VarDecl>(D);
        if (!Variable)
          return D && !isa<FunctionDecl>(D);
        if (!Locals.contains(Variable))
          return true;
        // A local handle (reference, pointer, tensor, module holder,
        // iterator) writes where it was bound.
        QualType Type = Variable->getType();
        const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
        if (!(Dereferenced || Type->isReferenceType() ||
              Type->isPointerType() || isTensorType(Type) ||
              isSameOrDerivedFrom(Record, names::ModuleHolder)))
          return false;
        if (!Variable->getInit())
          return Type->isReferenceType();
        E = Variable->getInit();
      } else {
        // A temporary is the region's own; an lvalue a call returned may
        // be anything.
        return !E->isPRValue();
      }
    }
    return true;
  }
};

} // namespace

QualType writableTarget(QualType Parameter) {
  QualType Target;
  if (const auto *Reference = Parameter->getAs<LValueReferenceType>())
    Target = Reference->getPointeeType();
  else if (Parameter->isPointerType())
    Target = Parameter->getPointeeType();
  if (Target.isNull() || Target.isConstQualified())
    return QualType();
  return Target;
}

bool mayHoldTensors(QualType Type) {
  llvm::SmallPtrSet<const Decl *, 16> Seen;
  return holdsTensors(Type, Seen, 0);
}

const Stmt *findOuterTensorWrite(const Stmt *Region) {
  if (!Region)
    return nullptr;
  struct LocalCollector : RecursiveASTVisitor<LocalCollector> {
    llvm::SmallPtrSetImpl<const VarDecl *> &Locals;
    explicit LocalCollector(llvm::SmallPtrSetImpl<const VarDecl *> &Locals)
        : Locals(Locals) {}
    bool VisitVarDecl(VarDecl *Variable) {
      Locals.insert(Variable);
      return true;
    }
  };
  OuterWriteFinder Finder;
  LocalCollector(Finder.Locals).TraverseStmt(const_cast<Stmt *>(Region));
  Finder.TraverseStmt(const_cast<Stmt *>(Region));
  return Finder.Found;
}

} // namespace clang::tidy::libtorch::analysis
