//===--- AccumulationWindowTest.cpp - cross-epoch window unit tests -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/gradients/AccumulationWindow.h"
#include "ASTTestSupport.h"
#include "analysis/gradients/GradientOrder.h"
#include "analysis/gradients/LossScaling.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::accumulationCount;
using clang::tidy::libtorch::analysis::accumulationCounter;
using clang::tidy::libtorch::analysis::CrossEpochWindow;
using clang::tidy::libtorch::analysis::crossEpochWindow;
using clang::tidy::libtorch::analysis::GradEvent;
using clang::tidy::libtorch::analysis::GradEventKind;
using clang::tidy::libtorch::analysis::gradientEvents;
using clang::tidy::libtorch::analysis::stepCompensatesForSum;
using clang::tidy::libtorch::analysis::TrainingLoopModel;
using clang::tidy::libtorch::analysis::zeroGradBeforeLastBackward;
using clang::tidy::libtorch::utils::UserCodeParents;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace accumulation_window_test {

const char Prelude[] = R"cpp(
#include <torch/torch.h>
struct Net {
  torch::nn::Linear model{4, 2};
  torch::optim::SGD optimizer{model->parameters(), 0.1};
  torch::Tensor x = torch::zeros({8, 4});
};
)cpp";

/// Parses the snippet and asks for the window of the guarded step() in the
/// loop labelled `step_loop:`.
class AccumulationWindowTest : public ::testing::Test {
protected:
  std::optional<CrossEpochWindow> window(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(Prelude + Code);
    EXPECT_TRUE(AST);
    if (!AST)
      return std::nullopt;
    ASTContext &Context = AST->getASTContext();
    Parents = std::make_unique<UserCodeParents>(Context);
    Model = std::make_unique<TrainingLoopModel>(Context, *Parents);
    auto Found = match(labelStmt(has(stmt().bind("loop"))), Context);
    EXPECT_EQ(Found.size(), 1u);
    if (Found.empty())
      return std::nullopt;
    const Stmt *Loop = Found[0].getNodeAs<Stmt>("loop");
    const IfStmt *Guard = nullptr;
    for (const GradEvent &Event : gradientEvents(Loop, Context, *Model))
      if (Event.Kind == GradEventKind::Step && Event.PeriodicGuard)
        Guard = Event.PeriodicGuard;
    EXPECT_TRUE(Guard);
    return crossEpochWindow(Loop, Guard, Context, *Model);
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
  std::unique_ptr<TrainingLoopModel> Model;
};

const char Window[] = R"cpp(
  for (int b = 0; b < batches; ++b) {
    (n.model(n.x).sum() / accum).backward();
    if (++global_step % accum == 0) {
      n.optimizer.step();
      n.optimizer.zero_grad();
    }
  })cpp";

