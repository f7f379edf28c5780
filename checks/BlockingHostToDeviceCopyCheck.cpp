//===--- BlockingHostToDeviceCopyCheck.cpp - libtorch-tidy ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "BlockingHostToDeviceCopyCheck.h"
#include "analysis/devices/ConstantHostData.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceVariables.h"
#include "analysis/devices/HostDtypes.h"
#include "analysis/devices/HostStateMembers.h"
#include "analysis/steps/UpdateBlocks.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchMatchers.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/CallArguments.h"
#include "utils/FixIts.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

/// The position of the `non_blocking` parameter of a `Tensor::to` overload
/// that moves to a device: `to(TensorOptions, bool non_blocking, ...)` or
/// `to(Device, ScalarType, bool non_blocking, ...)`. None for the overloads
/// that take a dtype or another tensor.
std::optional<unsigned> nonBlockingParameter(const CXXMethodDecl &To) {
  if (To.getNumParams() < 2)
    return std::nullopt;
  QualType First = To.getParamDecl(0)->getType();
  if (analysis::isRecordNamed(First, names::TensorOptions))
    return 1;
  if (analysis::isRecordNamed(First, names::Device) && To.getNumParams() >= 3)
    return 2;
  return std::nullopt;
}

} // namespace

void BlockingHostToDeviceCopyCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  Finder->addMatcher(cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                                       analysis::matchers::tensorToOrCuda())
                         .bind("copy"),
                     this);
}

void BlockingHostToDeviceCopyCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Copy = Result.Nodes.getNodeAs<CXXMemberCallExpr>("copy");
  if (std::optional<BlockingCopy> Blocking =
          blockingCopyToGpu(*Copy, *Result.Context))
    handle(*Blocking, *Result.Context);
}

std::optional<BlockingHostToDeviceCopyCheck::BlockingCopy>
BlockingHostToDeviceCopyCheck::blockingCopyToGpu(const CXXMemberCallExpr &Copy,
                                                 ASTContext &Context) {
  BlockingCopy Blocking;
  Blocking.Copy = &Copy;
  const CXXMethodDecl *Method = Copy.getMethodDecl();
  Blocking.IsCuda = Method->getName() == names::CudaMethod;
  Blocking.Member = dyn_cast<MemberExpr>(Copy.getCallee());
  if (!Blocking.Member)
    return std::nullopt;
  if (Blocking.IsCuda)
    return Blocking;
  Blocking.Position = nonBlockingParameter(*Method);
  if (!Blocking.Position || Copy.getNumArgs() <= *Blocking.Position)
    return std::nullopt;
  Blocking.Destination = Copy.getArg(0);
  // Only copies to a GPU: a device-to-host copy must stay blocking (a
  // non-blocking one reads garbage without a sync), and dtype-only
  // conversions copy nothing between devices.
  analysis::DeviceKind Kind =
      analysis::classifyDevice(Blocking.Destination, Context);
  if (Kind != analysis::DeviceKind::Cuda &&
      Kind != analysis::DeviceKind::MaybeCuda)
    return std::nullopt;
  Blocking.NonBlocking = Copy.getArg(*Blocking.Position);
  // non_blocking given as true or as a value we cannot read: silent.
  if (!isa<CXXDefaultArgExpr>(Blocking.NonBlocking) &&
      utils::literalBool(Blocking.NonBlocking) != std::optional<bool>(false))
    return std::nullopt;
  return Blocking;
}

bool BlockingHostToDeviceCopyCheck::isOtherFinding(const Expr *Source,
                                                   ASTContext &Context) {
  // A tensor just made or moved on the device copies nothing from the
  // host.
  if (analysis::isProvablyOnDevice(Source, Context))
    return true;
  // Or returned on the device by a function of another unit, as its
  // summary says (`utils::stack_images(batch).to(device)`).
  if (const auto *Call = dyn_cast<CallExpr>(analysis::asWritten(Source));
      Call && hasSummaries() &&
      summaryTable(Context).returnsDeviceTensor(*Call))
    return true;
  // One made on the host only to be copied (`torch::randn(...).to(device)`)
  // is libtorch-tensor-created-off-device's finding: made on the device, it
  // needs no copy at all, and a non-blocking copy from its fresh, pageable
  // host memory would not overlap anything anyway.
  if (analysis::isHostTensorFactoryCall(Source, Context))
    return true;
  // Likewise a narrow host tensor widened just before the copy
  // (`images.to(torch::kFloat).to(device)`): its fix copies the narrow
  // tensor first, and the copy it leaves is reported here then.
  if (analysis::hostWideningBefore(Source, Context))
    return true;
  // And a helper's host factory copied by its caller: made on the device
  // in the helper, it needs no copy either.
  return analysis::hostFactoryOfHelperCall(analysis::asWritten(Source),
                                           Context) != nullptr;
}

