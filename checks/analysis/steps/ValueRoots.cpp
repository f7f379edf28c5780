//===--- ValueRoots.cpp - What a value may share state with ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/ValueRoots.h"
#include "analysis/steps/OuterWrites.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "utils/CallArguments.h"
#include "utils/UserCode.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// How deep the walk into one expression goes before it answers "reaches
/// something not followed".
constexpr unsigned MaxExprDepth = 64;

/// The class that \p Type holds: through references, pointers and
/// `std::shared_ptr` / `std::unique_ptr`; null for anything else.
const CXXRecordDecl *heldRecord(QualType Type) {
  for (unsigned Steps = 0; Steps < 4 && !Type.isNull(); ++Steps) {
    Type = Type.getNonReferenceType();
    if (Type->isPointerType()) {
      Type = Type->getPointeeType();
      continue;
    }
    const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
    const auto *Smart =
        dyn_cast_or_null<ClassTemplateSpecializationDecl>(Record);
    if (Smart && Smart->getIdentifier() &&
        (Smart->getName() == "shared_ptr" ||
         Smart->getName() == "unique_ptr") &&
        Smart->getTemplateArgs().size() > 0 &&
        Smart->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
      Type = Smart->getTemplateArgs()[0].getAsType();
      continue;
    }
    return Record;
  }
  return nullptr;
}

/// LibTorch functions and tensor methods whose result may share the storage
/// of their tensor (the object, or a free function's first argument):
/// views, and in-place operations, which return the tensor itself.
bool returnsView(const FunctionDecl *Function) {
  if (!Function->getIdentifier())
    return true;
  llvm::StringRef Name = Function->getName();
  if (Name.ends_with("_"))
    return true;
  static constexpr llvm::StringRef Views[] = {"accessor",
                                              "adjoint",
                                              "alias",
                                              "as_strided",
                                              "broadcast_to",
                                              "chunk",
                                              "contiguous",
                                              "cpu",
                                              "cuda",
                                              "data",
                                              "data_ptr",
                                              "detach",
                                              "diagonal",
                                              "dsplit",
                                              "expand",
                                              "expand_as",
                                              "flatten",
                                              "from_blob",
                                              "generic_packed_accessor",
                                              "H",
                                              "hsplit",
                                              "imag",
                                              "index",
                                              "indices",
                                              "mH",
                                              "movedim",
                                              "moveaxis",
                                              "mT",
                                              "mutable_data_ptr",
                                              "narrow",
                                              "packed_accessor32",
                                              "packed_accessor64",
                                              "permute",
                                              "ravel",
                                              "real",
                                              "reshape",
                                              "reshape_as",
                                              "select",
                                              "slice",
                                              "split",
                                              "split_with_sizes",
                                              "squeeze",
                                              "swapaxes",
                                              "swapdims",
                                              "t",
                                              "T",
                                              "tensor_split",
                                              "to",
                                              "toType",
                                              "type_as",
                                              "unbind",
                                              "unflatten",
                                              "unfold",
                                              "unsqueeze",
                                              "values",
                                              "variable_data",
                                              "view",
                                              "view_as",
                                              "view_as_complex",
                                              "view_as_real",
                                              "vsplit"};
  return llvm::is_contained(Views, Name);
}

void addRoots(const Expr *E, Roots &R, bool AllLocals, unsigned Depth);

void addCallRoots(const CallExpr *Call, Roots &R, bool AllLocals,
                  unsigned Depth) {
  CallParts Parts = callParts(Call);
  auto Arguments = [&] {
    for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I)
      addRoots(Call->getArg(I), R, AllLocals, Depth + 1);
  };
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee) {
    // A call through a pointer or on a dependent type: anything it was
    // given, or anything at all if it returns a reference.
    addRoots(Call->getCallee(), R, AllLocals, Depth + 1);
    Arguments();
    R.Outer |= Call->isGLValue();
    return;
  }
  // LibTorch's modules return new tensors; a user module's forward may
  // return what it was given.
  if (isModuleForwardCall(Call)) {
    llvm::SmallVector<const FunctionDecl *, 2> Forwards;
    if (!forwardsOf(Call, Forwards) ||
        llvm::any_of(Forwards, [](const FunctionDecl *F) {
          return utils::isUserCode(F);
        }))
      Arguments();
    return;
  }
  if (Parts.Object && isTensorType(Parts.ObjectType)) {
    // A tensor method makes a new tensor, except a view or an in-place
    // operation (the tensor itself); `x[i]` and `x = y` give x.
    const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
    if (Operator ? Operator->getOperator() == OO_Subscript || Call->isGLValue()
                 : returnsView(Callee))
      addRoots(Parts.Object, R, AllLocals, Depth + 1);
    if (isNamed(Callee, "set_"))
      Arguments();
    return;
  }
  if (Parts.Object) {
    // A container's element, an iterator, a getter give out what the
    // object holds; what the arguments hold may come back.
    addRoots(Parts.Object, R, AllLocals, Depth + 1);
    Arguments();
    return;
  }
  if (!utils::isUserCode(Callee)) {
    // LibTorch's tensor functions make new tensors, except views and
    // in-place operations (their first argument); other library functions
    // (std::move, std::make_shared) may return what they were given.
    if (isTensorType(Call->getType()) && Call->isPRValue()) {
      if (Callee->getIdentifier() && returnsView(Callee) &&
          Call->getNumArgs() > 0)
        addRoots(Call->getArg(0), R, AllLocals, Depth + 1);
      return;
    }
    Arguments();
    return;
  }
  // A function of this TU may return any of its arguments, and a reference
  // or pointer to anything.
  Arguments();
  R.Outer |= Call->isGLValue() || Call->getType()->isPointerType();
}

