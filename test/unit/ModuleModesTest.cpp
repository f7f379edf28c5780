//===--- ModuleModesTest.cpp - module roles unit tests --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/gradients/ModuleModes.h"
#include "ASTTestSupport.h"

using namespace clang;
using namespace clang::ast_matchers;
namespace analysis = clang::tidy::libtorch::analysis;
namespace utils = clang::tidy::libtorch::utils;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace module_modes_test {

const char Prelude[] = R"cpp(
#include <torch/torch.h>
void step(torch::nn::Linear &m, torch::optim::SGD &opt,
          const torch::Tensor &x) {
  opt.zero_grad();
  m(x).sum().backward();
  opt.step();
}
)cpp";

class ModuleModesTest : public ::testing::Test {
protected:
  void parse(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(Prelude + Code);
    ASSERT_TRUE(AST);
    Parents = std::make_unique<utils::UserCodeParents>(AST->getASTContext());
    Loops = std::make_unique<analysis::TrainingLoopModel>(AST->getASTContext(),
                                                          *Parents);
    Modes =
        std::make_unique<analysis::ModuleModes>(AST->getASTContext(), *Loops);
  }

  /// The variable or parameter \p Name declared in function \p Function.
  const ValueDecl *var(llvm::StringRef Function, llvm::StringRef Name) {
    auto Found = match(
        varDecl(hasName(Name), hasAncestor(functionDecl(hasName(Function))))
            .bind("v"),
        AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Function.str() << "::" << Name.str();
    return Found.empty() ? nullptr : Found[0].getNodeAs<VarDecl>("v");
  }

  /// The eval() / train(false) calls in \p Function, in source order.
  std::vector<const CXXMemberCallExpr *> evals(llvm::StringRef Function) {
    std::vector<const CXXMemberCallExpr *> Calls;
    for (const auto &Match :
         match(cxxMemberCallExpr(
                   callee(cxxMethodDecl(hasAnyName("eval", "train"))),
                   hasAncestor(functionDecl(hasName(Function))))
                   .bind("c"),
               AST->getASTContext()))
      if (const auto *Call = Match.getNodeAs<CXXMemberCallExpr>("c");
          Modes->evalCall(Call))
        Calls.push_back(Call);
    return Calls;
  }

  bool unrestored(llvm::StringRef Function) {
    auto Calls = evals(Function);
    EXPECT_EQ(Calls.size(), 1u) << Function.str();
    return !Calls.empty() && Modes->unrestoredEval(Calls[0]).has_value();
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<utils::UserCodeParents> Parents;
  std::unique_ptr<analysis::TrainingLoopModel> Loops;
  std::unique_ptr<analysis::ModuleModes> Modes;
};

TEST_F(ModuleModesTest, EvalCalls) {
  parse(R"cpp(
void f(torch::nn::Linear m, bool flag) {
  m->eval();
  m->train(false);
  m->train();
  m->train(true);
  m->train(flag);
}
)cpp");
  EXPECT_EQ(evals("f").size(), 2u);
}

TEST_F(ModuleModesTest, AliasesFollowArguments) {
  parse(R"cpp(
void inner(torch::nn::Linear &net) { net->eval(); }
void outer(torch::nn::Linear &model) { inner(model); }
void top() {
  torch::nn::Linear a(4, 4);
  torch::nn::Linear b(4, 4);
  outer(a);
}
)cpp");
  auto Aliases = Modes->aliases(var("top", "a"));
  EXPECT_TRUE(llvm::is_contained(Aliases, var("inner", "net")));
  EXPECT_TRUE(llvm::is_contained(Aliases, var("outer", "model")));
  EXPECT_FALSE(llvm::is_contained(Aliases, var("top", "b")));
}

TEST_F(ModuleModesTest, ParametersHandedOnOrFrozen) {
  parse(R"cpp(
void top() {
  torch::nn::Linear trained(4, 4);
  torch::nn::Linear frozen(4, 4);
  torch::nn::Linear counted(4, 4);
  torch::nn::Linear grouped(4, 4);
  torch::nn::Linear collected(4, 4);
  torch::optim::SGD optimizer(trained->parameters(), 0.1);
  for (auto &p : frozen->parameters())
    p.requires_grad_(false);
  int64_t n = 0;
  for (auto &p : counted->parameters())
    n += p.numel();
  std::vector<torch::Tensor> params;
  auto more = grouped->parameters();
  params.insert(params.end(), more.begin(), more.end());
  for (auto &p : collected->parameters())
    params.push_back(p);
}
)cpp");
  EXPECT_TRUE(Modes->parametersHandedOn(var("top", "trained")));
  EXPECT_FALSE(Modes->parametersHandedOn(var("top", "frozen")));
  EXPECT_TRUE(Modes->parametersFrozen(var("top", "frozen")));
  EXPECT_FALSE(Modes->parametersHandedOn(var("top", "counted")));
  EXPECT_FALSE(Modes->parametersFrozen(var("top", "counted")));
  EXPECT_TRUE(Modes->parametersHandedOn(var("top", "grouped")));
  EXPECT_TRUE(Modes->parametersHandedOn(var("top", "collected")));
  EXPECT_TRUE(Modes->anyParametersHandedOn());
  EXPECT_FALSE(Modes->isUntrainedModule(var("top", "trained")));
  EXPECT_TRUE(Modes->isUntrainedModule(var("top", "counted")));
}

TEST_F(ModuleModesTest, NoOptimizerInTheFileMeansUnknown) {
  parse(R"cpp(
void top() {
  torch::nn::Linear alone(4, 4);
  torch::nn::Linear registered(4, 4);
  torch::nn::Sequential seq;
  seq->push_back(registered);
}
)cpp");
  EXPECT_FALSE(Modes->anyParametersHandedOn() &&
               !Modes->parametersHandedOn(var("top", "registered")));
  EXPECT_FALSE(Modes->isUntrainedModule(var("top", "alone")) &&
               !Modes->anyParametersHandedOn());
}

TEST_F(ModuleModesTest, UnrestoredEval) {
  parse(R"cpp(
void evaluate(torch::nn::Linear &m) { m->eval(); }
void evaluate_restore(torch::nn::Linear &m) { m->eval(); m->train(); }
void inline_eval(torch::nn::Linear m, torch::Tensor x) {
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int e = 0; e < 3; ++e) {
    for (int s = 0; s < 3; ++s)
      step(m, opt, x);
    m->eval();
  }
}
void called_eval(torch::nn::Linear m, torch::Tensor x) {
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int e = 0; e < 3; ++e) {
    for (int s = 0; s < 3; ++s)
      step(m, opt, x);
    evaluate(m);
  }
}
void restored(torch::nn::Linear m, torch::Tensor x) {
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int e = 0; e < 3; ++e) {
    for (int s = 0; s < 3; ++s)
      step(m, opt, x);
    evaluate_restore(m);
  }
}
void restored_at_top(torch::nn::Linear m, torch::Tensor x) {
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int e = 0; e < 3; ++e) {
    m->train();
    for (int s = 0; s < 3; ++s)
      step(m, opt, x);
    m->eval();
  }
}
void restored_before_loop(torch::nn::Linear m, torch::Tensor x) {
  torch::optim::SGD opt(m->parameters(), 0.1);
  m->train();
  for (int e = 0; e < 3; ++e) {
    for (int s = 0; s < 3; ++s)
      step(m, opt, x);
    m->eval();
  }
}
void after_loop(torch::nn::Linear m, torch::Tensor x) {
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int e = 0; e < 3; ++e)
    step(m, opt, x);
  m->eval();
}
void other_module(torch::nn::Linear m, torch::nn::Linear teacher,
                  torch::Tensor x) {
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int e = 0; e < 3; ++e) {
    teacher->eval();
    step(m, opt, x);
  }
}
void last_epoch(torch::nn::Linear m, torch::Tensor x) {
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int e = 0; e < 3; ++e) {
    step(m, opt, x);
    if (e == 2)
      m->eval();
  }
}
)cpp");
  EXPECT_TRUE(unrestored("inline_eval"));
  EXPECT_TRUE(unrestored("restored_before_loop"));
  EXPECT_FALSE(unrestored("restored_at_top"));
  EXPECT_FALSE(unrestored("after_loop"));
  EXPECT_FALSE(unrestored("other_module"));
  EXPECT_FALSE(unrestored("last_epoch"));
  // The eval() in evaluate() runs from called_eval (unrestored) and the one
  // in evaluate_restore() is undone right after.
  EXPECT_TRUE(unrestored("evaluate"));
  auto Restoring = evals("evaluate_restore");
  ASSERT_EQ(Restoring.size(), 1u);
  EXPECT_FALSE(Modes->unrestoredEval(Restoring[0]));
  std::optional<analysis::UnrestoredEval> Found =
      Modes->unrestoredEval(evals("inline_eval")[0]);
  ASSERT_TRUE(Found);
  EXPECT_EQ(Found->ModuleInLoop, var("inline_eval", "m"));
}

} // namespace module_modes_test
