//===--- PerUnitTest.cpp - per-unit values unit tests ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/PerUnit.h"
#include "ASTTestSupport.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace clang::tidy::libtorch::utils;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace per_unit_test {

struct Counted {
  Counted(ASTContext &Context, int Option) : Context(Context), Option(Option) {}
  ASTContext &Context;
  int Option;
};

TEST(PerUnitTest, BuiltOnceFromItsBuilder) {
  auto AST = parseWithMockTorch("int x;");
  ASTContext &Context = AST->getASTContext();
  UnitScope Scope;
  int Builds = 0;
  int Option = 7;
  PerUnit<Counted> Value(Scope, [&](ASTContext &C) {
    ++Builds;
    return std::make_unique<Counted>(C, Option);
  });
  EXPECT_EQ(Value.get(Context).Option, 7);
  EXPECT_EQ(&Value.get(Context).Context, &Context);
  EXPECT_EQ(Builds, 1);
  // What it is built from is the builder's, read again only on a rebuild.
  Option = 8;
  EXPECT_EQ(Value.get(Context).Option, 7);
  Scope.end();
  EXPECT_EQ(Value.get(Context).Option, 8);
  EXPECT_EQ(Builds, 2);
}

TEST(PerUnitTest, ScopeEndDropsEveryValue) {
  auto AST = parseWithMockTorch("int x;");
  ASTContext &Context = AST->getASTContext();
  UnitScope Scope;
  PerUnit<llvm::DenseSet<int>> Reported(Scope);
  PerUnit<std::optional<bool>> Verdict(Scope);
  Reported.get(Context).insert(1);
  Verdict.get(Context) = true;
  EXPECT_TRUE(Reported.get(Context).contains(1));
  Scope.end();
  EXPECT_TRUE(Reported.get(Context).empty());
  EXPECT_FALSE(Verdict.get(Context).has_value());
}

TEST(PerUnitTest, RebuiltForAnotherContext) {
  auto First = parseWithMockTorch("int x;");
  auto Second = parseWithMockTorch("int y;");
  UnitScope Scope;
  PerUnit<llvm::DenseSet<int>> Reported(Scope);
  Reported.get(First->getASTContext()).insert(1);
  EXPECT_TRUE(Reported.get(Second->getASTContext()).empty());
}

} // namespace per_unit_test
