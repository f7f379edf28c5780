//===--- AssignedValuesTest.cpp - assigned values unit tests -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/AssignedValues.h"
#include "ASTTestSupport.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::utils;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace assigned_values_test {

const char Variables[] = R"cpp(
#include <torch/torch.h>
void takesMutable(torch::Tensor &t);
void takesConst(const torch::Tensor &t);
void takesValue(torch::Tensor t);
void f(torch::Tensor param, torch::Tensor other) {
  auto never = torch::zeros({2});
  takesConst(never);
  takesValue(never);
  auto twice = torch::zeros({2});
  twice = torch::ones({2});
  auto inLambda = torch::zeros({2});
  auto set = [&] { inLambda = other; };
  set();
  auto passedMutable = torch::zeros({2});
  takesMutable(passedMutable);
  auto compound = torch::zeros({2});
  compound += other;
  auto addressed = torch::zeros({2});
  auto *pointer = &addressed;
  auto referenced = torch::zeros({2});
  torch::Tensor &alias = referenced;
  auto constReferenced = torch::zeros({2});
  const torch::Tensor &view = constReferenced;
  auto storageSet = torch::zeros({2});
  storageSet.set_(other);
  torch::Tensor &reference = other;
}
)cpp";

class AssignedValuesTest : public ::testing::Test {
protected:
  void SetUp() override { AST = parseWithMockTorch(Variables); }
  std::optional<llvm::SmallVector<const Expr *, 4>>
  values(llvm::StringRef Name) {
    auto Found = match(varDecl(hasName(Name)).bind("v"), AST->getASTContext());
    EXPECT_FALSE(Found.empty()) << Name.str();
    if (Found.empty())
      return std::nullopt;
    return assignedValues(Found[0].getNodeAs<VarDecl>("v"));
  }
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(AssignedValuesTest, InitializerAndPlainAssignments) {
  auto Never = values("never");
  ASSERT_TRUE(Never);
  EXPECT_EQ(Never->size(), 1u) << "const and by-value uses change nothing";
  auto Twice = values("twice");
  ASSERT_TRUE(Twice);
  EXPECT_EQ(Twice->size(), 2u);
  auto InLambda = values("inLambda");
  ASSERT_TRUE(InLambda);
  EXPECT_EQ(InLambda->size(), 2u) << "the assignment in the lambda counts";
  auto ConstReferenced = values("constReferenced");
  ASSERT_TRUE(ConstReferenced);
  EXPECT_EQ(ConstReferenced->size(), 1u);
}

TEST_F(AssignedValuesTest, ChangedOtherwise) {
  EXPECT_FALSE(values("passedMutable"));
  EXPECT_FALSE(values("compound"));
  EXPECT_FALSE(values("addressed"));
  EXPECT_FALSE(values("referenced"));
  EXPECT_FALSE(values("storageSet"));
}

TEST_F(AssignedValuesTest, NotLocalValues) {
  EXPECT_FALSE(values("param"));
  EXPECT_FALSE(values("reference"));
}

} // namespace assigned_values_test
