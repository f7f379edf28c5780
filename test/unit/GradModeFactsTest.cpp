//===--- GradModeFactsTest.cpp - no-grad guard unit tests -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/vocabulary/GradModeFacts.h"
#include "ASTTestSupport.h"

using namespace clang;
using namespace clang::ast_matchers;
namespace analysis = clang::tidy::libtorch::analysis;
namespace utils = clang::tidy::libtorch::utils;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace grad_mode_facts_test {

/// Parses the snippet and answers questions about `probe(N)` calls in it.
class GradModeFactsTest : public ::testing::Test {
protected:
  void parse(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(
        "#include <torch/torch.h>\n#include <torch/script.h>\n"
        "void probe(int id);\n" +
        Code);
    ASSERT_TRUE(AST);
  }

  const CallExpr *probe(int Id) {
    auto Found = match(callExpr(callee(functionDecl(hasName("probe"))),
                                hasArgument(0, integerLiteral(equals(Id))))
                           .bind("probe"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << "probe(" << Id << ")";
    return Found.empty() ? nullptr : Found[0].getNodeAs<CallExpr>("probe");
  }

  bool covered(int Id) {
    utils::UserCodeParents Parents(AST->getASTContext());
    return analysis::isCoveredByNoGradGuard(probe(Id), AST->getASTContext(),
                                            Parents);
  }

  bool guard(llvm::StringRef Name) {
    auto Found =
        match(varDecl(hasName(Name), isExpansionInMainFile()).bind("v"),
              AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Name.str();
    return !Found.empty() &&
           analysis::isNoGradGuard(Found[0].getNodeAs<VarDecl>("v"),
                                   AST->getASTContext());
  }

  std::unique_ptr<ASTUnit> AST;
};

TEST_F(GradModeFactsTest, GuardTypes) {
  parse(R"cpp(
void f() {
  torch::NoGradGuard a;
  at::NoGradGuard b;
  c10::NoGradGuard c;
  torch::AutoGradMode d(false);
  torch::AutoGradMode e(true);
  c10::InferenceMode f;
  c10::InferenceMode g(false);
  torch::autograd::InferenceMode h(true);
  bool on = true;
  torch::AutoGradMode i(on);
  int j = 0;
}
)cpp");
  EXPECT_TRUE(guard("a"));
  EXPECT_TRUE(guard("b"));
  EXPECT_TRUE(guard("c"));
  EXPECT_TRUE(guard("d"));
  EXPECT_FALSE(guard("e"));
  EXPECT_TRUE(guard("f"));
  EXPECT_FALSE(guard("g"));
  EXPECT_TRUE(guard("h"));
  EXPECT_FALSE(guard("i")); // not known to be off
  EXPECT_FALSE(guard("j"));
}

TEST_F(GradModeFactsTest, ScopeOfAGuard) {
  parse(R"cpp(
void f(bool flag) {
  probe(1);
  {
    torch::NoGradGuard no_grad;
    probe(2);
    for (int i = 0; i < 2; ++i) {
      if (flag)
        probe(3);
    }
  }
  probe(4);
  auto run = [] { probe(5); };
  torch::NoGradGuard late;
  probe(6);
  run();
}
void g() {
  probe(7);
}
)cpp");
  EXPECT_FALSE(covered(1));
  EXPECT_TRUE(covered(2));
  EXPECT_TRUE(covered(3));
  EXPECT_FALSE(covered(4)); // the block with the guard has ended
  EXPECT_FALSE(covered(5)); // declared before the guard
  EXPECT_TRUE(covered(6));
  EXPECT_FALSE(covered(7));
}

TEST_F(GradModeFactsTest, HoldsAGuard) {
  parse(R"cpp(
void f(torch::nn::Linear m, torch::Tensor x) {
  for (int i = 0; i < 2; ++i) {
    c10::InferenceMode guard;
    probe(1);
  }
  for (int i = 0; i < 2; ++i)
    probe(2);
}
)cpp");
  auto Loops = match(forStmt(isExpansionInMainFile()).bind("loop"),
                     AST->getASTContext());
  ASSERT_EQ(Loops.size(), 2u);
  const auto *First = Loops[0].getNodeAs<ForStmt>("loop");
  const auto *Second = Loops[1].getNodeAs<ForStmt>("loop");
  if (First->getBeginLoc() > Second->getBeginLoc())
    std::swap(First, Second);
  EXPECT_TRUE(
      analysis::holdsNoGradGuard(First->getBody(), AST->getASTContext()));
  EXPECT_FALSE(
      analysis::holdsNoGradGuard(Second->getBody(), AST->getASTContext()));
}

TEST_F(GradModeFactsTest, ForwardCalls) {
  parse(R"cpp(
struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};
TORCH_MODULE(Net);
void f(Net net, torch::nn::Linear linear, torch::Tensor x,
       torch::jit::Module scripted) {
  net->forward(x);
  linear(x);
  linear->forward(x);
  scripted.forward({x});
  x.sum();
}
)cpp");
  auto Calls = match(
      functionDecl(hasName("f"), forEachDescendant(callExpr().bind("call"))),
      AST->getASTContext());
  int Forward = 0;
  for (const auto &Call : Calls)
    Forward += analysis::isModuleForwardCall(Call.getNodeAs<CallExpr>("call"));
  EXPECT_EQ(Forward, 4);
}

} // namespace grad_mode_facts_test
