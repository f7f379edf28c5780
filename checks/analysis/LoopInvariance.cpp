//===--- LoopInvariance.cpp - Values a loop never changes -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LoopInvariance.h"
#include "GradModeFacts.h"
#include "LibTorchCalls.h"
#include "LibTorchNames.h"
#include "OuterWrites.h"
#include "UserCode.h"
#include "utils/AstWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace clang::tidy::libtorch::analysis {

namespace {

constexpr char OptimizerParamGroup[] = "::torch::optim::OptimizerParamGroup";
/// How deep the walk into one expression goes before it answers "reaches
/// something not followed".
constexpr unsigned MaxExprDepth = 64;

using VarSet = llvm::SmallPtrSet<const VarDecl *, 8>;

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

bool isOptimizer(QualType Type) {
  return isSameOrDerivedFrom(heldRecord(Type), names::Optimizer);
}

/// An optimizer or a parameter group: what a tensor named in its
/// construction is trained by.
bool trainsWhatBuildsIt(QualType Type) {
  return isOptimizer(Type) ||
         isSameOrDerivedFrom(heldRecord(Type), OptimizerParamGroup);
}

/// A value of \p Type (references looked through) can share state with
/// another: a pointer, anything that may hold a tensor, an optimizer.
/// Numbers, devices and strings are copies.
bool canShare(QualType Type) {
  if (Type.isNull())
    return true;
  Type = Type.getNonReferenceType();
  return Type->isPointerType() || mayHoldTensors(Type) || isOptimizer(Type);
}

bool isNamed(const NamedDecl *D, llvm::StringRef Name) {
  return D && D->getIdentifier() && D->getName() == Name;
}

bool isSystem(const Decl *D) {
  return !isUserCode(D, D->getASTContext().getSourceManager());
}

/// LibTorch functions and tensor methods whose result may share the storage
/// of their tensor (the object, or a free function's first argument):
/// views, and in-place operations, which return the tensor itself.
bool returnsView(const FunctionDecl *Function) {
  if (!Function->getIdentifier())
    return true;
  llvm::StringRef Name = Function->getName();
  if (Name.endswith("_"))
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

/// What an expression may share state with.
struct Roots {
  /// Local variables and parameters.
  llvm::SmallVector<const VarDecl *, 4> Vars;
  /// Something not followed: a member, a global, what a function of this
  /// TU returns by reference.
  bool Outer = false;

  bool empty() const { return Vars.empty() && !Outer; }
  bool meets(const VarSet &Set) const {
    return llvm::any_of(Vars,
                        [&](const VarDecl *V) { return Set.contains(V); });
  }
  void add(const Roots &Other) {
    Vars.append(Other.Vars.begin(), Other.Vars.end());
    Outer |= Other.Outer;
  }
};

/// The object of a member call or member operator call, its type, and the
/// index of the first argument that is no object.
struct CallParts {
  const Expr *Object = nullptr;
  QualType ObjectType;
  unsigned First = 0;
};

CallParts callParts(const CallExpr *Call) {
  CallParts Parts;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    Parts.Object = Member->getImplicitObjectArgument();
    Parts.ObjectType = Member->getObjectType();
  } else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call)) {
    const auto *Method =
        dyn_cast_or_null<CXXMethodDecl>(Operator->getDirectCallee());
    if (Method && !Method->isStatic() && Operator->getNumArgs() > 0) {
      Parts.Object = Operator->getArg(0);
      Parts.ObjectType = Parts.Object->getType();
      Parts.First = 1;
    }
  }
  return Parts;
}

