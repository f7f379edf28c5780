//===--- HostTimeOutsideOpsTest.cpp - The probe's time outside ops --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// runtime-verify/probe/HostTimeOutsideOps.h, fed by hand as the probe's
// RecordFunction callbacks feed it: timelines of a training thread's ops
// and backward passes, in nanoseconds, with the outside time worked out.
//
//===----------------------------------------------------------------------===//

#include "HostTimeOutsideOps.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

using libtorch_tidy_probe::HostTimeOutsideOps;
using libtorch_tidy_probe::HostTimeTotals;
using libtorch_tidy_probe::OpNesting;

namespace {

using Times = HostTimeOutsideOps<16>;

/// One thread's records, in the order the probe's callbacks see them.
class Thread {
public:
  Thread(Times &T, bool Training) : T(T), Training(Training) {}

  void opStart(uint64_t Ns) {
    T.recordStarted(Nesting, Training, [Ns] { return Ns; });
  }
  void opEnd(uint64_t Ns) {
    T.recordEnded(Nesting, Training, [Ns] { return Ns; });
  }
  void op(uint64_t StartNs, uint64_t EndNs) {
    opStart(StartNs);
    opEnd(EndNs);
  }
  /// An autograd node record; the one that starts a step first says so.
  void nodeStart(uint64_t Ns, int StartsStep = -1) {
    if (StartsStep >= 0)
      T.backwardStarted(static_cast<uint64_t>(StartsStep), Ns);
    T.backwardActive(Ns);
    opStart(Ns);
  }
  void nodeEnd(uint64_t Ns) {
    T.backwardActive(Ns);
    opEnd(Ns);
  }

private:
  Times &T;
  bool Training;
  OpNesting Nesting;
};

std::unique_ptr<Times> makeTimes() {
  // Value-initialized: zero, as the probe's static instance is.
  return std::make_unique<Times>();
}

TEST(HostTimeOutsideOpsTest, CpuBackwardOnTheTrainingThread) {
  auto T = makeTimes();
  Thread Train(*T, true);
  // Three iterations of 1000 ns; step I starts at 1000 I + 520.
  for (int I = 0; I < 3; ++I) {
    const uint64_t B = 1000 * static_cast<uint64_t>(I) + 1000;
    Train.op(B, B + 10); // the loader's stack
    // B+10 .. B+400: the dataset's plain C++ code, outside ops.
    Train.opStart(B + 400); // forward: an op that calls an op
    Train.op(B + 410, B + 420);
    Train.opEnd(B + 500);
    // B+500 .. B+520: host code. The backward pass: two nodes, the engine
    // between them outside any record (inside the pass all the same).
    Train.nodeStart(B + 520, I);
    Train.op(B + 530, B + 550);
    Train.nodeEnd(B + 560);
    Train.nodeStart(B + 570);
    Train.nodeEnd(B + 700);
    Train.op(B + 720, B + 800); // the optimizer
  }
  const HostTimeTotals Tot = T->totals();
  ASSERT_TRUE(Tot.Measured);
  EXPECT_EQ(Tot.Steps, 2u);
  EXPECT_EQ(Tot.SpanNs, 2000u);
  // Per step: 20 after the backward pass, 200 to the next iteration, 390 in
  // the dataset, 20 before the next backward pass. The nested op is one
  // stretch inside ops; the engine's 10 between the nodes is the backward
  // pass's; the time before the first step and after the last is not
  // counted.
  EXPECT_EQ(Tot.OutsideNs, 2u * (20 + 200 + 390 + 20));
}

TEST(HostTimeOutsideOpsTest, CudaBackwardOnAnotherThread) {
  auto T = makeTimes();
  Thread Train(*T, true);
  Thread Device(*T, false);
  for (int I = 0; I < 3; ++I) {
    const uint64_t B = 1000 * static_cast<uint64_t>(I) + 1000;
    Train.op(B, B + 10);
    Train.op(B + 400, B + 500);
    // The training thread waits in backward() from B+500 to B+900, outside
    // any op; the engine's device thread runs the nodes from B+520 to B+850.
    Device.nodeStart(B + 520, I);
    Device.op(B + 530, B + 600);
    Device.nodeEnd(B + 610);
    Device.nodeStart(B + 620);
    Device.nodeEnd(B + 850);
    Train.op(B + 900, B + 950);
  }
  const HostTimeTotals Tot = T->totals();
  ASSERT_TRUE(Tot.Measured);
  EXPECT_EQ(Tot.SpanNs, 2000u);
  // Per step: 50 after the pass ended, 50 after the optimizer, 390 in the
  // dataset, 20 before the next pass; the wait on the pass is not counted.
  EXPECT_EQ(Tot.OutsideNs, 2u * (50 + 50 + 390 + 20));
}

TEST(HostTimeOutsideOpsTest, OneStretchAcrossSeveralBackwardPasses) {
  auto T = makeTimes();
  Thread Train(*T, true);
  Thread Device(*T, false);
  Train.op(0, 100);
  // Outside ops from 100 to 2000 while two backward passes run elsewhere.
  Device.nodeStart(200, 0);
  Device.nodeEnd(300);
  Device.nodeStart(1200, 1);
  Device.nodeEnd(1300);
  Train.op(2000, 2100);
  Device.nodeStart(2500, 2);
  Device.nodeEnd(2600);
  Train.op(2700, 2800);
  const HostTimeTotals Tot = T->totals();
  ASSERT_TRUE(Tot.Measured);
  EXPECT_EQ(Tot.Steps, 2u);
  EXPECT_EQ(Tot.SpanNs, 2300u);
  // 100..200 is before the first step; 300..1200 and 1300..2000 and
  // 2100..2500 count; 2600..2700 is after the last step start.
  EXPECT_EQ(Tot.OutsideNs, 900u + 700u + 400u);
}

TEST(HostTimeOutsideOpsTest, OtherThreadsOpsDoNotCount) {
  auto T = makeTimes();
  Thread Train(*T, true);
  Thread Worker(*T, false);
  Train.nodeStart(0, 0);
  Train.nodeEnd(10);
  // A loader's worker runs ops while the training thread waits for its
  // batch: the wait is outside ops all the same.
  Worker.op(20, 900);
  Train.nodeStart(1000, 1);
  Train.nodeEnd(1010);
  const HostTimeTotals Tot = T->totals();
  ASSERT_TRUE(Tot.Measured);
  EXPECT_EQ(Tot.OutsideNs, 990u);
  EXPECT_EQ(Tot.SpanNs, 1000u);
}

TEST(HostTimeOutsideOpsTest, FewerThanTwoStepsAreNotMeasured) {
  auto T = makeTimes();
  Thread Train(*T, true);
  Train.op(0, 10);
  Train.op(500, 510);
  EXPECT_FALSE(T->totals().Measured);
  Train.nodeStart(600, 0);
  Train.nodeEnd(700);
  Train.op(900, 910);
  const HostTimeTotals One = T->totals();
  EXPECT_FALSE(One.Measured);
  EXPECT_EQ(One.OutsideNs, 0u);
  EXPECT_EQ(One.SpanNs, 0u);
  Train.nodeStart(1000, 1);
  Train.nodeEnd(1100);
  const HostTimeTotals Two = T->totals();
  ASSERT_TRUE(Two.Measured);
  EXPECT_EQ(Two.OutsideNs, 200u + 90u);
}

TEST(HostTimeOutsideOpsTest, NoTimeOutsideOpsIsZeroAndMeasured) {
  auto T = makeTimes();
  Thread Train(*T, true);
  Train.nodeStart(0, 0);
  Train.nodeEnd(100);
  Train.op(100, 500);
  Train.nodeStart(500, 1);
  Train.nodeEnd(600);
  const HostTimeTotals Tot = T->totals();
  ASSERT_TRUE(Tot.Measured);
  EXPECT_EQ(Tot.OutsideNs, 0u);
  EXPECT_EQ(Tot.SpanNs, 500u);
}

TEST(HostTimeOutsideOpsTest, RecordsEndingOnAnotherThreadKeepTheDepth) {
  OpNesting N;
  EXPECT_FALSE(N.leave());
  EXPECT_TRUE(N.enter());
  EXPECT_FALSE(N.enter());
  EXPECT_FALSE(N.leave());
  EXPECT_TRUE(N.leave());
  EXPECT_FALSE(N.leave());
  EXPECT_EQ(N.Depth, 0u);
}

TEST(HostTimeOutsideOpsTest, StepsBeyondTheCapacityAreLeftOut) {
  auto T = std::make_unique<HostTimeOutsideOps<2>>();
  OpNesting Train;
  auto At = [](uint64_t Ns) { return [Ns] { return Ns; }; };
  for (uint64_t Step = 0; Step < 4; ++Step) {
    const uint64_t B = 1000 * Step;
    T->backwardStarted(Step, B);
    T->backwardActive(B + 100);
    T->recordStarted(Train, true, At(B + 300));
    T->recordEnded(Train, true, At(B + 400));
  }
  const HostTimeTotals Tot = T->totals();
  ASSERT_TRUE(Tot.Measured);
  EXPECT_EQ(Tot.Steps, 1u);
  EXPECT_EQ(Tot.SpanNs, 1000u);
  // Only the first two steps are kept: step 0 has 400..1000 of the stretch
  // from 400 to 1300; its 1100..1300 is step 1's, the tail, and steps 2
  // and 3 are not measured.
  EXPECT_EQ(Tot.OutsideNs, 600u);
}

} // namespace
