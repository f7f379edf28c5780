//===--- ModuleModes.cpp - Which module is trained, evaluated, frozen -----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/gradients/ModuleModes.h"
#include "analysis/devices/ModuleCallChains.h"
#include "analysis/vocabulary/ConvolutionModules.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "utils/CallArguments.h"
#include "utils/CallingContexts.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// A value of \p Type is (or points to) a module: a holder (`Net` from
/// TORCH_MODULE), a Module subclass, a `std::shared_ptr` to one, a
/// torch::jit::Module.
bool isModuleType(QualType Type) {
  Type = Type.getNonReferenceType();
  if (Type->isPointerType())
    Type = Type->getPointeeType();
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record)
    return false;
  if (isModuleClass(Record))
    return true;
  if (const auto *Smart = dyn_cast<ClassTemplateSpecializationDecl>(Record);
      Smart && hasQualifiedName(Smart, names::SharedPtr) &&
      Smart->getTemplateArgs().size() >= 1 &&
      Smart->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    return isModuleClass(
        Smart->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl());
  return false;
}

/// A method of a module class (or of torch::jit::Module) named \p Names.
bool isModuleMethod(const CXXMemberCallExpr *Call,
                    std::initializer_list<llvm::StringRef> Names) {
  const CXXMethodDecl *Method = Call->getMethodDecl();
  if (!Method || !Method->getIdentifier())
    return false;
  for (llvm::StringRef Name : Names)
    if (Method->getName() == Name)
      return isModuleClass(Method->getParent());
  return false;
}

/// The module an argument names, when it is one.
const ValueDecl *moduleArgument(const Expr *Argument) {
  const Expr *Value = stripModuleValue(Argument);
  if (!Value || !isModuleType(Value->getType()))
    return nullptr;
  return holderDecl(Value);
}

/// `parameters()` or `named_parameters()` called on a module, or null.
const CXXMemberCallExpr *parametersCall(const Expr *E) {
  const auto *Call =
      dyn_cast_or_null<CXXMemberCallExpr>(E ? E->IgnoreImplicit() : nullptr);
  if (!Call || !isModuleMethod(Call, {"parameters", "named_parameters"}))
    return nullptr;
  return Call;
}

/// \p S calls `requires_grad_` or `set_requires_grad` somewhere.
bool setsRequiresGrad(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      if (const CXXMethodDecl *Method = Call->getMethodDecl();
          Method && Method->getIdentifier() &&
          (Method->getName() == "requires_grad_" ||
           Method->getName() == "set_requires_grad"))
        Found = true;
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// \p Body passes \p Parameter on: as an argument of a call or a
/// constructor (`params.push_back(p)`, `v = p`), not only as the object of
/// its own methods (`p.numel()`).
bool passesOn(const Stmt *Body, const VarDecl *Parameter) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Parameter;
    bool Found = false;
    bool isParameter(const Expr *E) const {
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == Parameter;
    }
    bool VisitCallExpr(CallExpr *Call) {
      // A member operator's object is its first argument (`v = p`, `p + 1`
      // on a tensor reads it): only the arguments after it are passed on.
      for (unsigned I = utils::objectArgumentCount(Call);
           I < Call->getNumArgs(); ++I)
        Found |= isParameter(Call->getArg(I));
      return !Found;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
      for (const Expr *Argument : Construct->arguments())
        Found |= isParameter(Argument);
      return !Found;
    }
  } F;
  F.Parameter = Parameter;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

/// `a == b`: a condition that holds on one iteration, as the last epoch's.
bool isEqualityCondition(const Expr *Condition) {
  Condition = Condition ? Condition->IgnoreParenImpCasts() : nullptr;
  if (const auto *Binary = dyn_cast_or_null<BinaryOperator>(Condition))
    return Binary->getOpcode() == BO_EQ;
  if (const auto *Operator = dyn_cast_or_null<CXXOperatorCallExpr>(Condition))
    return Operator->getOperator() == OO_EqualEqual;
  return false;
}

} // namespace

const ValueDecl *moduleOfMemberCall(const CXXMemberCallExpr *Call) {
  const Expr *Object = Call->getImplicitObjectArgument();
  if (!Object)
    return nullptr;
  Object = Object->IgnoreParenImpCasts();
  // `m->eval()` on a holder or a shared_ptr calls its operator->.
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Object);
      Arrow && Arrow->getOperator() == OO_Arrow)
    Object = Arrow->getArg(0)->IgnoreParenImpCasts();
  return holderDecl(Object);
}

ModuleModes::ModuleModes(ASTContext &Context, TrainingLoopModel &Loops)
    : Context(Context), Loops(Loops) {
  index();
}

