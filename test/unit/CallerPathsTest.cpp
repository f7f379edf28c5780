//===--- CallerPathsTest.cpp - call-following unit tests ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/CallerPaths.h"
#include "TrainingStepFixture.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::CallerPaths;
namespace CallDepth = clang::tidy::libtorch::analysis::CallDepth;
using clang::tidy::libtorch::analysis::StepPath;
using clang::tidy::libtorch::analysis::TrainingLoopModel;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace caller_paths_test {

/// Parses the snippet and asks how its `probe(N)` calls run per step.
class CallerPathsTest : public libtorch_tidy::testing::TrainingStepFixture {
protected:
  void parse(const std::string &Code) {
    parseStep(libtorch_tidy::testing::trainingStepPrelude(), Code);
    Paths = std::make_unique<CallerPaths>(
        *Loops, [this](const Stmt *Loop) { return Loops->isStepLoop(Loop); });
  }

  std::optional<StepPath> perStep(int Id) {
    return Paths->perIteration(probe(Id));
  }
  /// The number of calls from the step loop to probe(Id), -1 if none.
  int callsTo(int Id) {
    std::optional<StepPath> Path = perStep(Id);
    return Path ? static_cast<int>(Path->Calls.size()) : -1;
  }

  std::unique_ptr<CallerPaths> Paths;
};

TEST_F(CallerPathsTest, FollowsChainsLongerThanTheLoopModel) {
  parse(R"cpp(
void f6() { probe(6); }
void f5() { f6(); }
void f4() { f5(); }
void f3() { f4(); }
void f2() { f3(); }
void f1() { probe(1); f2(); }
void train(Step &s) {
  probe(0);
  for (int i = 0; i < 10; ++i) {
    f1();
    s.once();
  }
})cpp");
  EXPECT_EQ(callsTo(0), -1) << "before the loop";
  EXPECT_EQ(callsTo(1), 1);
  std::optional<StepPath> Deep = perStep(6);
  ASSERT_TRUE(Deep.has_value());
  ASSERT_EQ(Deep->Calls.size(), 6u);
  // Outermost first: the call in the loop, then f1's call of f2, ...
  EXPECT_EQ(Deep->Calls.front()->getDirectCallee()->getName(), "f1");
  EXPECT_EQ(Deep->Calls.back()->getDirectCallee()->getName(), "f6");
  EXPECT_TRUE(Loops->isStepLoop(Deep->StepLoop));
  EXPECT_FALSE(Loops->perStep(probe(6)).has_value())
      << "TrainingLoopModel stops at " << CallDepth::TrainingStep;
}

TEST_F(CallerPathsTest, StopsAtTheDepthBound) {
  std::string Code = "void g0() { probe(1); }\n";
  const unsigned Chain = CallDepth::CallerChain + 1;
  for (unsigned I = 1; I < Chain; ++I)
    Code += "void g" + std::to_string(I) + "() { g" + std::to_string(I - 1) +
            "(); }\n";
  Code += "void train(Step &s) { for (int i = 0; i < 10; ++i) { g" +
          std::to_string(Chain - 1) + "(); s.once(); } }\n";
  Code += "void other(Step &s) { for (int i = 0; i < 10; ++i) { g" +
          std::to_string(CallDepth::CallerChain - 1) + "(); s.once(); } }\n";
  parse(Code);
  // CallerChain + 1 calls from train()'s loop, CallerChain from other()'s: the
  // second is found, although the walk met the first one's cut-off.
  EXPECT_EQ(callsTo(1), static_cast<int>(CallDepth::CallerChain));
}

TEST_F(CallerPathsTest, GuardsOnTheWay) {
  parse(R"cpp(
void inner(int step) {
  if (step % 100 == 0)
    probe(1);
  probe(2);
}
void middle(int step) {
  inner(step);
}
void logEvery(int step) { probe(3); }
void train(Step &s) {
  for (int step = 0; step < 1000; ++step) {
    middle(step);
    if (step % 10 == 0)
      logEvery(step);
    s.once();
  }
})cpp");
  EXPECT_EQ(callsTo(1), -1) << "a periodic guard inside the callee";
  EXPECT_EQ(callsTo(2), 2);
  EXPECT_EQ(callsTo(3), -1) << "a periodic guard at the call";
}

TEST_F(CallerPathsTest, LambdasAndMembers) {
  parse(R"cpp(
struct Model {
  torch::Tensor compute_loss(torch::Tensor t) { probe(1); return t; }
};
void train(Step &s, Model &m) {
  auto criterion = [&](torch::Tensor t) { probe(2); return m.compute_loss(t); };
  auto unused = [&] { probe(3); };
  for (int i = 0; i < 10; ++i) {
    criterion(s.x);
    s.once();
  }
})cpp");
  EXPECT_EQ(callsTo(1), 2) << "through the lambda to the member";
  EXPECT_EQ(callsTo(2), 1);
  EXPECT_EQ(callsTo(3), -1) << "a lambda never called";
}

TEST_F(CallerPathsTest, RecursionEnds) {
  parse(R"cpp(
void ping(int n);
void pong(int n) { probe(1); if (n > 0) ping(n - 1); }
void ping(int n) { if (n > 0) pong(n - 1); }
void self(int n) { probe(2); if (n > 0) self(n - 1); }
void lonely(int n) { probe(3); if (n > 0) lonely(n - 1); }
void train(Step &s) {
  for (int i = 0; i < 10; ++i) {
    ping(4);
    self(4);
    s.once();
  }
})cpp");
  EXPECT_EQ(callsTo(1), 2);
  EXPECT_EQ(callsTo(2), 1);
  EXPECT_EQ(callsTo(3), -1) << "only called by itself";
  // Asked again, from the memo: the same answers.
  EXPECT_EQ(callsTo(1), 2);
  EXPECT_EQ(callsTo(3), -1);
}

TEST_F(CallerPathsTest, OnlyBodiesInTheUnit) {
  parse(R"cpp(
void elsewhere();
void viaPointer() { probe(1); }
void train(Step &s) {
  void (*fn)() = viaPointer;
  for (int i = 0; i < 10; ++i) {
    elsewhere();
    fn();
    s.once();
  }
})cpp");
  EXPECT_EQ(callsTo(1), -1) << "a call through a pointer is not followed";
  const auto *Elsewhere = cast<FunctionDecl>(
      match(functionDecl(hasName("elsewhere")).bind("f"), AST->getASTContext())
          .front()
          .getNodeAs<FunctionDecl>("f"));
  std::optional<StepPath> Call = Paths->callPerIteration(Elsewhere);
  ASSERT_TRUE(Call.has_value()) << "its call is per step, its body unseen";
  EXPECT_EQ(Call->Calls.size(), 1u);
}

TEST_F(CallerPathsTest, VirtualCallsReachTheOverridesOfClassesTheUnitMakes) {
  parse(R"cpp(
struct Buffer { virtual ~Buffer() = default; virtual void sample() = 0; };
struct Uniform : Buffer { void sample() override { probe(1); } };
struct Prioritized : Uniform { void sample() override { probe(2); } };
struct Unmade : Buffer { void sample() override { probe(3); } };
struct Source { virtual void next() { probe(4); } };
struct Disk : Source { void next() override { probe(5); } };
void train(Step &s, Buffer *given, Source &source, Prioritized &p) {
  Buffer *buffer = given ? given : new Prioritized;
  for (int i = 0; i < 10; ++i) {
    buffer->sample();
    source.next();
    s.once();
  }
})cpp");
  EXPECT_EQ(callsTo(1), -1)
      << "the unit makes a Prioritized, which overrides Uniform::sample";
  EXPECT_EQ(callsTo(2), 1) << "a Prioritized is made here";
  EXPECT_EQ(callsTo(3), -1) << "the unit makes Buffers, never an Unmade";
  EXPECT_EQ(callsTo(4), 1) << "the method the call names";
  EXPECT_EQ(callsTo(5), 1) << "no Source is made here: every override";
  std::optional<StepPath> Dispatched = perStep(2);
  ASSERT_TRUE(Dispatched.has_value());
  ASSERT_EQ(Dispatched->Dispatches.size(), 1u);
  EXPECT_EQ(Dispatched->Dispatches.front().first, Dispatched->Calls.front());
  EXPECT_EQ(Dispatched->Dispatches.front().second->getParent()->getName(),
            "Prioritized");
  std::optional<StepPath> Named = perStep(4);
  ASSERT_TRUE(Named.has_value());
  EXPECT_TRUE(Named->Dispatches.empty()) << "Source::next itself is called";
}

} // namespace caller_paths_test
