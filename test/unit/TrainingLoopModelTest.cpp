//===--- TrainingLoopModelTest.cpp - training-loop model unit tests -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/TrainingLoopModel.h"
#include "TrainingStepFixture.h"
#include "analysis/summaries/CalledElsewhere.h"
#include "analysis/summaries/SummaryTable.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::FunctionSummary;
using clang::tidy::libtorch::analysis::StepEntries;
using clang::tidy::libtorch::analysis::StepPath;
using clang::tidy::libtorch::analysis::TrainingLoopModel;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace training_loop_model_test {

/// Parses the snippet and answers questions about `probe(N)` calls in it.
class TrainingLoopModelTest
    : public libtorch_tidy::testing::TrainingStepFixture {
protected:
  void parse(const std::string &Code, std::vector<std::string> Macros = {}) {
    parseStep(libtorch_tidy::testing::trainingStepPrelude(), Code, Macros);
  }

  std::optional<StepPath> perStep(int Id) { return Loops->perStep(probe(Id)); }
  bool isPerStep(int Id) { return perStep(Id).has_value(); }
};

TEST_F(TrainingLoopModelTest, StepLoopInsideEpochLoop) {
  parse(R"cpp(
void train(Step &s) {
  probe(1);
  for (int epoch = 0; epoch < 3; ++epoch) {
    probe(2);
    for (int i = 0; i < 10; ++i) {
      probe(3);
      s.optimizer.zero_grad();
      auto loss = s.model(s.x).sum();
      loss.backward();
      s.optimizer.step();
      for (int j = 0; j < 2; ++j)
        probe(4);
    }
    probe(5);
  }
  probe(6);
})cpp");
  EXPECT_FALSE(isPerStep(1));
  EXPECT_FALSE(isPerStep(2)) << "once per epoch";
  EXPECT_TRUE(isPerStep(3));
  EXPECT_TRUE(isPerStep(4)) << "a nested non-training loop is still per step";
  EXPECT_FALSE(isPerStep(5)) << "once per epoch";
  EXPECT_FALSE(isPerStep(6));
}

TEST_F(TrainingLoopModelTest, LoopKinds) {
  parse(R"cpp(
void train(Step &s, std::vector<torch::Tensor> batches) {
  int i = 0;
  while (i++ < 10) { probe(1); s.optimizer.step(); }
  do { probe(2); torch::autograd::backward({s.x}); } while (i-- > 0);
  for (auto &batch : batches) { probe(3); batch.backward(); }
  for (auto &batch : batches) { probe(4); batch.sum(); }
})cpp");
  EXPECT_TRUE(isPerStep(1)) << "while + Optimizer::step";
  EXPECT_TRUE(isPerStep(2)) << "do + torch::autograd::backward";
  EXPECT_TRUE(isPerStep(3)) << "range-for + Tensor::backward";
  EXPECT_FALSE(isPerStep(4)) << "no backward, no step: not training";
}

TEST_F(TrainingLoopModelTest, StepFunctionsAndCallers) {
  parse(R"cpp(
struct Trainer {
  Step s;
  float trainStep() { probe(1); s.once(); return 0; }
  void fit() { for (int i = 0; i < 10; ++i) trainStep(); }
};
void trainEpoch(Step &s) {
  for (int i = 0; i < 10; ++i) { probe(2); s.once(); }
}
void run(Step &s) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    trainEpoch(s);
    probe(3);
  }
})cpp");
  std::optional<StepPath> ViaMember = perStep(1);
  ASSERT_TRUE(ViaMember.has_value()) << "Trainer::fit calls trainStep per step";
  EXPECT_EQ(ViaMember->Calls.size(), 1u);
  EXPECT_TRUE(isPerStep(2));
  EXPECT_FALSE(isPerStep(3))
      << "a function holding a whole step loop makes no step loop";
  auto Functions = match(functionDecl(hasName("trainEpoch")).bind("f"),
                         AST->getASTContext());
  ASSERT_FALSE(Functions.empty());
  EXPECT_FALSE(
      Loops->isStepFunction(Functions[0].getNodeAs<FunctionDecl>("f")));
}

TEST_F(TrainingLoopModelTest, Lambdas) {
  parse(R"cpp(
void train(Step &s) {
  auto step = [&] { probe(1); s.once(); };
  for (int i = 0; i < 10; ++i)
    step();
  for (int i = 0; i < 10; ++i) {
    auto inner = [&] { probe(2); };
    inner();
    s.once();
  }
  auto unused = [&] { probe(3); s.once(); };
})cpp");
  EXPECT_TRUE(isPerStep(1)) << "lambda defined before the loop, called in it";
  EXPECT_TRUE(isPerStep(2)) << "lambda defined in the loop";
  EXPECT_FALSE(isPerStep(3)) << "never called";
}