std::optional<ModeCall>
ModuleModes::evalCall(const CXXMemberCallExpr *Call) const {
  if (!isModuleMethod(Call, {"eval", "train"}))
    return std::nullopt;
  bool Eval = Call->getMethodDecl()->getName() == "eval";
  if (!Eval) {
    // `train(false)` is eval(); `train()` takes its default argument, true.
    if (Call->getNumArgs() != 1)
      return std::nullopt;
    const auto *Literal =
        dyn_cast<CXXBoolLiteralExpr>(Call->getArg(0)->IgnoreParenImpCasts());
    if (!Literal || Literal->getValue())
      return std::nullopt;
  }
  return ModeCall{Call, moduleOfMemberCall(Call), true};
}

void ModuleModes::index() {
  struct Indexer : RecursiveASTVisitor<Indexer> {
    ModuleModes &Index;
    llvm::SmallVector<std::pair<const CXXMemberCallExpr *, const ValueDecl *>,
                      4>
        ParameterCalls;
    llvm::DenseSet<const CXXMemberCallExpr *> RangeForParameters;
    explicit Indexer(ModuleModes &Index) : Index(Index) {}
    bool shouldVisitLambdaBodies() const { return true; }

    bool VisitCXXForRangeStmt(CXXForRangeStmt *For) {
      const CXXMemberCallExpr *Parameters = parametersCall(For->getRangeInit());
      if (!Parameters)
        return true;
      // A loop that turns the parameters' gradients off trains none of
      // them, nor does one that only reads them (`n += p.numel()`). A loop
      // that passes them on may collect them for an optimizer
      // (`params.push_back(p)`): they count as handed on, as any other use
      // of parameters() does.
      if (passesOn(For->getBody(), For->getLoopVariable()))
        return true;
      RangeForParameters.insert(Parameters);
      if (const ValueDecl *Module = moduleOfMemberCall(Parameters);
          Module && setsRequiresGrad(For->getBody()))
        Index.Frozen.insert(Module);
      return true;
    }

    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      if (isModuleMethod(Call, {"eval", "train"})) {
        if (const ValueDecl *Module = moduleOfMemberCall(Call)) {
          std::optional<ModeCall> Eval = Index.evalCall(Call);
          Index.ModeCalls.push_back({Call, Module, Eval.has_value()});
        }
      } else if (const CXXMemberCallExpr *Parameters = parametersCall(Call)) {
        if (const ValueDecl *Module = moduleOfMemberCall(Parameters))
          ParameterCalls.push_back({Parameters, Module});
      }
      return true;
    }

    void link(const ValueDecl *A, const ValueDecl *B) {
      Index.Links[A].push_back(B);
      Index.Links[B].push_back(A);
    }

    bool VisitCallExpr(CallExpr *Call) {
      if (isModuleForwardCall(Call))
        if (std::optional<ModuleCall> Forward = moduleCall(Call))
          if (const ValueDecl *Module = holderDecl(Forward->Holder))
            Index.Forwards.push_back({Call, Module});
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return true;
      const SourceManager &SM = Index.Context.getSourceManager();
      bool System = SM.isInSystemHeader(Callee->getLocation());
      const FunctionDecl *Definition = Callee->getDefinition();
      bool Seen = Definition && Definition->getBody();
      if (!System && !Seen)
        if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
            Method && isa<CXXMemberCallExpr>(Call))
          Index.Unseen.push_back({Call, nullptr, Method->getParent()});
      // A member operator (a lambda's `operator()`) takes its object as the
      // first argument of the call.
      unsigned Offset = utils::objectArgumentCount(Call);
      for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
        const ValueDecl *Module = moduleArgument(Call->getArg(I));
        if (!Module)
          continue;
        if (System) {
          // Saving or loading weights keeps them where they are; anything
          // else LibTorch is given a module for (`register_module`,
          // `Sequential::push_back`) may train its parameters.
          if (Callee->getIdentifier() &&
              (Callee->getName() == "load" || Callee->getName() == "save"))
            continue;
          Index.HandedOn.insert(Module);
        } else if (!Seen) {
          Index.Unseen.push_back({Call, Module, nullptr});
          Index.HandedOn.insert(Module);
        } else if (I - Offset < Definition->getNumParams()) {
          link(Module, Definition->getParamDecl(I - Offset));
        }
      }
      return true;
    }

    bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
      if (isSameOrDerivedFrom(Construct->getConstructor()->getParent(),
                              names::Optimizer))
        Index.ConstructsOptimizer = true;
      // A copy of a holder is the same module; a class built from a module
      // (a trainer, a Sequential) may train it.
      if (Construct->getConstructor()->isCopyOrMoveConstructor())
        return true;
      for (const Expr *Argument : Construct->arguments())
        if (const ValueDecl *Module = moduleArgument(Argument))
          Index.HandedOn.insert(Module);
      return true;
    }
  } V(*this);
  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    V.TraverseDecl(TopLevel);
  for (const auto &[Call, Module] : V.ParameterCalls)
    if (!V.RangeForParameters.contains(Call))
      HandedOn.insert(Module);
}

