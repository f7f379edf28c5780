//===--- AstWalkTest.cpp - AST walk primitives unit tests -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/AstWalk.h"
#include "ASTTestSupport.h"
#include "utils/UserCode.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::utils;
using clang::tidy::libtorch::utils::UserCodeParents;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace ast_walk_test {

constexpr char Code[] = R"cpp(
struct Value {
  Value();
  Value(const Value &);
  Value(int);
  ~Value();
  Value twice() const;
};
Value make();
void take(const Value &);
int pick(bool c, int a, int b) { return c ? a : (b); }
void f(bool c) {
  Value copied = make();
  take((make()));
  Value converted = 3;
  Value fromTemporary = Value(4);
  int sum = 0;
  for (int i = 0; i < 3; ++i) sum += i;
  int xs[] = {1, 2};
  for (int x : xs) sum += x;
  while (sum > 10) --sum;
  do ++sum; while (sum < 5);
  if (c) ++sum;
}
)cpp";

class AstWalkTest : public ::testing::Test {
protected:
  void SetUp() override {
    AST = parseWithMockTorch(Code);
    Parents = std::make_unique<UserCodeParents>(AST->getASTContext());
  }
  template <typename NodeT, typename MatcherT>
  const NodeT *first(const MatcherT &Matcher) {
    auto Found = match(Matcher.bind("n"), AST->getASTContext());
    EXPECT_FALSE(Found.empty());
    return Found.empty() ? nullptr : Found[0].template getNodeAs<NodeT>("n");
  }
  const CallExpr *callOf(llvm::StringRef Callee) {
    return first<CallExpr>(callExpr(callee(functionDecl(hasName(Callee)))));
  }
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
};

TEST_F(AstWalkTest, ParenthesesAndTemporariesAreLookedThrough) {
  // take((make())): the argument of take is reached through the parentheses
  // and the temporary.
  const auto *Take = callOf("take");
  ASSERT_NE(Take, nullptr);
  const Expr *Arg = Take->getArg(0);
  const Expr *Inner = stripWrappers(Arg);
  ASSERT_NE(Inner, nullptr);
  EXPECT_TRUE(isa<CallExpr>(Inner));
  Above Up = parentIgnoring(Inner, *Parents);
  EXPECT_EQ(Up.Parent.get<CallExpr>(), Take);
  EXPECT_EQ(Up.Child, Arg);
  // Without parentheses in the set the walk stops at them.
  Above NoParens = parentIgnoring(Inner, *Parents, ImplicitWrappers & ~Paren);
  EXPECT_NE(NoParens.Parent.get<ParenExpr>(), nullptr);
  EXPECT_EQ(stripWrappers(Arg, ImplicitWrappers & ~Paren)->getStmtClass(),
            Stmt::ParenExprClass);
}

TEST_F(AstWalkTest, ConstructorsCountOnlyWhenAsked) {
  const auto *Converted =
      first<VarDecl>(varDecl(hasName("converted")))->getInit();
  // `Value converted = 3;`: a converting constructor call.
  EXPECT_TRUE(isa<IntegerLiteral>(
      stripWrappers(Converted, ImplicitWrappers | Construct)));
  EXPECT_FALSE(isa<IntegerLiteral>(stripWrappers(Converted)));
  EXPECT_FALSE(isa<IntegerLiteral>(stripWrappers(Converted, CopyConstruct)));
  const auto *Literal = first<IntegerLiteral>(
      integerLiteral(equals(3), hasAncestor(varDecl(hasName("converted")))));
  EXPECT_NE(parentIgnoring(Literal, *Parents).Parent.get<CXXConstructExpr>(),
            nullptr);
  EXPECT_NE(parentIgnoring(Literal, *Parents, ImplicitWrappers | Construct)
                .Parent.get<VarDecl>(),
            nullptr);
  // `Value(4)` is a cast written in the source: stripped only when asked.
  const auto *Temporary =
      first<VarDecl>(varDecl(hasName("fromTemporary")))->getInit();
  EXPECT_FALSE(isa<IntegerLiteral>(
      stripWrappers(Temporary, ImplicitWrappers | Construct)));
  EXPECT_TRUE(isa<IntegerLiteral>(
      stripWrappers(Temporary, ImplicitWrappers | Construct | FunctionalCast)));
}

TEST_F(AstWalkTest, ConditionalOnlyWalkingUp) {
  const auto *A =
      first<DeclRefExpr>(declRefExpr(to(parmVarDecl(hasName("a")))));
  EXPECT_NE(parentIgnoring(A, *Parents).Parent.get<ConditionalOperator>(),
            nullptr);
  EXPECT_NE(parentIgnoring(A, *Parents, ImplicitWrappers | Conditional)
                .Parent.get<ReturnStmt>(),
            nullptr);
  const auto *Conditional = first<ConditionalOperator>(conditionalOperator());
  EXPECT_EQ(stripWrappers(Conditional, ~0U), Conditional);
}

