//===--- HostStateMembers.cpp - Tensor members kept in host memory --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/HostStateMembers.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "utils/CallArguments.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// The tensor member \p E names through `this`, written or implicit.
const FieldDecl *thisMember(const Expr *E) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(utils::stripWrappers(E));
  if (!Member || !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  if (!Field || Field->getType()->isReferenceType() ||
      !isTensorType(Field->getType()))
    return nullptr;
  return Field;
}

/// A value made in host memory: a host factory call, or a call of a helper
/// of the project that returns one.
bool madeInHostMemory(const Expr *Value, ASTContext &Context) {
  // A member initializer may copy or move the value into the member.
  const Expr *E = utils::stripWrappers(Value);
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1)
    E = utils::stripWrappers(Construct->getArg(0));
  if (!E)
    return false;
  return isHostTensorFactoryCall(E, Context) ||
         hostFactoryOfHelperCall(E, Context);
}

bool isConstructorOf(const FunctionDecl *Function, const RecordDecl *Class) {
  const auto *Constructor = dyn_cast_or_null<CXXConstructorDecl>(Function);
  return Constructor && Constructor->getParent() == Class;
}

/// A call of a module's register_buffer or register_parameter.
bool isRegistration(const Stmt *S) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->getIdentifier() &&
         (Callee->getName() == names::RegisterBufferMethod ||
          Callee->getName() == names::RegisterParameterMethod);
}

/// What the class's code does to a tensor member: the values it is built
/// with, whether it is registered with its module, whether anything may
/// put another tensor there.
struct MemberHistory {
  std::vector<const Expr *> BuiltWith;
  bool Registered = false;
  /// `member_ = member_.to(device)` outside the constructors.
  bool MovedToGpu = false;
  bool GivenAnother = false;
};

/// `member_ = member_.to(<a GPU>)`, `member_ = member_.cuda()`: the class
/// moves its own member to the device.
bool movesItselfToGpu(const Expr *Value, const FieldDecl *Field,
                      ASTContext &Context) {
  const auto *Copy =
      dyn_cast_or_null<CXXMemberCallExpr>(utils::stripWrappers(Value));
  return Copy && isTensorDeviceCopy(Copy) && copiesToGpu(*Copy, Context) &&
         thisMember(Copy->getImplicitObjectArgument()) == Field;
}

/// Records what \p Use, an expression naming \p Field, does to it.
void recordUse(const MemberExpr *Use, const FieldDecl *Field,
               ASTContext &Context, const utils::UserCodeParents &Parents,
               MemberHistory &History) {
  const RecordDecl *Class = Field->getParent();
  utils::Above Up = utils::parentIgnoring(Use, Parents);
  const auto *Parent = Up.Parent.get<Stmt>();
  // A copy of the handle (an argument taken by value) is the same tensor.
  while (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(Parent)) {
    if (!Copy->getConstructor()->isCopyOrMoveConstructor())
      break;
    Up = utils::parentIgnoring(Copy, Parents);
    Parent = Up.Parent.get<Stmt>();
  }
  if (!Parent)
    return; // another member's initializer reads it
  auto Assigned = [&](const Expr *Value, bool Plain) {
    if (Plain &&
        isConstructorOf(utils::enclosingFunction(Parent, Parents), Class))
      History.BuiltWith.push_back(Value);
    else if (Plain && movesItselfToGpu(Value, Field, Context))
      History.MovedToGpu = true;
    else
      History.GivenAnother = true;
  };
  if (const auto *Assign = dyn_cast<BinaryOperator>(Parent);
      Assign && Assign->isAssignmentOp() && Assign->getLHS() == Up.Child)
    return Assigned(Assign->getRHS(), Assign->getOpcode() == BO_Assign);
  // A tensor's compound assignments (`member_ += x`) change it in place.
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Parent);
      Operator && Operator->getOperator() == OO_Equal &&
      Operator->getNumArgs() == 2 && Operator->getArg(0) == Up.Child)
    return Assigned(Operator->getArg(1), /*Plain=*/true);
  if (const auto *Unary = dyn_cast<UnaryOperator>(Parent);
      Unary && Unary->getOpcode() == UO_AddrOf) {
    History.GivenAnother = true;
    return;
  }
  // `member.set_data(t)` swaps its storage for another tensor's.
  if (const auto *Method = dyn_cast<MemberExpr>(Parent)) {
    const auto *Called = dyn_cast<CXXMethodDecl>(Method->getMemberDecl());
    if (Called && Called->getIdentifier() &&
        Called->getName() == names::SetDataMethod)
      History.GivenAnother = true;
    return;
  }
  const auto *Call = dyn_cast<CallExpr>(Parent);
  if (!Call)
    return;
  // Registered, the module's `to()` moves it.
  if (isRegistration(Call)) {
    History.Registered = true;
    return;
  }
  // Bound to a mutable reference (`torch::load(member_, path)`), the callee
  // may replace it.
  const ParmVarDecl *Parameter = utils::parameterOfArgument(
      static_cast<const Expr *>(Call), cast<Expr>(Up.Child));
  if (!Parameter) {
    History.GivenAnother |= !Call->getDirectCallee();
    return;
  }
  History.GivenAnother |= utils::bindsMutably(Parameter->getType());
}