llvm::SmallVector<const ValueDecl *, 4>
ModuleModes::aliases(const ValueDecl *Module) {
  llvm::SmallVector<const ValueDecl *, 4> Found = {Module};
  llvm::DenseSet<const ValueDecl *> Seen = {Module};
  for (size_t I = 0; I < Found.size(); ++I) {
    auto Linked = Links.find(Found[I]);
    if (Linked == Links.end())
      continue;
    for (const ValueDecl *Other : Linked->second)
      if (Seen.insert(Other).second)
        Found.push_back(Other);
  }
  return Found;
}

bool ModuleModes::anyAlias(const ValueDecl *Module,
                           const llvm::DenseSet<const ValueDecl *> &Set) {
  for (const ValueDecl *Alias : aliases(Module))
    if (Set.contains(Alias))
      return true;
  return false;
}

bool ModuleModes::parametersHandedOn(const ValueDecl *Module) {
  return anyAlias(Module, HandedOn);
}

bool ModuleModes::parametersFrozen(const ValueDecl *Module) {
  return anyAlias(Module, Frozen);
}

bool ModuleModes::isUntrainedModule(const ValueDecl *Module) {
  if (const auto *Field = dyn_cast<FieldDecl>(Module);
      Field && isModuleClass(dyn_cast<CXXRecordDecl>(Field->getParent())))
    return false;
  return isModuleType(Module->getType()) &&
         (ConstructsOptimizer || anyParametersHandedOn()) &&
         !parametersHandedOn(Module);
}

namespace {

/// The function or lambda whose body holds the node \p Parent, if Parent
/// is one.
const FunctionDecl *callableAt(const DynTypedNode &Parent) {
  if (const auto *Lambda = Parent.get<LambdaExpr>())
    return Lambda->getCallOperator();
  return Parent.get<FunctionDecl>();
}

/// The callers the walks below follow, a training step's calls deep. They
/// keep no state from one call to the next, so a recursive call is walked
/// again until the bound, as any other chain.
utils::CallingContexts<TrainingLoopModel>
stepCallers(TrainingLoopModel &Loops) {
  return {Loops, CallDepth::TrainingStep, utils::Recursion::Followed};
}

} // namespace

bool ModuleModes::runsIn(const Stmt *S, const Stmt *Loop, unsigned Depth) {
  const Stmt *Child = S;
  bool Runs = false;
  utils::forEachAncestor(
      DynTypedNode::create(*S), Loops.parents(),
      [&](const DynTypedNode &Node, const DynTypedNode &) {
        if (const FunctionDecl *Callable = callableAt(Node)) {
          Runs = stepCallers(Loops).anyCaller(
              Callable, Depth, [&](const CallExpr *Site, unsigned Deeper) {
                return runsIn(Site, Loop, Deeper);
              });
          return false;
        }
        if (const auto *Parent = Node.get<Stmt>()) {
          if (Parent == Loop) {
            Runs = utils::runsPerIteration(Loop, Child);
            return false;
          }
          Child = Parent;
        }
        return true;
      });
  return Runs;
}

bool ModuleModes::runsInIterationOf(const Stmt *S, const Stmt *Loop) {
  return runsIn(S, Loop, 0);
}

void ModuleModes::loopsAround(const Stmt *S, unsigned Depth,
                              llvm::SmallVectorImpl<const Stmt *> &Found) {
  const Stmt *Child = S;
  utils::forEachAncestor(
      DynTypedNode::create(*S), Loops.parents(),
      [&](const DynTypedNode &Node, const DynTypedNode &) {
        if (const FunctionDecl *Callable = callableAt(Node)) {
          stepCallers(Loops).eachCaller(
              Callable, Depth, [&](const CallExpr *Site, unsigned Deeper) {
                loopsAround(Site, Deeper, Found);
              });
          return false;
        }
        const auto *Parent = Node.get<Stmt>();
        if (!Parent)
          return true;
        if (utils::isLoop(Parent) && utils::runsPerIteration(Parent, Child) &&
            Loops.isTrainingLoop(Parent)) {
          if (!llvm::is_contained(Found, Parent))
            Found.push_back(Parent);
          return false;
        }
        Child = Parent;
        return true;
      });
}

llvm::SmallVector<const Stmt *, 2>
ModuleModes::trainingLoopsAround(const Stmt *S) {
  llvm::SmallVector<const Stmt *, 2> Found;
  loopsAround(S, 0, Found);
  return Found;
}

