//===--- Probe.cpp - The libtorch-tidy verify probe -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A LibTorch-linked library that `libtorch-tidy verify` preloads into the
// program it measures (LD_PRELOAD). A global RecordFunction callback counts,
// from inside the process:
//   - host syncs: aten::_local_scalar_dense (item()), aten::nonzero,
//     aten::masked_select, aten::unique*, aten::equal, aten::is_nonzero, and
//     device-to-host copies; only the outermost one on a thread counts as a
//     sync (is_nonzero calls item calls _local_scalar_dense: one sync);
//   - host-to-device copies, blocking or non_blocking;
//   - backward passes (the step counter, see below);
//   - the training thread's time outside LibTorch ops and backward passes
//     from the first step to the last (HostTimeOutsideOps.h): the upper
//     bound on data loading, for which C++ LibTorch records no event.
// On CUDA builds it also turns on c10's sync debug mode (L_WARN) and counts
// the "synchronizing CUDA operation" warnings: the syncs CUDA itself sees.
//
// Steps. C++ LibTorch records no event for Optimizer::step nor for the call
// of Tensor::backward (measured with 1.13), but the engine records every
// autograd node it runs (scope BACKWARD_FUNCTION) with the node's sequence
// number and the id of the thread that ran the forward. Sequence numbers grow
// with creation order on that thread and the root of a graph is the node made
// last, so a backward pass starts when a node's sequence number exceeds every
// one seen before from its forward thread. AccumulateGrad nodes are skipped
// (they carry no meaningful sequence number).
//
// The counts are written as JSON at exit and on SIGTERM into the directory
// named by LIBTORCH_TIDY_PROBE_DIR, one file per process
// (probe-<pid>.json, written to a temporary name and renamed; CountsFile.cpp).
// Writing uses only async-signal-safe calls, so it also runs inside the
// SIGTERM handler.
//
//===----------------------------------------------------------------------===//

#include <ATen/record_function.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include "HostTimeOutsideOps.h"
#include "ProbeState.h"

#if LIBTORCH_TIDY_PROBE_CUDA
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>

using namespace libtorch_tidy_probe;

namespace libtorch_tidy_probe {
// All state is in one object with static storage (ProbeState.h).
Counters State;
} // namespace libtorch_tidy_probe