void BlockingHostToDeviceCopyCheck::handle(const BlockingCopy &Blocking,
                                           ASTContext &Context) {
  const Expr *Source = Blocking.Copy->getImplicitObjectArgument();
  if (isOtherFinding(Source, Context))
    return;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  // A training-step function that nothing here calls runs per step too.
  std::optional<analysis::StepPath> Path =
      TU.Loops.perStep(Blocking.Copy, analysis::StepEntries::Accepted);
  // Or a periodic block that is the step itself: a replay buffer sampled
  // every few environment steps, right before the update.
  const IfStmt *UpdateBlock = nullptr;
  if (!Path)
    Path = analysis::updateBlockPath(Blocking.Copy, TU.Loops, UpdateBlock);
  if (!Path)
    return;
  // A tensor the calls on the way hand in from the device: a helper that
  // stacks the step's device tensors and moves the stack "to be sure".
  if (!Path->Calls.empty() &&
      analysis::isProvablyOnDevice(Source, Context, Path->Calls))
    return;
  // A constant table rebuilt and copied on every step: made once before
  // the loop (libtorch-tensor-created-off-device's finding), the copy
  // leaves the step.
  if (analysis::constantHostTableCopied(
          Source, Path->Calls.empty() ? Path->StepLoop : nullptr, Context,
          parents(Context)))
    return;
  // A module's own buffer or parameter moves with the module's `to()`
  // (libtorch-module-not-on-device reports a module left behind); a member
  // its class moves to the device itself moves nothing once moved, and
  // whether the move ran first is not known here. One walk over the
  // member's uses decides, for the copies that run per step only.
  const analysis::CopiedMember State =
      analysis::copiedMember(Source, Context, parents(Context));
  if (State.What == analysis::CopiedMember::Verdict::ModuleOwn ||
      State.What == analysis::CopiedMember::Verdict::MovedByItsClass)
    return;
  // State its class keeps in host memory: the fix keeps it on the device,
  // where it needs no copy, blocking or not.
  if (State.What == analysis::CopiedMember::Verdict::KeptInHostMemory)
    return diagnoseHostState(State, *Blocking.Member,
                             spelled(Blocking, Context), *Path, UpdateBlock);
  diagnose(Blocking, *Path, UpdateBlock, Context);
}

std::string
BlockingHostToDeviceCopyCheck::spelled(const BlockingCopy &Blocking,
                                       const ASTContext &Context) const {
  if (Blocking.IsCuda)
    return "cuda()";
  return "to(" +
         utils::spelledText(Blocking.Destination, Context.getSourceManager(),
                            getLangOpts()) +
         ")";
}

void BlockingHostToDeviceCopyCheck::diagnose(const BlockingCopy &Blocking,
                                             const analysis::StepPath &Path,
                                             const IfStmt *UpdateBlock,
                                             ASTContext &Context) {
  {
    auto Diag = diag(Blocking.Member->getMemberLoc(),
                     "'%0' copies to the GPU synchronously: the training "
                     "thread waits for the transfer on every step; pass "
                     "'/*non_blocking=*/true'")
                << spelled(Blocking, Context);
    if (std::optional<FixItHint> Fix = nonBlockingFix(Blocking, Context))
      Diag << *Fix;
  }
  // Why the code runs per step, where the loop alone does not show it (a
  // virtual call's override is not where a reader would look).
  if (Path.StepFunction || Path.LoopUpdate || !Path.Dispatches.empty() ||
      UpdateBlock)
    notePathToStep(Path, /*PerStep=*/true);
  if (UpdateBlock)
    noteUpdateBlock(*UpdateBlock);
  noteWideConversion(Blocking, Context);
  diag(Blocking.Member->getMemberLoc(),
       "the copy overlaps with GPU work only from pinned memory: pin in the "
       "dataset's get() (worker threads) or copy through reused pinned "
       "staging buffers (torch::empty(..., "
       "torch::TensorOptions().pinned_memory(true)))",
       DiagnosticIDs::Note);
}