bool ModuleModes::endsTraining(const Stmt *Eval, const Stmt *Loop) const {
  // Walks up from the eval() to the loop, through the callers of the
  // functions on the way: an `if (a == b)` anywhere on the path, or a
  // `break` / `return` after it in a block of the loop's own function.
  struct Walk {
    const ModuleModes &Self;
    const Stmt *Loop;
    bool from(const Stmt *S, unsigned Depth) const {
      const Stmt *Child = S;
      bool Leaves = false;
      bool Ends = false;
      utils::forEachAncestor(
          DynTypedNode::create(*S), Self.Loops.parents(),
          [&](const DynTypedNode &Node, const DynTypedNode &) {
            if (const FunctionDecl *Callable = callableAt(Node)) {
              Ends = stepCallers(Self.Loops)
                         .anyCaller(Callable, Depth,
                                    [&](const CallExpr *Site, unsigned Deeper) {
                                      return from(Site, Deeper);
                                    });
              return false;
            }
            const auto *Parent = Node.get<Stmt>();
            if (!Parent)
              return true;
            if (Parent == Loop) {
              Ends = Leaves;
              return false;
            }
            if (const auto *If = dyn_cast<IfStmt>(Parent);
                If && If->getCond() != Child &&
                isEqualityCondition(If->getCond())) {
              Ends = true;
              return false;
            }
            if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
              bool After = false;
              for (const Stmt *Statement : Block->body()) {
                if (After && isa<BreakStmt, ReturnStmt>(Statement))
                  Leaves = true;
                After |= Statement == Child;
              }
            }
            Child = Parent;
            return true;
          });
      return Ends;
    }
  } W{*this, Loop};
  return W.from(Eval, 0);
}

std::optional<UnrestoredEval>
ModuleModes::unrestoredEval(const CXXMemberCallExpr *Eval) {
  std::optional<ModeCall> Mode = evalCall(Eval);
  if (!Mode || !Mode->Module)
    return std::nullopt;
  llvm::SmallVector<const ValueDecl *, 4> Names = aliases(Mode->Module);
  llvm::DenseSet<const ValueDecl *> Same(Names.begin(), Names.end());
  // A module whose parameters no optimizer gets (a teacher, a frozen
  // feature extractor) is meant to stay in eval mode.
  if (!parametersHandedOn(Mode->Module))
    return std::nullopt;
  auto SameClass = [&](const CXXRecordDecl *Class) {
    for (const ValueDecl *Name : Names)
      if (const auto *Field = dyn_cast<FieldDecl>(Name);
          Field &&
          Field->getParent()->getCanonicalDecl() == Class->getCanonicalDecl())
        return true;
    return false;
  };
  for (const Stmt *Loop : trainingLoopsAround(Eval)) {
    if (endsTraining(Eval, Loop))
      continue;
    bool Restored = false;
    for (const ModeCall &Other : ModeCalls)
      if (!Other.Eval && Same.contains(Other.Module) &&
          runsInIterationOf(Other.Call, Loop))
        Restored = true;
    // Code we cannot see, given the module (or a method of the class that
    // holds it), may call train() on it.
    for (const UnseenCall &Call : Unseen)
      if (((Call.Module && Same.contains(Call.Module)) ||
           (Call.MemberOf && SameClass(Call.MemberOf))) &&
          runsInIterationOf(Call.Call, Loop))
        Restored = true;
    if (Restored)
      continue;
    for (const auto &[Forward, Module] : Forwards) {
      if (!Same.contains(Module))
        continue;
      // perStep() names one path to the forward pass; a helper shared by
      // several training loops runs per step in each of them.
      if (!runsInIterationOf(Forward, Loop) || !Loops.perStep(Forward))
        continue;
      if (isCoveredByNoGradGuard(Forward, Context, Loops.parents()))
        continue;
      UnrestoredEval Found{Loop, Forward, nullptr};
      const FunctionDecl *LoopFunction =
          utils::enclosingCallable(Loop, Loops.parents());
      const SourceManager &SM = Context.getSourceManager();
      for (const ValueDecl *Name : Names) {
        if (const auto *Variable = dyn_cast<VarDecl>(Name);
            Variable && LoopFunction &&
            Variable->getDeclContext() == LoopFunction &&
            SM.isBeforeInTranslationUnit(Variable->getLocation(),
                                         Loop->getBeginLoc()))
          Found.ModuleInLoop = Variable;
        if (const auto *Field = dyn_cast<FieldDecl>(Name))
          if (const auto *Method =
                  dyn_cast_or_null<CXXMethodDecl>(LoopFunction);
              Method && Method->isInstance() &&
              Method->getParent()->getCanonicalDecl() ==
                  Field->getParent()->getCanonicalDecl())
            Found.ModuleInLoop = Field;
        if (Found.ModuleInLoop)
          break;
      }
      return Found;
    }
  }
  return std::nullopt;
}

} // namespace clang::tidy::libtorch::analysis