/// The `forward` methods that the module forward call \p Call runs: the
/// method itself for `m->forward(x)`, the contained module's overloads for
/// `m(x)` on a holder (its operator() for a LibTorch module). False when
/// they cannot be told (a user module's templated or inherited forward).
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
  if (isSystem(Contained)) {
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
        llvm::any_of(Forwards,
                     [](const FunctionDecl *F) { return !isSystem(F); }))
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
  if (isSystem(Callee)) {
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

Roots rootsOf(const Expr *E, bool AllLocals = false) {
  Roots R;
  addRoots(E, R, AllLocals, 0);
  return R;
}

/// `requires_grad_()`, `set_requires_grad(...)` or `torch::requires_grad()`
/// anywhere in \p E, unless given a literal `false`.
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

/// State may go from the sources to the targets, or back: after it, they
/// share it.
struct Flow {
  Roots Targets;
  Roots Sources;
};

/// An argument given to a function that may keep it.
struct Passed {
  const CallExpr *Call;
  unsigned Index;
  Roots Argument;
};

/// What one function does with its variables, for the aliases of any of
/// them.
struct FunctionFacts {
  std::vector<Flow> Flows;
  std::vector<Passed> Passes;
  /// Named in an optimizer's construction, or with gradients switched on.
  Roots Trained;
  llvm::SmallVector<const Stmt *, 4> LambdaBodies;
};

/// A parameter of this type lets the callee write the caller's object: a
/// non-const lvalue reference or a pointer to non-const.
bool writableThrough(QualType Parameter) {
  QualType Target;
  if (const auto *Reference = Parameter->getAs<LValueReferenceType>())
    Target = Reference->getPointeeType();
  else if (Parameter->isPointerType())
    Target = Parameter->getPointeeType();
  return !Target.isNull() && !Target.isConstQualified();
}

class FactCollector : public RecursiveASTVisitor<FactCollector> {
public:
  explicit FactCollector(FunctionFacts &Facts) : Facts(Facts) {}

  bool VisitVarDecl(VarDecl *Var) {
    if (isa<ParmVarDecl>(Var) || !Var->getInit())
      return true;
    if (canShare(Var->getType()))
      addFlow(Var, Var->getInit());
    if (switchesGradientOn(Var->getInit()))
      Facts.Trained.Vars.push_back(Var);
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *For) {
    // The loop variable is an element of the range (its own initializer,
    // `*__begin`, names an iterator the traversal does not show).
    if (VarDecl *Var = For->getLoopVariable();
        Var && For->getRangeInit() && canShare(Var->getType()))
      addFlow(Var, For->getRangeInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->getOpcode() == BO_Assign && canShare(Op->getLHS()->getType()))
      addFlow(Op->getLHS(), Op->getRHS());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    Facts.LambdaBodies.push_back(Lambda->getBody());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    if (trainsWhatBuildsIt(Construct->getType()))
      for (const Expr *Argument : Construct->arguments())
        addRoots(Argument, Facts.Trained, false, 0);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    CallParts Parts = callParts(Call);
    bool Forward = isModuleForwardCall(Call);
    const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
    if (Operator && Operator->getOperator() == OO_Equal &&
        Operator->getNumArgs() == 2 && canShare(Operator->getArg(0)->getType()))
      addFlow(Operator->getArg(0), Operator->getArg(1));
    // Optimizers built by a call (`std::make_shared<Adam>(...)`), parameter
    // groups added later, gradients switched on.
    if (trainsWhatBuildsIt(Call->getType()) ||
        isNamed(Callee, "add_param_group"))
      for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I)
        addRoots(Call->getArg(I), Facts.Trained, false, 0);
    if (Parts.Object && isTensorType(Parts.ObjectType) &&
        (isNamed(Callee, "requires_grad_") ||
         isNamed(Callee, "set_requires_grad")) &&
        switchesGradientOn(Call))
      addRoots(Parts.Object, Facts.Trained, false, 0);
    if (Forward) {
      // A forward pass stores nothing in its module and binds its inputs to
      // the holder's forwarding references: only its `forward` is read.
      passes(Call, Parts);
      return true;
    }
    // A method that may store what it is given in its object: a
    // container's push_back, an optimizer's add_param_group, a tensor's
    // set_.
    if (Parts.Object && storesArguments(Callee, Parts.ObjectType)) {
      Flow F;
      F.Targets = rootsOf(Parts.Object);
      for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I)
        F.Sources.add(rootsOf(Call->getArg(I)));
      if (!F.Sources.empty())
        Facts.Flows.push_back(std::move(F));
    }
    // An argument bound to a non-const reference may be made to share what
    // the other arguments hold (`std::swap`, an out-parameter).
    if (Callee)
      for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I) {
        unsigned Index = I - Parts.First;
        if (Index >= Callee->getNumParams() ||
            !writableThrough(Callee->getParamDecl(Index)->getType()))
          continue;
        Flow F;
        F.Targets = rootsOf(Call->getArg(I));
        if (Parts.Object)
          F.Sources.add(rootsOf(Parts.Object));
        for (unsigned J = Parts.First; J < Call->getNumArgs(); ++J)
          if (J != I)
            F.Sources.add(rootsOf(Call->getArg(J)));
        if (!F.Sources.empty() && !F.Targets.empty())
          Facts.Flows.push_back(std::move(F));
      }
    passes(Call, Parts);
    return true;
  }