TEST_F(TrainingLoopModelTest, PeriodicGuards) {
  parse(R"cpp(
#define LOG_EVERY(n, i) if ((i) % (n) == 0)
void train(Step &s, int log_interval, bool verbose, torch::Tensor loss) {
  int batch_idx = 0;
  for (int i = 0; i < 100; ++i) {
    s.once();
    if (i % 10 == 0) probe(1);
    if ((i + 1) % log_interval != 0) probe(2);
    if (batch_idx++ % log_interval == 0) probe(3);
    if (!(i % 5)) probe(4);
    if (verbose) probe(5);
    if (i == 99) probe(6);
    LOG_EVERY(10, i) probe(7);
    if (i % 1 == 0) probe(8);
    if (i % 10 == 0) {} else probe(9);
    if (loss.item<float>() > 1) probe(10);
    if (i > 5) probe(11);
  }
  for (int i = 0; i < 100; ++i) {
    s.once();
    probe(12);
    if (i % log_interval != 0)
      continue;
    probe(13);
  }
  for (int i = 0; i < 100; ++i) {
    s.once();
    if (loss.size(0) == 0)
      continue;
    probe(14);
    if (!(i == 0))
      break;
    probe(15);
  }
})cpp");
  EXPECT_TRUE(isPerStep(12)) << "before the early continue";
  EXPECT_FALSE(isPerStep(13)) << "after 'if (i % N != 0) continue;'";
  EXPECT_TRUE(isPerStep(14))
      << "after 'if (n == 0) continue;': every iteration but that one";
  EXPECT_FALSE(isPerStep(15)) << "after 'if (!(i == 0)) break;': once";
  for (int Guarded : {1, 2, 3, 4, 5, 6, 7})
    EXPECT_FALSE(isPerStep(Guarded)) << "probe(" << Guarded << ") is guarded";
  for (int Unguarded : {8, 9, 10, 11})
    EXPECT_TRUE(isPerStep(Unguarded))
        << "probe(" << Unguarded << ") runs per step";
}

TEST_F(TrainingLoopModelTest, GuardMacrosFromOptions) {
  const std::string Code = R"cpp(
bool should_log();
#define EVERY_N_STEPS(body) do { if (should_log()) { body; } } while (0)
void train(Step &s) {
  for (int i = 0; i < 100; ++i) {
    s.once();
    EVERY_N_STEPS(probe(1));
  }
})cpp";
  parse(Code);
  EXPECT_TRUE(isPerStep(1)) << "a call condition is not known to be periodic";
  parse(Code, {"EVERY_N_STEPS"});
  EXPECT_FALSE(isPerStep(1)) << "named in PeriodicGuardMacros";
}

TEST_F(TrainingLoopModelTest, CallDepthIsBounded) {
  parse(R"cpp(
void d3(Step &s) { s.x.sum().backward(); }
void d2(Step &s) { d3(s); }
void d1(Step &s) { d2(s); }
void d0(Step &s) { d1(s); }
void train(Step &s) {
  for (int i = 0; i < 10; ++i) { d1(s); probe(1); }
  for (int i = 0; i < 10; ++i) { d0(s); probe(2); }
})cpp");
  EXPECT_TRUE(isPerStep(1)) << "a backward 3 calls deep is seen";
  EXPECT_FALSE(isPerStep(2)) << "4 calls deep is past CallDepth::TrainingStep";
}

TEST_F(TrainingLoopModelTest, StepFunctionsCalledFromOutside) {
  parse(R"cpp(
// Called by another unit: each call is one step.
float train_step(Step &s) { probe(1); s.once(); return 0; }
// learn() is the entry; update() the step it calls.
struct Agent {
  Step s;
  void update() { probe(2); s.x.sum().backward(); s.optimizer.step(); }
  void learn() { probe(3); update(); }
};
// Only one half of a step each.
void accumulate(Step &s) { probe(4); s.x.sum().backward(); }
void apply(Step &s) { probe(5); s.optimizer.step(); }
// Called once, from main.
void warmup(Step &s) { probe(6); s.once(); }
// A whole step loop inside: once per epoch.
void epoch(Step &s) {
  for (int i = 0; i < 10; ++i) s.once();
  probe(7);
}
template <typename T> void generic_step(T &s) { s.once(); }
// Builds what holds the optimizer, then one warm-up step: setup.
Step *create() { auto *s = new Step(); probe(11); s->once(); return s; }
void register_step(void (*)(Step &));
void setup() {
  register_step(+[](Step &s) { probe(9); s.once(); });
}
int main() {
  Step s;
  warmup(s);
  generic_step(s);
  probe(10);
  s.once();
})cpp");
  auto entered = [&](int Id) {
    std::optional<StepPath> Path =
        Loops->perStep(probe(Id), StepEntries::Accepted);
    return Path && Path->StepFunction && !Path->StepLoop;
  };
  EXPECT_FALSE(isPerStep(1)) << "not without StepEntries::Accepted";
  EXPECT_TRUE(entered(1)) << "backward and step, called from elsewhere";
  std::optional<StepPath> ViaUpdate =
      Loops->perStep(probe(2), StepEntries::Accepted);
  ASSERT_TRUE(ViaUpdate.has_value());
  EXPECT_EQ(ViaUpdate->StepFunction->getNameAsString(), "learn");
  EXPECT_EQ(ViaUpdate->Calls.size(), 1u);
  EXPECT_TRUE(entered(3));
  EXPECT_FALSE(entered(4)) << "backward alone";
  EXPECT_FALSE(entered(5)) << "step alone";
  EXPECT_FALSE(entered(6)) << "called once from main";
  EXPECT_FALSE(entered(7)) << "after its own step loop";
  auto Generic = match(functionDecl(hasName("generic_step"), isDefinition(),
                                    unless(isTemplateInstantiation()))
                           .bind("f"),
                       AST->getASTContext());
  ASSERT_EQ(Generic.size(), 1u);
  EXPECT_FALSE(Loops->isStepEntry(Generic[0].getNodeAs<FunctionDecl>("f")))
      << "a template instantiated and called here";
  EXPECT_TRUE(entered(9)) << "a lambda handed to other code";
  EXPECT_FALSE(entered(10)) << "main runs once";
  EXPECT_FALSE(entered(11)) << "builds the optimizer's holder: setup";
}