/// Adds what \p E may share state with to \p R: the local variables it
/// names whose type can share state (with \p AllLocals, every local it
/// names as an lvalue, whatever its type), through views, elements,
/// members, pointers and the calls that may return them.
void addRoots(const Expr *E, Roots &R, bool AllLocals, unsigned Depth) {
  if (!E)
    return;
  if (Depth > MaxExprDepth) {
    R.Outer = true;
    return;
  }
  E = utils::stripWrappers(E);
  // A number, a device, a string made here shares nothing.
  if (E->isPRValue() && !canShare(E->getType()))
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = Ref->getDecl();
    const auto *Var = dyn_cast<VarDecl>(D);
    if (!Var && !isa<BindingDecl>(D))
      return; // a function, an enumerator
    bool Shares = canShare(D->getType());
    if (Var && Var->hasLocalStorage()) {
      if (Shares || AllLocals)
        R.Vars.push_back(Var);
    } else if (Shares) {
      // A global, a static local, a structured binding: not followed.
      R.Outer = true;
    }
    return;
  }
  if (isa<CXXThisExpr>(E)) {
    R.Outer = true;
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return addCallRoots(Call, R, AllLocals, Depth);
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->isAssignmentOp())
      return addRoots(Binary->getLHS(), R, AllLocals, Depth + 1);
    if (Binary->getOpcode() == BO_Comma)
      return addRoots(Binary->getRHS(), R, AllLocals, Depth + 1);
  }
  if (const auto *Conditional = dyn_cast<AbstractConditionalOperator>(E)) {
    addRoots(Conditional->getTrueExpr(), R, AllLocals, Depth + 1);
    addRoots(Conditional->getFalseExpr(), R, AllLocals, Depth + 1);
    return;
  }
  if (isa<CXXDefaultArgExpr, CXXDefaultInitExpr>(E))
    return;
  // Anything else (members, subscripts, `&x`, `*p`, casts, constructions,
  // initializer lists, a lambda's captures): what its operands share.
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      addRoots(ChildExpr, R, AllLocals, Depth + 1);
}

} // namespace

bool isOptimizer(QualType Type) {
  return isSameOrDerivedFrom(heldRecord(Type), names::Optimizer);
}

bool trainsWhatBuildsIt(QualType Type) {
  return isOptimizer(Type) ||
         isSameOrDerivedFrom(heldRecord(Type), names::OptimizerParamGroup);
}

bool canShare(QualType Type) {
  if (Type.isNull())
    return true;
  Type = Type.getNonReferenceType();
  return Type->isPointerType() || mayHoldTensors(Type) || isOptimizer(Type);
}

CallParts callParts(const CallExpr *Call) {
  CallParts Parts;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    Parts.Object = Member->getImplicitObjectArgument();
    Parts.ObjectType = Member->getObjectType();
  } else if (utils::objectArgumentCount(Call) == 1) {
    Parts.Object = Call->getArg(0);
    Parts.ObjectType = Parts.Object->getType();
    Parts.First = 1;
  }
  return Parts;
}

bool forwardsOf(const CallExpr *Call,
                llvm::SmallVectorImpl<const FunctionDecl *> &Found) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (const CXXMethodDecl *Method = Member->getMethodDecl())
      Found.push_back(Method);
    return !Found.empty();
  }
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!Method)
    return false;
  if (isSameOrDerivedFrom(Method->getParent(), names::Module)) {
    Found.push_back(Method);
    return true;
  }
  // ModuleHolder<Contained>::operator() calls Contained::forward.
  const auto *Holder =
      dyn_cast<ClassTemplateSpecializationDecl>(Method->getParent());
  if (!Holder || Holder->getTemplateArgs().size() < 1 ||
      Holder->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  const CXXRecordDecl *Contained =
      Holder->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  if (!Contained || !Contained->hasDefinition())
    return false;
  // LibTorch's own modules (Sequential's templated forward included) are
  // LibTorch code: the holder's operator() stands for them.
  if (!utils::isUserCode(Contained)) {
    Found.push_back(Method);
    return true;
  }
  for (const Decl *Member : Contained->getDefinition()->decls()) {
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Member);
        Template && isNamed(Template, "forward"))
      return false;
    if (const auto *Forward = dyn_cast<CXXMethodDecl>(Member);
        Forward && isNamed(Forward, "forward"))
      Found.push_back(Forward);
  }
  return !Found.empty();
}

Roots rootsOf(const Expr *E, bool AllLocals) {
  Roots R;
  addRoots(E, R, AllLocals, 0);
  return R;
}

bool switchesGradientOn(const Expr *E) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->getIdentifier())
        return true;
      llvm::StringRef Name = Callee->getName();
      CallParts Parts = callParts(Call);
      bool Setter = Name == "requires_grad_" || Name == "set_requires_grad" ||
                    // `t.requires_grad()` asks; TensorOptions' sets.
                    (Name == "requires_grad" &&
                     !(Parts.Object && isTensorType(Parts.ObjectType)));
      if (!Setter)
        return true;
      const Expr *Flag = Call->getNumArgs() > Parts.First
                             ? Call->getArg(Parts.First)->IgnoreParenImpCasts()
                             : nullptr;
      const auto *Literal = dyn_cast_or_null<CXXBoolLiteralExpr>(Flag);
      Found |= !Literal || Literal->getValue();
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

} // namespace clang::tidy::libtorch::analysis