std::optional<FixItHint>
BlockingHostToDeviceCopyCheck::nonBlockingFix(const BlockingCopy &Blocking,
                                              ASTContext &Context) const {
  const SourceManager &SM = Context.getSourceManager();
  if (Blocking.IsCuda) {
    SourceRange Call(Blocking.Member->getMemberLoc(),
                     Blocking.Copy->getRParenLoc());
    if (!utils::isRewritable(Call))
      return std::nullopt;
    return FixItHint::CreateReplacement(
        Call, "to(torch::kCUDA, /*non_blocking=*/true)");
  }
  if (isa<CXXDefaultArgExpr>(Blocking.NonBlocking)) {
    // Insert after the argument before it: the destination, or the dtype
    // of the (Device, ScalarType) overload.
    const Expr *Before = Blocking.Copy->getArg(*Blocking.Position - 1);
    if (isa<CXXDefaultArgExpr>(Before))
      return std::nullopt;
    return utils::insertionAfter(*Before, ", /*non_blocking=*/true", SM,
                                 getLangOpts());
  }
  if (!utils::isRewritable(Blocking.NonBlocking->getSourceRange()))
    return std::nullopt;
  return FixItHint::CreateReplacement(Blocking.NonBlocking->getSourceRange(),
                                      "true");
}

void BlockingHostToDeviceCopyCheck::noteWideConversion(
    const BlockingCopy &Blocking, ASTContext &Context) {
  // `mask.to(torch::kLong).to(device)`: the host widens, the bus carries
  // the wide elements. Only a note: whether the tensor was narrower is not
  // always known, and the author may want the conversion where it is.
  std::optional<analysis::HostConversion> Conversion =
      analysis::wideConversionBeforeCopy(
          Blocking.Copy->getImplicitObjectArgument(), Context);
  if (!Conversion)
    return;
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LangOpts = getLangOpts();
  const Expr *Object = Conversion->Conversion->getImplicitObjectArgument();
  std::string Dtype =
      utils::spelledText(Conversion->Conversion->getArg(0), SM, LangOpts);
  diag(Conversion->Conversion->getExprLoc(),
       "the tensor is converted to '%0' on the host before the copy, so "
       "8 bytes per element cross the bus%select{| (unless it already is "
       "'%0')}1; copy it first and convert on the device: '%2'",
       DiagnosticIDs::Note)
      << Conversion->To << Conversion->From.empty()
      << utils::spelledText(Object, SM, LangOpts) + ".to(" +
             (Blocking.IsCuda
                  ? std::string("torch::kCUDA")
                  : utils::spelledText(Blocking.Destination, SM, LangOpts)) +
             ", /*non_blocking=*/true).to(" + Dtype + ")";
}

void BlockingHostToDeviceCopyCheck::noteUpdateBlock(const IfStmt &Block) {
  diag(Block.getBeginLoc(),
       "this block runs every few iterations, and each run is a training "
       "step: it holds the backward pass and the optimizer step",
       DiagnosticIDs::Note);
}

void BlockingHostToDeviceCopyCheck::diagnoseHostState(
    const analysis::CopiedMember &State, const MemberExpr &Copy,
    llvm::StringRef Spelled, const analysis::StepPath &Path,
    const IfStmt *UpdateBlock) {
  diag(Copy.getMemberLoc(),
       "'%0' copies '%1', which its class keeps in host memory, to the GPU "
       "on every step: the same tensor crosses the bus each time; keep it on "
       "the device")
      << Spelled << State.Member->getName();
  // Each call on the way: the member function is what runs per step.
  notePathToStep(Path, /*PerStep=*/true);
  if (UpdateBlock)
    noteUpdateBlock(*UpdateBlock);
  // No fix-it: where the device is known when the member is made is the
  // author's design (a constructor argument, a `to()` of the class).
  const auto *Class = dyn_cast<CXXRecordDecl>(State.Member->getParent());
  diag(State.MadeBy->getBeginLoc(),
       "'%0' is made in host memory here: make it on the device, or move it "
       "there once where the device is known%select{|, or register it "
       "('register_buffer') so that the module's 'to(device)' moves it}1",
       DiagnosticIDs::Note)
      << State.Member->getName() << (Class && analysis::isModuleClass(Class));
}

} // namespace clang::tidy::libtorch