private:
  void addFlow(const VarDecl *Target, const Expr *Source) {
    Flow F;
    if (Target->hasLocalStorage())
      F.Targets.Vars.push_back(Target);
    else
      F.Targets.Outer = true;
    F.Sources = rootsOf(Source);
    Facts.Flows.push_back(std::move(F));
  }
  void addFlow(const Expr *Target, const Expr *Source) {
    Flow F;
    F.Targets = rootsOf(Target);
    F.Sources = rootsOf(Source);
    Facts.Flows.push_back(std::move(F));
  }
  static bool storesArguments(const FunctionDecl *Callee, QualType Object) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (!Method)
      return true;
    if (isTensorType(Object))
      return isNamed(Method, "set_") || isNamed(Method, "set_data");
    return !Method->isStatic() && !Method->isConst();
  }
  /// Records the arguments that hold something, for the callees that may
  /// keep them.
  void passes(const CallExpr *Call, const CallParts &Parts) {
    for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I)
      if (Roots R = rootsOf(Call->getArg(I)); !R.empty())
        Facts.Passes.push_back({Call, I - Parts.First, std::move(R)});
  }

  FunctionFacts &Facts;
};

/// The function whose local \p Variable is, if it has a body.
const FunctionDecl *functionOf(const VarDecl *Variable) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
  return Function && Function->getBody() ? Function : nullptr;
}

FunctionFacts collectFacts(const FunctionDecl *Function) {
  FunctionFacts Facts;
  FactCollector(Facts).TraverseStmt(Function->getBody());
  return Facts;
}

/// A variable and its aliases in its function.
struct Aliases {
  VarSet Vars;
  /// Stored where this analysis does not follow it.
  bool Escapes = false;
  /// Trained by an optimizer, or with gradients switched on.
  bool Trained = false;
  llvm::SmallVector<const Stmt *, 4> LambdaBodies;
};

Aliases aliasesOf(const VarDecl *Variable, unsigned Depth);

/// What \p Callee does with its parameter \p Index may change the caller's
/// argument (\p KeepOnly: may keep it beyond its own locals).
bool calleeChanges(const FunctionDecl *Callee, unsigned Index, unsigned Depth,
                   bool KeepOnly);

/// The callees of \p Call: its direct callee, or the `forward` methods a
/// module call runs. False when they cannot be told.
bool calleesOf(const CallExpr *Call,
               llvm::SmallVectorImpl<const FunctionDecl *> &Found) {
  if (isModuleForwardCall(Call))
    return forwardsOf(Call, Found);
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    Found.push_back(Callee);
  return !Found.empty();
}

/// Giving argument \p Index to \p Call may store it beyond the caller's
/// locals.
bool mayKeep(const CallExpr *Call, unsigned Index, unsigned Depth) {
  llvm::SmallVector<const FunctionDecl *, 2> Callees;
  if (!calleesOf(Call, Callees))
    return true;
  return llvm::any_of(Callees, [&](const FunctionDecl *Callee) {
    // LibTorch and the standard library keep what their objects or results
    // hold, which the flows follow; a module's forward or a function of
    // this TU is read.
    if (isSystem(Callee))
      return false;
    return calleeChanges(Callee, Index, Depth + 1, /*KeepOnly=*/true);
  });
}

