//===--- GradientOrderTest.cpp - gradient-event ordering unit tests -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/gradients/GradientOrder.h"
#include "ASTTestSupport.h"
#include "analysis/gradients/LossScaling.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::GradEvent;
using clang::tidy::libtorch::analysis::GradEventKind;
using clang::tidy::libtorch::analysis::gradientEvents;
using clang::tidy::libtorch::analysis::TrainingLoopModel;
using clang::tidy::libtorch::utils::UserCodeParents;

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

TEST_F(GradientOrderTest, PlacesTheSteps) {
  auto Events = events(R"cpp(
void f(Net &n, int accum) {
  step_loop:
  for (int i = 0; i < 10; ++i) {
    if (i > 5)
      n.optimizer.step();
    n.model(n.x).sum().backward();
    if ((i + 1) % accum == 0)
      n.optimizer.step();
    n.optimizer.step();
  }
})cpp");
  ASSERT_EQ(kinds(Events), "step? backward step@guard step");
  auto Steps = clang::tidy::libtorch::analysis::placeSteps(Events);
  EXPECT_EQ(Steps.FirstDirectStep, &Events[0]) << "unordered, still direct";
  EXPECT_EQ(Steps.GuardedStep, &Events[2]);
  EXPECT_EQ(Steps.UnguardedStep, &Events[3]);
  EXPECT_TRUE(Steps.AnyBackward);
  EXPECT_FALSE(Steps.AnyReset);
}

TEST_F(GradientOrderTest, PlacesNoStepReachedThroughACall) {
  auto Events = events(R"cpp(
void update(Net &n) { n.optimizer.step(); }
void f(Net &n) {
  step_loop:
  for (int i = 0; i < 10; ++i) {
    for (auto &p : n.model->parameters())
      p.mutable_grad().reset();
    update(n);
  }
})cpp");
  ASSERT_EQ(kinds(Events), "reset? step(via)");
  auto Steps = clang::tidy::libtorch::analysis::placeSteps(Events);
  EXPECT_EQ(Steps.FirstDirectStep, nullptr);
  EXPECT_EQ(Steps.GuardedStep, nullptr);
  EXPECT_EQ(Steps.UnguardedStep, nullptr);
  EXPECT_TRUE(Steps.AnyReset) << "an unordered reset still counts";
  EXPECT_FALSE(Steps.AnyBackward);
  EXPECT_FALSE(clang::tidy::libtorch::analysis::isOrdered(Events[1]));
}

TEST_F(GradientOrderTest, EventsUnderAGuard) {
  auto Events = events(R"cpp(
void f(Net &n, int accum) {
  step_loop:
  for (int i = 0; i < 10; ++i) {
    n.model(n.x).sum().backward();
    if ((i + 1) % accum == 0) {
      n.optimizer.step();
      for (auto &p : n.model->parameters())
        p.mutable_grad().reset();
    }
  }
})cpp");
  ASSERT_EQ(kinds(Events), "backward step@guard reset@guard?");
  using clang::tidy::libtorch::analysis::runsUnderGuard;
  const IfStmt *Guard = Events[1].PeriodicGuard;
  EXPECT_TRUE(runsUnderGuard(
      Events, {GradEventKind::ZeroGrad, GradEventKind::GradReset}, Guard));
  EXPECT_FALSE(runsUnderGuard(Events, {GradEventKind::ZeroGrad}, Guard));
  EXPECT_TRUE(runsUnderGuard(Events, {GradEventKind::Backward}, nullptr));
  EXPECT_FALSE(runsUnderGuard(Events, {GradEventKind::Step}, nullptr));
}

TEST_F(GradientOrderTest, ZeroGradBetweenBackwardAndStep) {
  auto Events = events(R"cpp(
void f(Net &n, torch::optim::SGD &critic) {
  step_loop:
  for (int i = 0; i < 10; ++i) {
    n.model(n.x).sum().backward();
    n.optimizer.zero_grad();
    n.optimizer.step();
    critic.zero_grad();
    n.model(n.x).sum().backward();
    critic.step();
    n.model(n.x).sum().backward();
    if (i % 2 == 0)
      n.optimizer.zero_grad();
    n.optimizer.step();
  }
})cpp");
  ASSERT_EQ(kinds(Events),
            "backward zero step zero backward step backward zero@guard step");
  auto Found = clang::tidy::libtorch::analysis::zeroGradsBetweenBackwardAndStep(
      Events, AST->getSourceManager());
  ASSERT_EQ(Found.size(), 1u)
      << "after a step it is right; under another guard it is not ordered";
  EXPECT_EQ(Found[0], &Events[1]);
}

TEST_F(GradientOrderTest, UnscaledBackwards) {
  auto Events = events(R"cpp(
void f(Net &n, int accum) {
  step_loop:
  for (int i = 0; i < 10; ++i) {
    auto loss = n.model(n.x).sum();
    loss.backward();
    auto scaled = n.model(n.x).sum() / accum;
    scaled.backward();
    if (i % accum == 0)
      loss.backward();
    torch::autograd::backward({loss});
  }
})cpp");
  ASSERT_EQ(kinds(Events), "backward backward backward@guard backward");
  auto Functions =
      match(functionDecl(hasName("f"), isExpansionInMainFile()).bind("f"),
            AST->getASTContext());
  ASSERT_EQ(Functions.size(), 1u);
  auto Found = clang::tidy::libtorch::analysis::unscaledBackwards(
      Events, Functions[0].getNodeAs<FunctionDecl>("f"));
  ASSERT_EQ(Found.size(), 1u)
      << "scaled, guarded, or a free function's losses are not read";
  EXPECT_EQ(Found[0], Events[0].Call);
}

} // namespace gradient_order_test