TEST_F(TrainingLoopModelTest, UpdatesInAnotherUnit) {
  parse(R"cpp(
// Bodies in another unit, which the summaries describe.
struct Remote {
  void train_step(const torch::Tensor &x);
  void train_epoch();
  void backward_only(const torch::Tensor &x);
  torch::Tensor evaluate(const torch::Tensor &x);
};
void steps(Remote &r, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) { probe(1); r.train_step(x); }
}
void epochs(Remote &r) {
  for (int e = 0; e < 10; ++e) { probe(2); r.train_epoch(); }
}
void micro(Remote &r, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) { probe(3); r.backward_only(x); }
}
void eval(Remote &r, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) { probe(4); r.evaluate(x); }
}
// Called by nothing here: each call from outside is one step.
void entry(Remote &r, torch::Tensor x) { probe(5); r.train_step(x); }
// Its own backward pass says why it trains.
void both(Remote &r, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) { probe(6); r.train_step(x); x.sum().backward(); }
}
)cpp");
  using clang::tidy::libtorch::analysis::SummarizedUnit;
  using clang::tidy::libtorch::analysis::SummaryTable;
  using clang::tidy::libtorch::analysis::usrOf;
  const auto UsrOf = [&](llvm::StringRef Name) {
    auto Found =
        match(cxxMethodDecl(hasName(Name)).bind("m"), AST->getASTContext());
    return Found.empty() ? std::string() : usrOf(Found[0].getNodeAs<Decl>("m"));
  };
  FunctionSummary Step, Epoch, Backward, Evaluate;
  Step.Usr = UsrOf("train_step");
  Step.Updates.Backward = Step.Updates.BackwardOutsideLoops = 0;
  Step.Updates.Step = Step.Updates.StepOutsideLoops = 1;
  Epoch.Usr = UsrOf("train_epoch");
  Epoch.Updates.Backward = 1;
  Epoch.Updates.Step = 2;
  Backward.Usr = UsrOf("backward_only");
  Backward.Updates.Backward = Backward.Updates.BackwardOutsideLoops = 0;
  Evaluate.Usr = UsrOf("evaluate"); // no update: no entry would be written
  const SummaryTable Table(
      {SummarizedUnit{"/p/remote.cpp", {Step, Epoch, Backward, Evaluate}}});
  int Reads = 0;
  TrainingLoopModel WithSummaries(AST->getASTContext(), *Parents, {},
                                  [&]() -> const SummaryTable & {
                                    ++Reads;
                                    return Table;
                                  });

  EXPECT_FALSE(isPerStep(1)) << "without summaries, nothing is seen";
  std::optional<StepPath> Steps = WithSummaries.perStep(probe(1));
  ASSERT_TRUE(Steps.has_value());
  ASSERT_TRUE(Steps->LoopUpdate.has_value());
  EXPECT_TRUE(Steps->LoopUpdate->Backward && Steps->LoopUpdate->Step);
  EXPECT_FALSE(WithSummaries.perStep(probe(2))) << "once per epoch";
  std::optional<StepPath> Micro = WithSummaries.perStep(probe(3));
  ASSERT_TRUE(Micro.has_value()) << "a backward pass per iteration trains";
  EXPECT_TRUE(Micro->LoopUpdate->Backward && !Micro->LoopUpdate->Step);
  EXPECT_FALSE(WithSummaries.perStep(probe(4))) << "no update";
  std::optional<StepPath> Entry =
      WithSummaries.perStep(probe(5), StepEntries::Accepted);
  ASSERT_TRUE(Entry.has_value());
  EXPECT_EQ(Entry->StepFunction->getNameAsString(), "entry");
  std::optional<StepPath> Both = WithSummaries.perStep(probe(6));
  ASSERT_TRUE(Both.has_value());
  EXPECT_FALSE(Both->LoopUpdate.has_value()) << "no note needed";
  EXPECT_GT(Reads, 0);
}

} // namespace training_loop_model_test
