//===--- CallArgumentsTest.cpp - Arguments and parameters of a call -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/CallArguments.h"
#include "ASTTestSupport.h"
#include "clang/Basic/Version.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::utils;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace call_arguments_test {

const char Code[] = R"cpp(
struct Value {
  Value(int first, int second = 0);
  Value operator+(int member) const;
  int operator()(int call, int more) const;
  int method(int m);
};
Value operator-(const Value &left, int right);
int variadic(int fixed, ...);
void f(Value v, void (*pointer)(int)) {
  v + 1;
  v - 2;
  v(3, 4);
  v.method(5);
  variadic(6, 7);
  pointer(8);
  Value w(9);
  auto lambda = [](int x) { return x; };
  lambda(10);
}
)cpp";

class CallArgumentsTest : public ::testing::Test {
protected:
  void SetUp() override {
    AST = parseWithMockTorch(Code);
    ASSERT_TRUE(AST);
  }
  /// The call (or construction) in `f` with the integer literal \p Value
  /// among its arguments, and that argument's index.
  template <typename CallT>
  std::pair<const CallT *, unsigned> callGiven(unsigned Value) {
    auto Found =
        match(expr(anyOf(callExpr(hasAnyArgument(ignoringImplicit(
                             integerLiteral(equals(Value)).bind("arg")))),
                         cxxConstructExpr(hasAnyArgument(ignoringImplicit(
                             integerLiteral(equals(Value)).bind("arg"))))),
                   hasAncestor(functionDecl(hasName("f"))))
                  .bind("call"),
              AST->getASTContext());
    EXPECT_FALSE(Found.empty()) << Value;
    if (Found.empty())
      return {nullptr, 0};
    const auto *Call = Found.back().getNodeAs<CallT>("call");
    const auto *Arg = Found.back().getNodeAs<Expr>("arg");
    EXPECT_TRUE(Call) << Value;
    for (unsigned I = 0; Call && I < Call->getNumArgs(); ++I)
      if (Call->getArg(I)->IgnoreImplicit() == Arg)
        return {Call, I};
    return {Call, 0};
  }
  /// The name of the parameter the literal \p Value is given to, "<none>"
  /// when there is none.
  std::string parameterOf(unsigned Value) {
    auto [Call, Index] = callGiven<CallExpr>(Value);
    const ParmVarDecl *Parameter =
        Call ? parameterOfArgument(Call, Index) : nullptr;
    return Parameter ? Parameter->getName().str() : "<none>";
  }
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(CallArgumentsTest, MemberOperatorsTakeTheirObjectFirst) {
  auto [Plus, Index] = callGiven<CallExpr>(1);
  ASSERT_TRUE(Plus);
  EXPECT_EQ(objectArgumentCount(Plus), 1u);
  EXPECT_EQ(Index, 1u);
  EXPECT_EQ(parameterOf(1), "member");
  EXPECT_EQ(parameterOfArgument(Plus, 0), nullptr) << "the object";
  EXPECT_EQ(argumentOfParameter(Plus, 0), Plus->getArg(1));
  EXPECT_EQ(parameterOf(3), "call");
  EXPECT_EQ(parameterOf(4), "more");
  EXPECT_EQ(parameterOf(10), "x") << "a lambda's operator()";
}

TEST_F(CallArgumentsTest, FreeOperatorsAndOtherCallsDoNot) {
  auto [Minus, Index] = callGiven<CallExpr>(2);
  ASSERT_TRUE(Minus);
  EXPECT_EQ(objectArgumentCount(Minus), 0u);
  EXPECT_EQ(parameterOfArgument(Minus, 0)->getName(), "left");
  EXPECT_EQ(parameterOf(2), "right");
  EXPECT_EQ(argumentOfParameter(Minus, 1), Minus->getArg(1));
  EXPECT_EQ(argumentOfParameter(Minus, 2), nullptr);
  // A member call's object is not among its arguments.
  EXPECT_EQ(parameterOf(5), "m");
  EXPECT_EQ(parameterOf(6), "fixed");
  EXPECT_EQ(parameterOf(7), "<none>") << "given to `...`";
  EXPECT_EQ(parameterOf(8), "<none>") << "no callee to ask";
}

TEST_F(CallArgumentsTest, Constructions) {
  auto [Construct, Index] = callGiven<CXXConstructExpr>(9);
  ASSERT_TRUE(Construct);
  EXPECT_EQ(parameterOfArgument(Construct, Index)->getName(), "first");
  EXPECT_EQ(parameterOfArgument(Construct, 1)->getName(), "second")
      << "a default argument still has its parameter";
  EXPECT_EQ(parameterOfArgument(Construct, 2), nullptr);
  EXPECT_EQ(parameterOfArgument(static_cast<const Expr *>(Construct),
                                Construct->getArg(0)),
            Construct->getConstructor()->getParamDecl(0));
  EXPECT_EQ(parameterOfArgument(static_cast<const Expr *>(Construct),
                                static_cast<const Expr *>(Construct)),
            nullptr)
      << "not one of its arguments";
}

// A C++23 static operator(): its object is no parameter's argument, whether
// the call lists it or not.
TEST(CallArgumentsStaticOperatorTest, TheObjectIsNoParameter) {
  std::unique_ptr<ASTUnit> AST = clang::tooling::buildASTFromCodeWithArgs(
      R"cpp(
struct Static {
  static int operator()(int first, int second) { return first + second; }
};
Static make();
void g(Static s) {
  s(11, 12);
  make()(13, 14);
}
)cpp",
      {"-std=c++2b", "-resource-dir=" LIBTORCH_TIDY_CLANG_RESOURCE_DIR},
      "static.cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  auto Found = match(callExpr(callee(cxxMethodDecl(hasName("operator()"),
                                                   isStaticStorageClass())))
                         .bind("call"),
                     AST->getASTContext());
  ASSERT_EQ(Found.size(), 2u);
  for (const auto &Node : Found) {
    const auto *Call = Node.getNodeAs<CallExpr>("call");
    const FunctionDecl *Callee = Call->getDirectCallee();
    ASSERT_TRUE(Call && Callee);
#if CLANG_VERSION_MAJOR == 16
    // Clang builds a plain call of the member, without the object.
    EXPECT_FALSE(isa<CXXOperatorCallExpr>(Call));
#endif
    const unsigned Object = objectArgumentCount(Call);
    EXPECT_EQ(Object, isa<CXXOperatorCallExpr>(Call) ? 1u : 0u);
    ASSERT_EQ(Call->getNumArgs(), Object + 2);
    if (Object == 1)
      EXPECT_EQ(parameterOfArgument(Call, 0u), nullptr) << "the object";
    EXPECT_EQ(parameterOfArgument(Call, Object), Callee->getParamDecl(0));
    EXPECT_EQ(parameterOfArgument(Call, Object + 1), Callee->getParamDecl(1));
    EXPECT_EQ(argumentOfParameter(Call, 0), Call->getArg(Object));
  }
}

TEST(BindsMutablyTest, PointersAndReferences) {
  std::unique_ptr<ASTUnit> AST = parseWithMockTorch(R"cpp(
struct T {};
void f(T &lvalue, const T &constant, T &&rvalue, T *pointer,
       const T *toConstant, T value, T *const constPointer);
)cpp");
  ASSERT_TRUE(AST);
  auto Found =
      match(functionDecl(hasName("f")).bind("f"), AST->getASTContext());
  ASSERT_EQ(Found.size(), 1U);
  const auto *F = Found[0].getNodeAs<FunctionDecl>("f");
  auto Mutably = [&](unsigned I) {
    return bindsMutably(F->getParamDecl(I)->getType());
  };
  EXPECT_TRUE(Mutably(0));
  EXPECT_FALSE(Mutably(1));
  EXPECT_TRUE(Mutably(2)) << "it may be moved from";
  EXPECT_TRUE(Mutably(3));
  EXPECT_FALSE(Mutably(4));
  EXPECT_FALSE(Mutably(5)) << "a copy";
  EXPECT_TRUE(Mutably(6)) << "the pointer is const, not what it points to";
}

} // namespace call_arguments_test