MemberHistory historyOf(const FieldDecl *Field, ASTContext &Context,
                        const utils::UserCodeParents &Parents) {
  MemberHistory History;
  const RecordDecl *Class = Field->getParent();
  if (const Expr *Default = Field->getInClassInitializer())
    History.BuiltWith.push_back(Default);
  if (const auto *Record = dyn_cast<CXXRecordDecl>(Class))
    for (const CXXConstructorDecl *Declared : Record->ctors()) {
      // The member initializers are on the definition, maybe out of line.
      const FunctionDecl *Definition = nullptr;
      if (!Declared->hasBody(Definition))
        continue;
      for (const CXXCtorInitializer *Init :
           cast<CXXConstructorDecl>(Definition)->inits())
        if (Init->isWritten() && Init->getMember() == Field)
          History.BuiltWith.push_back(Init->getInit());
    }
  using namespace ast_matchers;
  const auto Uses = decl(
      forEachDescendant(memberExpr(member(equalsNode(Field))).bind("use")));
  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    for (const BoundNodes &Found : match(Uses, *TopLevel, Context))
      recordUse(Found.getNodeAs<MemberExpr>("use"), Field, Context, Parents,
                History);
  // `member_ = register_buffer("name", ...)`: the module's own tensor.
  for (const Expr *Value : History.BuiltWith)
    History.Registered |= isRegistration(utils::stripWrappers(Value));
  return History;
}

} // namespace

CopiedMember copiedMember(const Expr *CopySource, ASTContext &Context,
                          const utils::UserCodeParents &Parents) {
  CopiedMember Result;
  const FieldDecl *Field = thisMember(CopySource);
  if (!Field || !utils::isUserCode(Field))
    return Result;
  Result.Member = Field;
  const MemberHistory History = historyOf(Field, Context, Parents);
  // Anything may have put another tensor there: nothing is proven.
  if (History.GivenAnother)
    return Result;
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (History.Registered && Class && isModuleClass(Class)) {
    Result.What = CopiedMember::Verdict::ModuleOwn;
    return Result;
  }
  if (History.MovedToGpu) {
    Result.What = CopiedMember::Verdict::MovedByItsClass;
    return Result;
  }
  if (History.Registered || History.BuiltWith.empty() ||
      !llvm::all_of(History.BuiltWith, [&](const Expr *Value) {
        return madeInHostMemory(Value, Context);
      }))
    return Result;
  Result.What = CopiedMember::Verdict::KeptInHostMemory;
  Result.MadeBy = History.BuiltWith.front();
  return Result;
}

} // namespace clang::tidy::libtorch::analysis