namespace {

// Which op a record names; NumOps for the many we do not count.
Op classify(const char *Name) {
  if (std::strncmp(Name, "aten::", 6) != 0)
    return NumOps;
  const char *Rest = Name + 6;
  switch (Rest[0]) {
  case '_':
    if (std::strcmp(Rest, "_local_scalar_dense") == 0)
      return OpLocalScalarDense;
    if (std::strcmp(Rest, "_to_copy") == 0)
      return OpToCopy;
    if (std::strncmp(Rest, "_unique", 7) == 0)
      return OpUnique;
    return NumOps;
  case 'i':
    if (std::strcmp(Rest, "item") == 0)
      return OpItem;
    if (std::strcmp(Rest, "is_nonzero") == 0)
      return OpIsNonzero;
    return NumOps;
  case 'n':
    return std::strcmp(Rest, "nonzero") == 0 ? OpNonzero : NumOps;
  case 'm':
    return std::strcmp(Rest, "masked_select") == 0 ? OpMaskedSelect : NumOps;
  case 'u':
    return std::strncmp(Rest, "unique", 6) == 0 ? OpUnique : NumOps;
  case 'e':
    return std::strcmp(Rest, "equal") == 0 ? OpEqual : NumOps;
  case 'c':
    return std::strcmp(Rest, "copy_") == 0 ? OpCopy : NumOps;
  default:
    return NumOps;
  }
}

bool isSyncOp(Op O) {
  return O == OpLocalScalarDense || O == OpItem || O == OpNonzero ||
         O == OpMaskedSelect || O == OpUnique || O == OpEqual ||
         O == OpIsNonzero;
}

// Initial-exec: the probe is loaded at startup (LD_PRELOAD), so its TLS is
// static and needs no __tls_get_addr call per access; onEnd reads it for
// every op.
__attribute__((tls_model("initial-exec"))) thread_local unsigned SyncDepth = 0;
__attribute__((tls_model("initial-exec"))) thread_local OpNesting Nesting;

// Whether this record's thread is the training thread. Before the first
// step names it, every thread is: each notes when it leaves ops, so that the
// training thread's first stretch outside ops after the first step start
// has its beginning.
bool onTrainingThread(const at::RecordFunction &Fn) {
  const uint64_t Training =
      State.TrainingThread.load(std::memory_order_relaxed);
  return Training == 0 || Fn.threadId() == Training;
}

bool isCpu(const c10::IValue &V, bool &Known) {
  Known = V.isTensor() && V.toTensor().defined();
  return Known && V.toTensor().device().is_cpu();
}

void countCopy(const at::RecordFunction &Fn) {
  // copy_(Tensor self, Tensor src, bool non_blocking): `self` is the
  // destination. Every .to(device) and .cpu() ends in one.
  auto Inputs = Fn.inputs();
  if (Inputs.size() < 2)
    return;
  bool DstKnown = false, SrcKnown = false;
  const bool DstCpu = isCpu(Inputs[0], DstKnown);
  const bool SrcCpu = isCpu(Inputs[1], SrcKnown);
  if (!DstKnown || !SrcKnown || DstCpu == SrcCpu)
    return;
  if (DstCpu) {
    State.DeviceToHost.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const bool NonBlocking =
      Inputs.size() > 2 && Inputs[2].isBool() && Inputs[2].toBool();
  (NonBlocking ? State.HostToDeviceNonBlocking : State.HostToDeviceBlocking)
      .fetch_add(1, std::memory_order_relaxed);
#if LIBTORCH_TIDY_PROBE_CUDA
  // The CUDA hooks ask the runtime (cudaPointerGetAttributes) without
  // dispatching an op, so no record of ours nests in this one.
  if (NonBlocking &&
      !at::detail::getCUDAHooks().isPinnedPtr(Inputs[1].toTensor().data_ptr()))
    State.HostToDeviceNonBlockingPageable.fetch_add(1,
                                                    std::memory_order_relaxed);
#endif
}

void countBackwardNode(const at::RecordFunction &Fn) {
  if (std::strstr(Fn.name(), "AccumulateGrad") != nullptr)
    return;
  const int64_t Seq = Fn.seqNr();
  if (Seq < 0)
    return;
  const uint64_t Key = Fn.forwardThreadId() + 1;
  size_t Slot = 0;
  for (; Slot < MaxForwardThreads; ++Slot) {
    uint64_t Expected = 0;
    const uint64_t Seen = State.ForwardThread[Slot].load();
    if (Seen == Key)
      break;
    if (Seen == 0 &&
        State.ForwardThread[Slot].compare_exchange_strong(Expected, Key))
      break;
    if (Expected == Key)
      break;
  }
  if (Slot == MaxForwardThreads)
    return;
  // Stored as Seq + 1 so that 0 means "none yet".
  uint64_t Prev = State.MaxSeq[Slot].load();
  const uint64_t Cur = static_cast<uint64_t>(Seq) + 1;
  while (Cur > Prev) {
    if (State.MaxSeq[Slot].compare_exchange_weak(Prev, Cur)) {
      const uint64_t Step = State.Steps.fetch_add(1);
      const uint64_t Now = nowNs();
      if (Step == 0)
        State.TrainingThread.store(Fn.forwardThreadId());
      State.HostTime.backwardStarted(Step, Now);
      if (Step < MaxSteps) {
        State.StepStartNs[Step].store(Now - State.StartNs);
        State.StepSyncsBefore[Step].store(State.HostSyncs.load());
      }
      return;
    }
  }
}

// The training thread's stretches outside ops end and start at its
// outermost records; only those read the clock (\p Now when already read).
void enterRecord(const at::RecordFunction &Fn, uint64_t Now) {
  State.HostTime.recordStarted(Nesting, onTrainingThread(Fn),
                               [Now] { return Now != 0 ? Now : nowNs(); });
}

void leaveRecord(const at::RecordFunction &Fn, uint64_t Now) {
  State.HostTime.recordEnded(Nesting, onTrainingThread(Fn),
                             [Now] { return Now != 0 ? Now : nowNs(); });
}

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction &Fn) {
  State.Records.fetch_add(1, std::memory_order_relaxed);
  if (Fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
    countBackwardNode(Fn);
    // Before the training thread's stretch outside ops is closed: between
    // two nodes the engine runs on the training thread outside any record
    // (CPU), and that is the backward pass too.
    const uint64_t Now = nowNs();
    State.HostTime.backwardActive(Now);
    enterRecord(Fn, Now);
    return nullptr;
  }
  enterRecord(Fn, 0);
  const Op O = classify(Fn.name());
  if (O == NumOps)
    return nullptr;
  State.Ops[O].fetch_add(1, std::memory_order_relaxed);
  if (O == OpCopy && LIBTORCH_TIDY_PROBE_CUDA) {
    const uint64_t Before = State.DeviceToHost.load();
    countCopy(Fn);
    // A device-to-host copy is a sync unless an outer sync op made it.
    if (SyncDepth == 0 && State.DeviceToHost.load() != Before)
      State.HostSyncs.fetch_add(1, std::memory_order_relaxed);
  } else if (isSyncOp(O)) {
    if (SyncDepth++ == 0)
      State.HostSyncs.fetch_add(1, std::memory_order_relaxed);
  }
  return nullptr;
}

void onEnd(const at::RecordFunction &Fn, at::ObserverContext * /*Context*/) {
  if (Fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
    const uint64_t Now = nowNs();
    State.HostTime.backwardActive(Now);
    leaveRecord(Fn, Now);
    return;
  }
  leaveRecord(Fn, 0);
  if (SyncDepth > 0 && isSyncOp(classify(Fn.name())))
    --SyncDepth;
}

void onExit() { writeCounts(false); }

void onSigterm(int Sig) {
  writeCounts(true);
  signal(Sig, SIG_DFL);
  raise(Sig);
}

#if LIBTORCH_TIDY_PROBE_CUDA
// Counts c10's "called a synchronizing CUDA operation" warnings and hands
// every other warning to the handler that was installed before.
class SyncWarningCounter : public c10::WarningHandler {
public:
  explicit SyncWarningCounter(c10::WarningHandler *Next) : Next(Next) {}
#if TORCH_VERSION_MAJOR >= 2
  void process(const c10::Warning &W) override {
    if (W.msg().find("synchronizing CUDA operation") != std::string::npos) {
      State.CudaSyncWarnings.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    Next->process(W);
  }
#else
  void process(const c10::SourceLocation &Loc, const std::string &Msg,
               const bool Verbatim) override {
    if (Msg.find("synchronizing CUDA operation") != std::string::npos) {
      State.CudaSyncWarnings.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    Next->process(Loc, Msg, Verbatim);
  }
#endif

private:
  c10::WarningHandler *Next;
};

void enableCudaSyncDebug() {
  // c10's warning handler is per thread: this one serves the thread that
  // loads the program, which is where a training loop normally runs.
#if TORCH_VERSION_MAJOR >= 2
  namespace Handlers = c10::WarningUtils;
#else
  namespace Handlers = c10::Warning;
#endif
  static SyncWarningCounter Counter(Handlers::get_warning_handler());
  Handlers::set_warning_handler(&Counter);
  c10::cuda::warning_state().set_sync_debug_mode(
      c10::cuda::SyncDebugMode::L_WARN);
  State.CudaSyncDebug = true;
}
#endif

__attribute__((constructor)) void installProbe() {
  State.StartNs = nowNs();
  if (std::getenv("LIBTORCH_TIDY_PROBE_DIR") == nullptr)
    return;
  // Classifying a copy needs its arguments (the devices), and boxing every
  // op's arguments is most of the probe's cost. A CPU-only LibTorch has no
  // other device, so no host-device copy to classify: no inputs there.
  at::addGlobalCallback(at::RecordFunctionCallback(&onStart, &onEnd)
                            .needsInputs(LIBTORCH_TIDY_PROBE_CUDA != 0)
                            .scopes({at::RecordScope::FUNCTION,
                                     at::RecordScope::BACKWARD_FUNCTION}));
#if LIBTORCH_TIDY_PROBE_CUDA
  enableCudaSyncDebug();
#endif
  std::atexit(&onExit);
  struct sigaction Action;
  std::memset(&Action, 0, sizeof(Action));
  Action.sa_handler = &onSigterm;
  sigemptyset(&Action.sa_mask);
  sigaction(SIGTERM, &Action, nullptr);
}

} // namespace