TEST_F(AccumulationWindowTest, GlobalCounterWithEpochZeroGrad) {
  auto Found = window(std::string(R"cpp(
void f(Net &n, int epochs, int batches, int accum) {
  long global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    step_loop:)cpp") + Window +
                      "\n  }\n}");
  ASSERT_TRUE(Found);
  EXPECT_EQ(Found->Counter->getName(), "global_step");
  EXPECT_TRUE(isa<ForStmt>(Found->EpochLoop));
  EXPECT_TRUE(Found->EpochZeroGrad);
}

TEST_F(AccumulationWindowTest, CounterDeclaredInEpochLoop) {
  EXPECT_FALSE(window(std::string(R"cpp(
void f(Net &n, int epochs, int batches, int accum) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    long global_step = 0;
    n.optimizer.zero_grad();
    step_loop:)cpp") + Window +
                      "\n  }\n}"));
}

TEST_F(AccumulationWindowTest, CounterResetInEpochLoop) {
  EXPECT_FALSE(window(std::string(R"cpp(
void f(Net &n, int epochs, int batches, int accum) {
  long global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    global_step = 0;
    step_loop:)cpp") + Window +
                      "\n  }\n}"));
}

TEST_F(AccumulationWindowTest, EpochEndFlush) {
  EXPECT_FALSE(window(std::string(R"cpp(
void f(Net &n, int epochs, int batches, int accum) {
  long global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    step_loop:)cpp") + Window +
                      R"cpp(
    if (global_step % accum != 0)
      n.optimizer.step();
  }
})cpp"));
}

TEST_F(AccumulationWindowTest, NoEpochZeroGrad) {
  EXPECT_FALSE(window(std::string(R"cpp(
void f(Net &n, int epochs, int batches, int accum) {
  long global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    step_loop:)cpp") + Window +
                      "\n  }\n}"));
}

TEST_F(AccumulationWindowTest, ConditionalEpochZeroGradIsNotCounted) {
  EXPECT_FALSE(window(std::string(R"cpp(
void f(Net &n, int epochs, int batches, int accum, bool restart) {
  long global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    if (restart)
      n.optimizer.zero_grad();
    step_loop:)cpp") + Window +
                      "\n  }\n}"));
}

TEST_F(AccumulationWindowTest, ConstantBatchCountMultipleOfWindow) {
  const char Code[] = R"cpp(
void f(Net &n, int epochs) {
  long global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    n.optimizer.zero_grad();
    step_loop:
    for (int b = 0; b < BATCHES; ++b) {
      (n.model(n.x).sum() / 4).backward();
      if (++global_step % 4 == 0) {
        n.optimizer.step();
        n.optimizer.zero_grad();
      }
    }
  }
})cpp";
  EXPECT_FALSE(window("#define BATCHES 100\n" + std::string(Code)));
  EXPECT_TRUE(window("#define BATCHES 101\n" + std::string(Code)));
}

TEST_F(AccumulationWindowTest, CounterOfSeveralVariablesIsNotJudged) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(R"cpp(
int a, b;
bool c = (a * 3 + b) % 4 == 0;
bool d = (++a + 1) % b == 0;
)cpp");
  ASSERT_TRUE(AST);
  auto Found = match(varDecl(hasName("c"), hasInitializer(expr().bind("e"))),
                     AST->getASTContext());
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_FALSE(accumulationCounter(Found[0].getNodeAs<Expr>("e")));
  Found = match(varDecl(hasName("d"), hasInitializer(expr().bind("e"))),
                AST->getASTContext());
  ASSERT_EQ(Found.size(), 1u);
  const ValueDecl *Counter = accumulationCounter(Found[0].getNodeAs<Expr>("e"));
  ASSERT_TRUE(Counter);
  EXPECT_EQ(Counter->getName(), "a");
}

/// The events of the loop labelled `step_loop:` and its guarded step().
class WindowEventsTest : public ::testing::Test {
protected:
  void parse(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(Prelude + Code);
    ASSERT_TRUE(AST);
    ASTContext &Context = AST->getASTContext();
    Parents = std::make_unique<UserCodeParents>(Context);
    Model = std::make_unique<TrainingLoopModel>(Context, *Parents);
    auto Found = match(labelStmt(has(stmt().bind("loop"))), Context);
    ASSERT_EQ(Found.size(), 1u);
    Events = gradientEvents(Found[0].getNodeAs<Stmt>("loop"), Context, *Model);
    for (const GradEvent &Event : Events)
      if (Event.Kind == GradEventKind::Step && Event.PeriodicGuard)
        Step = &Event;
    ASSERT_TRUE(Step);
  }
  bool zeroesBeforeLastBackward() {
    return zeroGradBeforeLastBackward(Events, *Step, AST->getASTContext());
  }
  bool compensates() {
    return stepCompensatesForSum(
        cast<CXXMemberCallExpr>(Step->Call),
        accumulationCount(Step->PeriodicGuard->getCond()),
        AST->getASTContext());
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
  std::unique_ptr<TrainingLoopModel> Model;
  llvm::SmallVector<GradEvent, 8> Events;
  const GradEvent *Step = nullptr;
};

TEST_F(WindowEventsTest, ZeroGradOnTheLastMicroBatch) {
  parse(R"cpp(
void f(Net &n, int accum) {
  step_loop: for (int i = 0; i < 100; ++i) {
    if ((i + 1) % accum == 0) n.optimizer.zero_grad();
    (n.model(n.x).sum() / accum).backward();
    if ((i + 1) % accum == 0) n.optimizer.step();
  }
})cpp");
  EXPECT_TRUE(zeroesBeforeLastBackward());
}

TEST_F(WindowEventsTest, ZeroGradOnTheFirstMicroBatch) {
  parse(R"cpp(
void f(Net &n, int accum) {
  step_loop: for (int i = 0; i < 100; ++i) {
    if (i % accum == 0) n.optimizer.zero_grad();
    (n.model(n.x).sum() / accum).backward();
    if ((i + 1) % accum == 0) n.optimizer.step();
  }
})cpp");
  EXPECT_FALSE(zeroesBeforeLastBackward());
}

TEST_F(WindowEventsTest, StepBeforeZeroGrad) {
  parse(R"cpp(
void f(Net &n, int accum) {
  step_loop: for (int i = 0; i < 100; ++i) {
    if (i % accum == 0) n.optimizer.step();
    if (i % accum == 0) n.optimizer.zero_grad();
    (n.model(n.x).sum() / accum).backward();
  }
})cpp");
  EXPECT_FALSE(zeroesBeforeLastBackward());
}

TEST_F(WindowEventsTest, SgdWithTheLearningRateDivided) {
  parse(R"cpp(
void f(torch::nn::Linear model, torch::Tensor x, int accum) {
  const double lr = 0.1 / accum;
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(lr));
  step_loop: for (int i = 0; i < 100; ++i) {
    model(x).sum().backward();
    if ((i + 1) % accum == 0) { sgd.step(); sgd.zero_grad(); }
  }
})cpp");
  EXPECT_TRUE(compensates());
}

TEST_F(WindowEventsTest, SgdWithAnotherDivision) {
  parse(R"cpp(
void f(torch::nn::Linear model, torch::Tensor x, int accum, int other) {
  torch::optim::SGD sgd(model->parameters(), 0.1 / other);
  step_loop: for (int i = 0; i < 100; ++i) {
    model(x).sum().backward();
    if ((i + 1) % accum == 0) { sgd.step(); sgd.zero_grad(); }
  }
})cpp");
  EXPECT_FALSE(compensates());
}

TEST_F(WindowEventsTest, AdamNormalizesTheScale) {
  parse(R"cpp(
void f(torch::nn::Linear model, torch::Tensor x, int accum) {
  torch::optim::Adam adam(model->parameters(), 1e-3);
  step_loop: for (int i = 0; i < 100; ++i) {
    model(x).sum().backward();
    if ((i + 1) % accum == 0) { adam.step(); adam.zero_grad(); }
  }
})cpp");
  EXPECT_TRUE(compensates());
}

TEST_F(WindowEventsTest, OptimizerSeenAsTheBaseClass) {
  parse(R"cpp(
void f(torch::nn::Linear model, torch::Tensor x, int accum,
       torch::optim::Optimizer &opt) {
  step_loop: for (int i = 0; i < 100; ++i) {
    model(x).sum().backward();
    if ((i + 1) % accum == 0) { opt.step(); opt.zero_grad(); }
  }
})cpp");
  EXPECT_FALSE(compensates());
}

} // namespace accumulation_window_test