TEST_F(AstWalkTest, NoParentEndsTheWalk) {
  const auto *Function = first<FunctionDecl>(functionDecl(hasName("f")));
  Above Up = parentIgnoring(Function->getBody(), *Parents);
  EXPECT_NE(Up.Parent.get<FunctionDecl>(), nullptr);
  EXPECT_EQ(Up.Child, Function->getBody());
  EXPECT_EQ(stripWrappers(nullptr), nullptr);
}

TEST_F(AstWalkTest, LoopBodyOfEveryLoop) {
  for (const Stmt *Loop :
       {first<Stmt>(forStmt()), first<Stmt>(cxxForRangeStmt()),
        first<Stmt>(whileStmt()), first<Stmt>(doStmt())}) {
    ASSERT_NE(Loop, nullptr);
    const Stmt *Body = loopBody(Loop);
    ASSERT_NE(Body, nullptr);
    EXPECT_TRUE((isa<UnaryOperator, CompoundAssignOperator>(Body)))
        << Loop->getStmtClassName();
  }
  EXPECT_EQ(loopBody(first<Stmt>(ifStmt())), nullptr);
  EXPECT_EQ(loopBody(nullptr), nullptr);
}

TEST_F(AstWalkTest, WhatRunsOnEveryIteration) {
  const auto *For = first<ForStmt>(forStmt());
  ASSERT_NE(For, nullptr);
  EXPECT_FALSE(runsPerIteration(For, For->getInit()));
  EXPECT_TRUE(runsPerIteration(For, For->getCond()));
  EXPECT_TRUE(runsPerIteration(For, For->getInc()));
  EXPECT_TRUE(runsPerIteration(For, For->getBody()));
  const auto *RangeFor = first<CXXForRangeStmt>(cxxForRangeStmt());
  ASSERT_NE(RangeFor, nullptr);
  EXPECT_FALSE(runsPerIteration(RangeFor, RangeFor->getRangeInit()));
  EXPECT_TRUE(runsPerIteration(RangeFor, RangeFor->getBody()));
  EXPECT_TRUE(runsPerIteration(RangeFor, RangeFor->getLoopVarStmt()));
  const auto *While = first<WhileStmt>(whileStmt());
  EXPECT_TRUE(runsPerIteration(While, While->getBody()));
}

TEST_F(AstWalkTest, AncestorsUntilNoParent) {
  // `sum += i` in the for loop: the loop, the function's block, the
  // function and on until the index has no parent, each with the node
  // below it.
  const auto *Add = first<CompoundAssignOperator>(binaryOperator(
      hasOperatorName("+="),
      hasLHS(ignoringImpCasts(declRefExpr(to(varDecl(hasName("sum"))))))));
  ASSERT_NE(Add, nullptr);
  llvm::SmallVector<DynTypedNode, 8> Seen;
  DynTypedNode Expected = DynTypedNode::create(*Add);
  bool Stopped = forEachAncestor(
      DynTypedNode::create(*Add), *Parents,
      [&](const DynTypedNode &Parent, const DynTypedNode &Child) {
        EXPECT_EQ(Child, Expected);
        Expected = Parent;
        Seen.push_back(Parent);
        return true;
      });
  EXPECT_FALSE(Stopped) << "ran out of parents";
  ASSERT_GE(Seen.size(), 3U);
  EXPECT_NE(Seen[0].get<ForStmt>(), nullptr);
  EXPECT_NE(Seen[1].get<CompoundStmt>(), nullptr);
  EXPECT_NE(Seen[2].get<FunctionDecl>(), nullptr);
}

TEST_F(AstWalkTest, TheVisitorEndsTheWalk) {
  const auto *Add =
      first<CompoundAssignOperator>(binaryOperator(hasOperatorName("+=")));
  ASSERT_NE(Add, nullptr);
  unsigned Visits = 0;
  bool Stopped =
      forEachAncestor(DynTypedNode::create(*Add), *Parents,
                      [&](const DynTypedNode &, const DynTypedNode &) {
                        ++Visits;
                        return false;
                      });
  EXPECT_TRUE(Stopped);
  EXPECT_EQ(Visits, 1U);
}

TEST_F(AstWalkTest, StatementAncestorsEndAtTheFunction) {
  const auto *Add =
      first<CompoundAssignOperator>(binaryOperator(hasOperatorName("+=")));
  ASSERT_NE(Add, nullptr);
  llvm::SmallVector<const Stmt *, 4> Seen;
  const Stmt *Below = Add;
  bool Stopped = forEachStmtAncestor(
      Add, *Parents, [&](const Stmt *Parent, const Stmt *Child) {
        EXPECT_EQ(Child, Below);
        Below = Parent;
        Seen.push_back(Parent);
        return true;
      });
  EXPECT_FALSE(Stopped);
  ASSERT_EQ(Seen.size(), 2U) << "the loop and the function's body";
  EXPECT_TRUE(isa<ForStmt>(Seen[0]));
  EXPECT_TRUE(isa<CompoundStmt>(Seen[1]));
  // Stopped at the loop.
  EXPECT_TRUE(
      forEachStmtAncestor(Add, *Parents, [](const Stmt *Parent, const Stmt *) {
        return !isa<ForStmt>(Parent);
      }));
}

} // namespace ast_walk_test
