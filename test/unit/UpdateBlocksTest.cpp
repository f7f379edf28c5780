//===--- UpdateBlocksTest.cpp - periodic update blocks unit tests ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/UpdateBlocks.h"
#include "TrainingStepFixture.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::StepPath;
using clang::tidy::libtorch::analysis::updateBlockPath;

// Named, not anonymous: the unit tests compile in unity batches.
namespace update_blocks_test {

class UpdateBlocksTest : public libtorch_tidy::testing::TrainingStepFixture {
protected:
  void parse(const std::string &Code) {
    parseStep(libtorch_tidy::testing::trainingStepPrelude(), Code);
  }

  /// The number of calls from the update block down to probe(Id), -1 when
  /// it is not in one.
  int callsTo(int Id) {
    const IfStmt *Guard = nullptr;
    std::optional<StepPath> Path = updateBlockPath(probe(Id), *Loops, Guard);
    if (!Path)
      return -1;
    EXPECT_TRUE(Guard);
    EXPECT_TRUE(Loops->isTrainingLoop(Path->StepLoop));
    return static_cast<int>(Path->Calls.size());
  }
};

TEST_F(UpdateBlocksTest, PeriodicBlocksThatHoldTheUpdate) {
  parse(R"cpp(
void sample() { probe(2); }
void learn(Step &s) { sample(); s.once(); }
void train(Step &s) {
  for (int t = 0; t < 1000; ++t) {
    probe(0);
    if (t > 100 && t % 4 == 0) {
      probe(1);
      learn(s);
    }
    if (t % 100 == 0)
      probe(3);
    if (t % 10 == 0) {
      for (int i = 0; i < 3; ++i)
        probe(4);
      s.once();
    }
  }
})cpp");
  EXPECT_EQ(callsTo(0), -1) << "on every iteration: perStep's case";
  EXPECT_EQ(callsTo(1), 0);
  EXPECT_EQ(callsTo(2), 2) << "learn(), then sample()";
  EXPECT_EQ(callsTo(3), -1) << "a periodic block without an update";
  EXPECT_EQ(callsTo(4), -1) << "a loop of its own in the block";
}

TEST_F(UpdateBlocksTest, BlocksThatHoldATrainingLoop) {
  parse(R"cpp(
void train(Step &s) {
  for (int round = 0; round < 100; ++round) {
    if (round % 10 == 0) {
      probe(1);
      for (int i = 0; i < 50; ++i)
        s.once();
    }
  }
})cpp");
  EXPECT_EQ(callsTo(1), -1) << "once per many steps";
}

} // namespace update_blocks_test
