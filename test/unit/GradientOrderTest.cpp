//===--- GradientOrderTest.cpp - gradient-event ordering unit tests -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/GradientOrder.h"
#include "ASTTestSupport.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::GradEvent;
using clang::tidy::libtorch::analysis::GradEventKind;
using clang::tidy::libtorch::analysis::gradientEvents;
using clang::tidy::libtorch::analysis::TrainingLoopModel;
using clang::tidy::libtorch::analysis::UserCodeParents;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace gradient_order_test {

const char Prelude[] = R"cpp(
#include <torch/torch.h>
struct Net {
  torch::nn::Linear model{4, 2};
  torch::optim::SGD optimizer{model->parameters(), 0.1};
  torch::Tensor x = torch::zeros({8, 4});
};
)cpp";

/// Parses the snippet and lists the gradient events of the loop labelled
/// `step_loop:`.
class GradientOrderTest : public ::testing::Test {
protected:
  std::vector<GradEvent> events(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(Prelude + Code);
    EXPECT_TRUE(AST);
    if (!AST)
      return {};
    Parents = std::make_unique<UserCodeParents>(AST->getASTContext());
    Model = std::make_unique<TrainingLoopModel>(AST->getASTContext(), *Parents);
    auto Found = match(labelStmt(has(stmt().bind("loop"))).bind("label"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u);
    if (Found.empty() || Found[0].getNodeAs<LabelStmt>("label")->getName() !=
                             StringRef("step_loop"))
      return {};
    auto Events = gradientEvents(Found[0].getNodeAs<Stmt>("loop"),
                                 AST->getASTContext(), *Model);
    return std::vector<GradEvent>(Events.begin(), Events.end());
  }

  static std::string kinds(const std::vector<GradEvent> &Events) {
    std::string Out;
    for (const GradEvent &Event : Events) {
      if (!Out.empty())
        Out += ' ';
      switch (Event.Kind) {
      case GradEventKind::ZeroGrad:
        Out += "zero";
        break;
      case GradEventKind::GradReset:
        Out += "reset";
        break;
      case GradEventKind::Backward:
        Out += "backward";
        break;
      case GradEventKind::Step:
        Out += "step";
        break;
      }
      if (Event.PeriodicGuard)
        Out += "@guard";
      if (Event.Unordered)
        Out += "?";
      if (Event.Via)
        Out += "(via)";
    }
    return Out;
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
  std::unique_ptr<TrainingLoopModel> Model;
};

TEST_F(GradientOrderTest, SourceOrderOfOneIteration) {
  auto Events = events(R"cpp(
void f(Net &n) {
  step_loop:
  for (int i = 0; i < 10; ++i) {
    n.optimizer.zero_grad();
    auto loss = n.model(n.x).sum();
    loss.backward();
    n.optimizer.step();
  }
})cpp");
  EXPECT_EQ(kinds(Events), "zero backward step");
}

TEST_F(GradientOrderTest, PeriodicGuardIsRecorded) {
  auto Events = events(R"cpp(
void f(Net &n, int accum) {
  step_loop:
  for (int i = 0; i < 10; ++i) {
    n.model->zero_grad();
    auto loss = n.model(n.x).sum() / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      n.optimizer.step();
      n.optimizer.zero_grad();
    }
  }
})cpp");
  EXPECT_EQ(kinds(Events), "zero backward step@guard zero@guard");
  EXPECT_EQ(Events[2].PeriodicGuard, Events[3].PeriodicGuard);
}

TEST_F(GradientOrderTest, ConditionalsNestedLoopsAndLambdasAreUnordered) {
  auto Events = events(R"cpp(
void f(Net &n, bool restart) {
  step_loop:
  for (int i = 0; i < 10; ++i) {
    if (restart)
      n.optimizer.zero_grad();
    for (auto &p : n.model->parameters())
      p.mutable_grad().reset();
    auto closure = [&] {
      n.optimizer.zero_grad();
      return n.model(n.x).sum();
    };
    n.model(n.x).sum().backward();
    n.optimizer.step();
  }
})cpp");
  EXPECT_EQ(kinds(Events), "zero? reset? zero? backward step");
}

TEST_F(GradientOrderTest, HelpersArePlacedAtTheirCall) {
  auto Events = events(R"cpp(
void zero(Net &n) { n.optimizer.zero_grad(); }
void update(Net &n) {
  n.model(n.x).sum().backward();
  n.optimizer.step();
}
void f(Net &n) {
  step_loop:
  for (int i = 0; i < 10; ++i) {
    zero(n);
    if (i % 2 == 0)
      update(n);
  }
})cpp");
  EXPECT_EQ(kinds(Events), "zero(via) backward@guard(via) step@guard(via)");
  EXPECT_NE(Events[0].Via, nullptr);
  EXPECT_EQ(Events[1].Via, Events[2].Via);
}

TEST_F(GradientOrderTest, RecognizesResets) {
  AST = libtorch_tidy::testing::parseWithMockTorch(Prelude + std::string(R"cpp(
void f(Net &n) {
  for (auto &p : n.model->parameters()) {
    p.mutable_grad().reset();
    p.mutable_grad() = torch::Tensor();
    p.reset();
  }
})cpp"));
  ASSERT_TRUE(AST);
  auto Calls = match(
      functionDecl(hasName("f"), forEachDescendant(callExpr().bind("call"))),
      AST->getASTContext());
  int Resets = 0;
  for (const BoundNodes &Call : Calls)
    Resets += clang::tidy::libtorch::analysis::isGradResetCall(
        Call.getNodeAs<CallExpr>("call"));
  EXPECT_EQ(Resets, 2) << "p.reset() drops the parameter, not its gradient";
}

} // namespace gradient_order_test
