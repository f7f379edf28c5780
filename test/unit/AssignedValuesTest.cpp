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

const char Containers[] = R"cpp(
#include <torch/torch.h>
#include <vector>
void takesMutable(std::vector<torch::Tensor> &v);
void f(torch::Tensor a, torch::Tensor b, std::vector<torch::Tensor> param) {
  std::vector<torch::Tensor> appended;
  appended.reserve(2);
  appended.push_back(a);
  appended.emplace_back(b);
  auto size = appended.size();
  std::vector<torch::Tensor> listed = {a, b};
  std::vector<torch::Tensor> copied = param;
  std::vector<torch::Tensor> sized(3, a);
  std::vector<torch::Tensor> assigned;
  assigned = param;
  std::vector<torch::Tensor> indexed;
  indexed.push_back(a);
  indexed[0] = b;
  std::vector<torch::Tensor> looped;
  looped.push_back(a);
  for (auto &t : looped)
    t = b;
  std::vector<torch::Tensor> passed;
  passed.push_back(a);
  takesMutable(passed);
  std::vector<int> notTensors;
}
)cpp";

class ElementValuesTest : public ::testing::Test {
protected:
  void SetUp() override { AST = parseWithMockTorch(Containers); }
  std::optional<llvm::SmallVector<const Expr *, 4>>
  elements(llvm::StringRef Name) {
    auto Found = match(varDecl(hasName(Name)).bind("v"), AST->getASTContext());
    EXPECT_FALSE(Found.empty()) << Name.str();
    if (Found.empty())
      return std::nullopt;
    return elementValues(Found[0].getNodeAs<VarDecl>("v"));
  }
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(ElementValuesTest, ListedAndAppended) {
  auto Appended = elements("appended");
  ASSERT_TRUE(Appended);
  EXPECT_EQ(Appended->size(), 2u) << "push_back and emplace_back; reserve and "
                                     "size() add nothing";
  auto Listed = elements("listed");
  ASSERT_TRUE(Listed);
  EXPECT_EQ(Listed->size(), 2u);
  ASSERT_TRUE(elements("notTensors"));
  EXPECT_TRUE(elements("notTensors")->empty());
}

TEST_F(ElementValuesTest, StartedOrChangedOtherwise) {
  EXPECT_FALSE(elements("copied")) << "a copy of another vector";
  EXPECT_FALSE(elements("sized")) << "a size and a value";
  EXPECT_FALSE(elements("assigned"));
  EXPECT_FALSE(elements("indexed")) << "an element written through []";
  EXPECT_FALSE(elements("looped")) << "a range-for binds elements mutably";
  EXPECT_FALSE(elements("passed"));
  EXPECT_FALSE(elements("param"));
}

} // namespace assigned_values_test