Aliases aliasesOf(const VarDecl *Variable, unsigned Depth) {
  Aliases A;
  A.Vars.insert(Variable);
  const FunctionDecl *Function = functionOf(Variable);
  if (!Function || !Variable->hasLocalStorage()) {
    A.Escapes = true;
    return A;
  }
  FunctionFacts Facts = collectFacts(Function);
  for (bool Grew = true; Grew && !A.Escapes;) {
    Grew = false;
    for (const Flow &F : Facts.Flows) {
      if (!F.Targets.meets(A.Vars) && !F.Sources.meets(A.Vars))
        continue;
      if (F.Targets.Outer || F.Sources.Outer) {
        A.Escapes = true;
        break;
      }
      for (const VarDecl *Other : F.Targets.Vars)
        Grew |= A.Vars.insert(Other).second;
      for (const VarDecl *Other : F.Sources.Vars)
        Grew |= A.Vars.insert(Other).second;
    }
  }
  if (A.Escapes)
    return A;
  for (const Passed &P : Facts.Passes)
    if (P.Argument.meets(A.Vars) &&
        (P.Argument.Outer || mayKeep(P.Call, P.Index, Depth))) {
      A.Escapes = true;
      return A;
    }
  A.Trained = Facts.Trained.meets(A.Vars);
  A.LambdaBodies = std::move(Facts.LambdaBodies);
  return A;
}

class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  WriteFinder(const VarSet &Vars, unsigned Depth) : Vars(Vars), Depth(Depth) {}
  bool Found = false;

  bool VisitBinaryOperator(BinaryOperator *Op) {
    Found |= Op->isAssignmentOp() && touches(Op->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    Found |= (Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf) &&
             touches(Op->getSubExpr());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    Found |= callWrites(Call);
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Constructor = Construct->getConstructor();
    for (unsigned I = 0; I < Construct->getNumArgs() && !Found; ++I)
      Found |= touches(Construct->getArg(I)) &&
               argumentWritten(Constructor, I, Construct->getArg(I));
    return !Found;
  }

private:
  bool touches(const Expr *E) const {
    return rootsOf(E, /*AllLocals=*/true).meets(Vars);
  }

  bool callWrites(const CallExpr *Call) const {
    const FunctionDecl *Callee = Call->getDirectCallee();
    CallParts Parts = callParts(Call);
    const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
    if (Operator && Operator->getNumArgs() > 0 &&
        (Operator->isAssignmentOp() || Operator->getOperator() == OO_PlusPlus ||
         Operator->getOperator() == OO_MinusMinus) &&
        touches(Operator->getArg(0)))
      return true;
    if (Parts.Object && touches(Parts.Object) &&
        mutatesObject(Call, Callee, Parts.ObjectType))
      return true;
    if (isModuleForwardCall(Call)) {
      llvm::SmallVector<const FunctionDecl *, 2> Forwards;
      bool Known = forwardsOf(Call, Forwards);
      for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I) {
        if (!touches(Call->getArg(I)))
          continue;
        if (!Known)
          return true;
        // LibTorch's modules do not write their inputs.
        for (const FunctionDecl *Forward : Forwards)
          if (!isSystem(Forward) &&
              calleeChanges(Forward, I - Parts.First, Depth + 1, false))
            return true;
      }
      return false;
    }
    for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I)
      if (touches(Call->getArg(I)) &&
          argumentWritten(Callee, I - Parts.First, Call->getArg(I)))
        return true;
    return false;
  }

  static bool mutatesObject(const CallExpr *Call, const FunctionDecl *Callee,
                            QualType Object) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (!Method)
      return true;
    // LibTorch declares a tensor's in-place operations `const`.
    if (isTensorType(Object))
      return Method->getIdentifier() && (Method->getName().endswith("_") ||
                                         Method->getName().startswith("set_"));
    return !Method->isStatic() && !Method->isConst();
  }

  /// Argument \p Index (\p Argument) of a call of \p Callee may be written.
  bool argumentWritten(const FunctionDecl *Callee, unsigned Index,
                       const Expr *Argument) const {
    if (!Callee || Index >= Callee->getNumParams())
      return canShare(Argument->getType()) ||
             Argument->getType()->isReferenceType();
    QualType Parameter = Callee->getParamDecl(Index)->getType();
    if (isSystem(Callee))
      return writableThrough(Parameter) ||
             (Callee->getIdentifier() && Callee->getName().endswith("_"));
    return calleeChanges(Callee, Index, Depth + 1, false);
  }

  const VarSet &Vars;
  unsigned Depth;
};

bool writesAny(const VarSet &Vars, const Stmt *Region, unsigned Depth) {
  if (!Region)
    return false;
  WriteFinder Finder(Vars, Depth);
  Finder.TraverseStmt(const_cast<Stmt *>(Region));
  return Finder.Found;
}

