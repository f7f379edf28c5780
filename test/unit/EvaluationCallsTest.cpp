//===--- EvaluationCallsTest.cpp - evaluation functions unit tests --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/EvaluationCalls.h"
#include "TrainingStepFixture.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::evaluationPass;
using clang::tidy::libtorch::analysis::unguardedCallFromTrainingLoop;

// Named, not anonymous: the unit tests compile in unity batches.
namespace evaluation_calls_test {

class EvaluationCallsTest : public libtorch_tidy::testing::TrainingStepFixture {
protected:
  void parse(const std::string &Code) {
    parseStep(libtorch_tidy::testing::trainingStepPrelude(), Code);
  }

  const FunctionDecl *function(const std::string &Name) {
    auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Name;
    return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
  }

  /// The callees of the unguarded chain to \p Name, outermost first; "-"
  /// when there is none.
  std::string chainTo(const std::string &Name) {
    auto Chain = unguardedCallFromTrainingLoop(function(Name), *Loops,
                                               AST->getASTContext());
    if (!Chain)
      return "-";
    std::string Text;
    for (const CallExpr *Call : *Chain)
      Text += (Text.empty() ? "" : " ") +
              Call->getDirectCallee()->getNameAsString();
    return Text;
  }

  bool evaluates(const std::string &Name) {
    return evaluationPass(function(Name), *Loops, AST->getASTContext())
        .has_value();
  }
};

TEST_F(EvaluationCallsTest, ChainsFromTheTrainingLoop) {
  parse(R"cpp(
void leaf() {}
void guarded_leaf() {}
void deep_leaf() {}
void once_leaf() {}
void middle() { leaf(); deep_leaf(); }
void guarded_middle() { torch::NoGradGuard g; deep_leaf(); }
void train(Step &s) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    s.once();
    middle();
    guarded_middle();
    {
      torch::NoGradGuard g;
      guarded_leaf();
    }
  }
  once_leaf();
})cpp");
  EXPECT_EQ(chainTo("leaf"), "middle leaf");
  EXPECT_EQ(chainTo("middle"), "middle");
  EXPECT_EQ(chainTo("guarded_leaf"), "-") << "the guard around the call";
  EXPECT_EQ(chainTo("deep_leaf"), "middle deep_leaf")
      << "one chain is guarded, the other is not";
  EXPECT_EQ(chainTo("once_leaf"), "-") << "called after the loop";
}

TEST_F(EvaluationCallsTest, RecursionEndsTheWalk) {
  parse(R"cpp(
void ping(int n);
void pong(int n) { if (n) ping(n - 1); }
void ping(int n) { if (n) pong(n - 1); }
void train(Step &s) { ping(3); })cpp");
  EXPECT_EQ(chainTo("pong"), "-");
}

TEST_F(EvaluationCallsTest, EvaluationFunctions) {
  parse(R"cpp(
void show(double);
void evaluate(torch::nn::Linear &m, const torch::Tensor &x) {
  m->eval();
  show(m(x).sum().item<double>());
}
void evaluate_guarded(torch::nn::Linear &m, const torch::Tensor &x) {
  torch::NoGradGuard g;
  m->eval();
  show(m(x).sum().item<double>());
}
void no_eval(torch::nn::Linear &m, const torch::Tensor &x) {
  show(m(x).sum().item<double>());
}
torch::Tensor returns(torch::nn::Linear &m, const torch::Tensor &x) {
  m->eval();
  return m(x);
}
void loops(torch::nn::Linear &m, const torch::Tensor &x) {
  m->eval();
  for (int i = 0; i < 3; ++i)
    show(m(x).sum().item<double>());
}
void not_from_training(torch::nn::Linear &m, const torch::Tensor &x) {
  m->eval();
  show(m(x).sum().item<double>());
}
void train_epoch(Step &s) {
  for (int i = 0; i < 100; ++i)
    s.once();
}
void train(Step &s, torch::nn::Linear &m) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    train_epoch(s);
    evaluate(m, s.x);
    evaluate_guarded(m, s.x);
    no_eval(m, s.x);
    returns(m, s.x);
    loops(m, s.x);
  }
  not_from_training(m, s.x);
})cpp");
  EXPECT_TRUE(evaluates("evaluate"));
  EXPECT_FALSE(evaluates("evaluate_guarded"));
  EXPECT_FALSE(evaluates("no_eval"));
  EXPECT_FALSE(evaluates("returns"));
  EXPECT_FALSE(evaluates("loops")) << "an evaluation loop, judged as such";
  EXPECT_FALSE(evaluates("not_from_training"));
  EXPECT_FALSE(evaluates("train_epoch"));
}

} // namespace evaluation_calls_test
