//===--- HostTimeOutsideOps.h - Training-thread time outside ops *- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The share of a step the training thread spends outside LibTorch: the
// upper bound the probe gives for data loading, which C++ LibTorch records
// no event for (its data loader is header templates).
//
// The training thread is the one that ran the forward pass. Its time
// outside LibTorch is the wall time in which it is neither inside an
// outermost op record nor inside a backward pass. A backward pass spans from
// its first node record's start to its last node record's end, on any
// thread: on CUDA the engine runs the nodes on its device threads while the
// training thread waits, outside any op, and that wait is the backward pass,
// not host code. Each step starts with a backward pass (Probe.cpp, "Steps");
// only the time from the first step's start to the last one's counts, so
// set-up before the first step and the tail after the last are left out.
//
// No LibTorch here: the probe feeds it from its RecordFunction callbacks and
// the harness's unit tests feed it by hand. Atomics only, no lock: the
// backward-pass spans are written from the engine's threads, the outside
// time by the training thread alone, and the probe's SIGTERM handler reads
// the totals.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_HOSTTIMEOUTSIDEOPS_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_HOSTTIMEOUTSIDEOPS_H

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace libtorch_tidy_probe {

/// One thread's nesting of op records, so that only its outermost records
/// mark time as inside LibTorch (an op that calls ops is one stretch).
struct OpNesting {
  unsigned Depth = 0;
  /// When the thread left its last outermost record; 0: not yet noted.
  uint64_t OutsideSinceNs = 0;

  /// A record starts: true when it is the outermost one.
  bool enter() { return Depth++ == 0; }
  /// A record ends: true when it was the outermost one. A record that ends
  /// on another thread than it started on leaves this one's depth alone.
  bool leave() { return Depth > 0 && --Depth == 0; }
};

/// The totals the probe writes: outside time and span from the first to the
/// last step start.
struct HostTimeTotals {
  bool Measured = false; ///< two steps or more
  uint64_t OutsideNs = 0;
  uint64_t SpanNs = 0;
  uint64_t Steps = 0; ///< steps in the span: the step starts less one
};

/// Times are nanoseconds of one monotonic clock. \p MaxSteps bounds the
/// steps kept; later ones are not measured. Trivially constructible, like
/// the probe's other counters, so that its static instance is zero from the
/// start and no constructor runs after the probe's own: make one with
/// static storage or value-initialized (`HostTimeOutsideOps<8> T{};`).
template <size_t MaxSteps> class HostTimeOutsideOps {
public:
  /// Step \p Step (0-based) started with a backward pass at \p Ns.
  void backwardStarted(uint64_t Step, uint64_t Ns) {
    if (Step >= MaxSteps)
      return;
    BackwardStartNs[Step].store(Ns, std::memory_order_relaxed);
    raiseTo(BackwardEndNs[Step], Ns);
    raiseTo(Started, Step + 1);
  }

  /// A node record of the running backward pass started or ended at \p Ns:
  /// the pass lasts at least until then.
  void backwardActive(uint64_t Ns) {
    const uint64_t N = Started.load(std::memory_order_acquire);
    if (N == 0 || N > MaxSteps)
      return;
    raiseTo(BackwardEndNs[N - 1], Ns);
  }

  /// A record starts on the thread whose nesting is \p Nesting: when it is
  /// the training thread's outermost one, the stretch outside ops that it
  /// ends counts. \p Now reads the clock, only then.
  template <typename ClockFn>
  void recordStarted(OpNesting &Nesting, bool TrainingThread, ClockFn Now) {
    if (!Nesting.enter() || !TrainingThread)
      return;
    const uint64_t Ns = Now();
    if (Nesting.OutsideSinceNs != 0)
      outsideOps(Nesting.OutsideSinceNs, Ns);
  }

  /// A record ends: when it is the training thread's outermost one, a
  /// stretch outside ops starts.
  template <typename ClockFn>
  void recordEnded(OpNesting &Nesting, bool TrainingThread, ClockFn Now) {
    if (Nesting.leave() && TrainingThread)
      Nesting.OutsideSinceNs = Now();
  }

  /// The training thread was outside any op from \p FromNs to \p ToNs. The
  /// parts of it outside every backward pass count, each for the step it
  /// falls in; the part before the first step does not.
  void outsideOps(uint64_t FromNs, uint64_t ToNs) {
    const uint64_t N = Started.load(std::memory_order_acquire);
    uint64_t Hi = ToNs;
    // Backward passes follow each other: walk back from the latest one, and
    // stop at the first that starts before the interval.
    for (uint64_t K = N < MaxSteps ? N : MaxSteps; K-- > 0 && Hi > FromNs;) {
      const uint64_t Start = BackwardStartNs[K].load(std::memory_order_relaxed);
      uint64_t End = BackwardEndNs[K].load(std::memory_order_relaxed);
      if (End < Start)
        End = Start;
      if (End < Hi)
        OutsideNs[K].fetch_add(Hi - (End > FromNs ? End : FromNs),
                               std::memory_order_relaxed);
      if (Start <= FromNs)
        return;
      if (Start < Hi)
        Hi = Start;
    }
  }

  /// Safe to call from a signal handler.
  HostTimeTotals totals() const {
    HostTimeTotals T;
    const uint64_t Started = this->Started.load(std::memory_order_acquire);
    const uint64_t N = Started < MaxSteps ? Started : MaxSteps;
    if (N < 2)
      return T;
    T.Measured = true;
    // The time after the last step's start is the tail: left out.
    for (uint64_t K = 0; K + 1 < N; ++K)
      T.OutsideNs += OutsideNs[K].load(std::memory_order_relaxed);
    T.SpanNs = BackwardStartNs[N - 1].load(std::memory_order_relaxed) -
               BackwardStartNs[0].load(std::memory_order_relaxed);
    T.Steps = N - 1;
    return T;
  }

private:
  static void raiseTo(std::atomic<uint64_t> &A, uint64_t V) {
    uint64_t Seen = A.load(std::memory_order_relaxed);
    while (Seen < V &&
           !A.compare_exchange_weak(Seen, V, std::memory_order_release,
                                    std::memory_order_relaxed)) {
    }
  }

  std::atomic<uint64_t> Started; ///< steps whose backward pass started
  std::atomic<uint64_t> BackwardStartNs[MaxSteps];
  std::atomic<uint64_t> BackwardEndNs[MaxSteps];
  /// Per step: outside time from its backward pass's end to the next step.
  std::atomic<uint64_t> OutsideNs[MaxSteps];
};

} // namespace libtorch_tidy_probe

#endif // LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_HOSTTIMEOUTSIDEOPS_H