bool calleeChanges(const FunctionDecl *Callee, unsigned Index, unsigned Depth,
                   bool KeepOnly) {
  const FunctionDecl *Definition = Callee->getDefinition();
  if (!Definition || !Definition->getBody() ||
      Index >= Definition->getNumParams())
    return true;
  const ParmVarDecl *Parameter = Definition->getParamDecl(Index);
  // A number or a string taken by value is the callee's own copy; what a
  // non-const reference or pointer is bound to is the callee's to write.
  QualType Type = Parameter->getType();
  if (!Type->isReferenceType() && !canShare(Type))
    return false;
  if (!KeepOnly && writableThrough(Type))
    return true;
  if (Depth > LoopInvarianceCallDepth)
    return true;
  Aliases A = aliasesOf(Parameter, Depth);
  if (A.Escapes)
    return true;
  if (KeepOnly)
    return false;
  if (A.Trained || writesAny(A.Vars, Definition->getBody(), Depth))
    return true;
  return llvm::any_of(A.LambdaBodies, [&](const Stmt *Body) {
    return writesAny(A.Vars, Body, Depth);
  });
}

/// \p Needle is \p Haystack or inside it.
bool holdsStatement(const Stmt *Haystack, const Stmt *Needle) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Stmt *Needle;
    bool Found = false;
    bool VisitStmt(Stmt *S) {
      Found |= S == Needle;
      return !Found;
    }
  } F;
  F.Needle = Needle;
  F.TraverseStmt(const_cast<Stmt *>(Haystack));
  return F.Found;
}

/// \p Region declares \p Variable.
bool declares(const Stmt *Region, const VarDecl *Variable) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Variable;
    bool Found = false;
    bool VisitVarDecl(VarDecl *Var) {
      Found |= Var == Variable;
      return !Found;
    }
  } F;
  F.Variable = Variable;
  F.TraverseStmt(const_cast<Stmt *>(Region));
  return F.Found;
}

/// \p Loop names an optimizer, and every one it names is a local variable
/// (not a parameter, member or call result): what its steps update was
/// built in this function, from tensors the flows see.
bool stepsOnlyLocalOptimizers(const Stmt *Loop) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Local = false;
    bool Other = false;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (!isOptimizer(Ref->getType()))
        return true;
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var))
        Local = true;
      else
        Other = true;
      return !Other;
    }
    bool VisitMemberExpr(MemberExpr *Member) {
      Other |= isOptimizer(Member->getType());
      return !Other;
    }
    bool VisitCallExpr(CallExpr *Call) {
      Other |= isOptimizer(Call->getType());
      return !Other;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  return F.Local && !F.Other;
}

} // namespace

bool isWrittenIn(const VarDecl *Variable, const Stmt *Region) {
  if (!Variable)
    return true;
  VarSet Vars;
  Vars.insert(Variable);
  return writesAny(Vars, Region, 0);
}

bool isLoopInvariant(const Expr *E, const Stmt *Loop) {
  if (!E || !Loop)
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(
      utils::stripWrappers(E, utils::ImplicitWrappers | utils::CopyConstruct));
  const auto *Variable = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // A member, a global or a static local may be changed by any code the
  // loop calls: only locals and parameters are followed.
  if (!Variable || !Variable->hasLocalStorage())
    return false;
  // Declared in the loop, it is made again on every iteration; declared in
  // a lambda or a function the loop is not in, it is not this loop's.
  const FunctionDecl *Function = functionOf(Variable);
  if (!Function || !holdsStatement(Function->getBody(), Loop) ||
      declares(Loop, Variable))
    return false;
  Aliases A = aliasesOf(Variable, 0);
  if (A.Escapes || A.Trained || writesAny(A.Vars, Loop, 0) ||
      llvm::any_of(A.LambdaBodies, [&](const Stmt *Body) {
        return writesAny(A.Vars, Body, 0);
      }))
    return false;
  // A parameter may be a tensor the caller gave to an optimizer that the
  // loop steps (a number taken by value may not).
  bool HoldsParameter = llvm::any_of(A.Vars, [](const VarDecl *Var) {
    return isa<ParmVarDecl>(Var) &&
           (Var->getType()->isReferenceType() || canShare(Var->getType()));
  });
  return !HoldsParameter || stepsOnlyLocalOptimizers(Loop);
}

} // namespace clang::tidy::libtorch::analysis
