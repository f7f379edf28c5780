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
// (probe-<pid>.json, written to a temporary name and renamed). Writing uses
// only async-signal-safe calls, so it also runs inside the SIGTERM handler.
//
//===----------------------------------------------------------------------===//

#include <ATen/record_function.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include "CudaRuntimeCounters.h"
#include "HostTimeOutsideOps.h"
#include "SignalSafeBuffer.h"

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
#include <fcntl.h>
#include <unistd.h>

using libtorch_tidy_probe::Buffer;
using libtorch_tidy_probe::CudaRuntime;
using libtorch_tidy_probe::HostTimeOutsideOps;
using libtorch_tidy_probe::HostTimeTotals;
using libtorch_tidy_probe::OpNesting;

namespace {

// The operations counted by name, in the order of the JSON "ops" object.
enum Op : unsigned {
  OpLocalScalarDense,
  OpItem,
  OpNonzero,
  OpMaskedSelect,
  OpUnique,
  OpEqual,
  OpIsNonzero,
  OpCopy,
  OpToCopy,
  NumOps
};
constexpr const char *OpNames[NumOps] = {
    "aten::_local_scalar_dense", "aten::item",    "aten::nonzero",
    "aten::masked_select",       "aten::unique*", "aten::equal",
    "aten::is_nonzero",          "aten::copy_",   "aten::_to_copy"};

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

constexpr size_t MaxSteps = 1 << 16;
constexpr size_t MaxForwardThreads = 64;

// All state is in one object with static storage: atomics only, so the
// callbacks need no lock and the signal handler can read it.
struct Counters {
  std::atomic<uint64_t> Ops[NumOps];
  std::atomic<uint64_t> HostSyncs;
  std::atomic<uint64_t> DeviceToHost;
  std::atomic<uint64_t> HostToDeviceBlocking;
  std::atomic<uint64_t> HostToDeviceNonBlocking;
  // Of those, from pageable memory: CUDA copies them synchronously, so the
  // non_blocking asked for does not happen.
  std::atomic<uint64_t> HostToDeviceNonBlockingPageable;
  std::atomic<uint64_t> CudaSyncWarnings;
  std::atomic<uint64_t> Records;
  std::atomic<uint64_t> Steps;
  // Per step: start time (ns since the probe started) and the host syncs
  // counted before it, for the per-step series in the report.
  std::atomic<uint64_t> StepStartNs[MaxSteps];
  std::atomic<uint64_t> StepSyncsBefore[MaxSteps];
  // Highest sequence number seen per forward thread id (id + 1 as the key, 0
  // is free).
  std::atomic<uint64_t> ForwardThread[MaxForwardThreads];
  std::atomic<uint64_t> MaxSeq[MaxForwardThreads];
  // RecordFunction's id of the thread that ran the first step's forward
  // pass (ids start at 1); 0 until then.
  std::atomic<uint64_t> TrainingThread;
  HostTimeOutsideOps<MaxSteps> HostTime;
  std::atomic<bool> Written;
  uint64_t StartNs;
  bool CudaSyncDebug;
};
Counters State;

// Initial-exec: the probe is loaded at startup (LD_PRELOAD), so its TLS is
// static and needs no __tls_get_addr call per access; onEnd reads it for
// every op.
__attribute__((tls_model("initial-exec"))) thread_local unsigned SyncDepth = 0;
__attribute__((tls_model("initial-exec"))) thread_local OpNesting Nesting;

// steady_clock is CLOCK_MONOTONIC (clock_gettime, async-signal-safe): step
// times and time outside ops on one clock that never goes back.
uint64_t nowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

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

// --- Async-signal-safe JSON writer (SignalSafeBuffer.h) ----------------------

// Static storage so that the signal handler allocates nothing.
constexpr size_t BufferCap = 64 + MaxSteps * 48 + 4096;
char OutBuffer[BufferCap];

void writeCounts(bool FromSignal) {
  if (State.Written.exchange(true))
    return;
  const char *Dir = std::getenv("LIBTORCH_TIDY_PROBE_DIR");
  if (Dir == nullptr || *Dir == '\0')
    return;
  Buffer B{OutBuffer, 0, BufferCap};
  B.put("{");
  B.field("version", 1);
  B.put(",");
  B.field("pid", static_cast<uint64_t>(getpid()));
  B.put(",");
  B.field("torch_major", TORCH_VERSION_MAJOR);
  B.put(",");
  B.field("torch_minor", TORCH_VERSION_MINOR);
  B.put(",\"cuda_build\":");
  B.put(LIBTORCH_TIDY_PROBE_CUDA ? "true" : "false");
  B.put(",\"cuda_sync_debug\":");
  B.put(State.CudaSyncDebug ? "true" : "false");
  B.put(",\"exit\":\"");
  B.put(FromSignal ? "sigterm" : "normal");
  B.put("\",");
  B.field("wall_ns", nowNs() - State.StartNs);
  B.put(",");
  B.field("records", State.Records.load());
  B.put(",");
  B.field("steps", State.Steps.load());
  B.put(",");
  B.field("host_syncs", State.HostSyncs.load());
  B.put(",");
  B.field("device_to_host", State.DeviceToHost.load());
  B.put(",");
  B.field("host_to_device_blocking", State.HostToDeviceBlocking.load());
  B.put(",");
  B.field("host_to_device_non_blocking", State.HostToDeviceNonBlocking.load());
  B.put(",");
  B.field("host_to_device_non_blocking_pageable",
          State.HostToDeviceNonBlockingPageable.load());
  B.put(",");
  B.field("cuda_sync_warnings", State.CudaSyncWarnings.load());
  const HostTimeTotals HostTime = State.HostTime.totals();
  B.put(",\"host_time_outside_ops\":{\"measured\":");
  B.put(HostTime.Measured && State.TrainingThread.load() != 0 ? "true"
                                                              : "false");
  B.put(",");
  B.field("outside_ns", HostTime.OutsideNs);
  B.put(",");
  B.field("span_ns", HostTime.SpanNs);
  B.put(",");
  B.field("steps", HostTime.Steps);
  B.put("}");
  B.put(",\"cuda_runtime\":{");
  B.field("calls", CudaRuntime.Calls.load());
  B.put(",");
  B.field("host_syncs", libtorch_tidy_probe::cudaRuntimeHostSyncs());
  B.put(",");
  B.field("stream_syncs", CudaRuntime.StreamSyncs.load());
  B.put(",");
  B.field("device_syncs", CudaRuntime.DeviceSyncs.load());
  B.put(",");
  B.field("event_syncs", CudaRuntime.EventSyncs.load());
  B.put(",");
  B.field("sync_memcpy", CudaRuntime.SyncMemcpy.load());
  B.put(",");
  B.field("device_to_host", CudaRuntime.DeviceToHost.load());
  B.put(",");
  B.field("host_to_device_pinned", CudaRuntime.HostToDevicePinned.load());
  B.put(",");
  B.field("host_to_device_pageable", CudaRuntime.HostToDevicePageable.load());
  B.put(",");
  B.field("kernel_launches", CudaRuntime.KernelLaunches.load());
  B.put("}");
  B.put(",\"ops\":{");
  for (unsigned I = 0; I < NumOps; ++I) {
    if (I)
      B.put(",");
    B.field(OpNames[I], State.Ops[I].load());
  }
  B.put("},\"step_start_ns\":[");
  const uint64_t Steps = State.Steps.load();
  const uint64_t Kept = Steps < MaxSteps ? Steps : MaxSteps;
  for (uint64_t I = 0; I < Kept; ++I) {
    if (I)
      B.put(",");
    B.num(State.StepStartNs[I].load());
  }
  B.put("],\"step_syncs_before\":[");
  for (uint64_t I = 0; I < Kept; ++I) {
    if (I)
      B.put(",");
    B.num(State.StepSyncsBefore[I].load());
  }
  B.put("]}\n");

  char Path[4096], Tmp[4096];
  Buffer P{Path, 0, sizeof(Path)};
  P.put(Dir);
  P.put("/probe-");
  P.num(static_cast<uint64_t>(getpid()));
  P.put(".json");
  Path[P.Size] = '\0';
  Buffer T{Tmp, 0, sizeof(Tmp)};
  T.put(Path);
  T.put(".tmp");
  Tmp[T.Size] = '\0';
  const int Fd = open(Tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return;
  size_t Done = 0;
  bool Ok = true;
  while (Done < B.Size) {
    const ssize_t N = write(Fd, OutBuffer + Done, B.Size - Done);
    if (N <= 0) {
      Ok = false;
      break;
    }
    Done += static_cast<size_t>(N);
  }
  Ok = close(Fd) == 0 && Ok;
  if (Ok)
    rename(Tmp, Path);
  else
    unlink(Tmp);
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
