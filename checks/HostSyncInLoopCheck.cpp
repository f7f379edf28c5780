//===--- HostSyncInLoopCheck.cpp - libtorch-tidy --------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "HostSyncInLoopCheck.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/HostSyncOperations.h"
#include "analysis/devices/SyncRemedies.h"
#include "analysis/steps/HostReadUses.h"
#include "analysis/steps/SyncPurpose.h"
#include "analysis/summaries/CalledElsewhere.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "utils/AstWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

using analysis::SyncKind;

std::vector<std::string> toStrings(const std::vector<StringRef> &Refs) {
  return std::vector<std::string>(Refs.begin(), Refs.end());
}

} // namespace

HostSyncInLoopCheck::HostSyncInLoopCheck(StringRef Name,
                                         ClangTidyContext *Context)
    : LibTorchCheck(Name, Context),
      RawSyncFunctions(Options.get("SyncFunctions", "")),
      ExtraSyncFunctions(
          toStrings(tidy::utils::options::parseStringList(RawSyncFunctions))) {}

void HostSyncInLoopCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  LibTorchCheck::storeOptions(Opts);
  Options.store(Opts, "SyncFunctions", RawSyncFunctions);
}

void HostSyncInLoopCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // Each matcher rules out system headers first: LibTorch's inline bodies
  // hold thousands of tensor calls, and the location test is the cheap one.
  const auto TensorClass =
      cxxRecordDecl(isSameOrDerivedFrom(names::TensorBase));
  const auto SyncMethodCall = cxxMemberCallExpr(
      unless(isExpansionInSystemHeader()),
      callee(cxxMethodDecl(hasAnyName(analysis::syncTensorMethods()),
                           ofClass(TensorClass))));
  // `std::cout << tensor` calls at::operator<<(std::ostream&, const Tensor&).
  const auto PrintTensor = cxxOperatorCallExpr(
      unless(isExpansionInSystemHeader()), hasOverloadedOperatorName("<<"),
      callee(functionDecl(
          hasParameter(1, parmVarDecl(hasType(references(TensorClass)))))));
  std::vector<StringRef> Functions(analysis::syncFunctions().begin(),
                                   analysis::syncFunctions().end());
  const auto SyncFunctionCall =
      callExpr(unless(isExpansionInSystemHeader()),
               callee(functionDecl(hasAnyName(Functions))),
               unless(cxxMemberCallExpr()), unless(cxxOperatorCallExpr()));

  // `host[i] = device[j]`, `host.copy_(device)`: copies into host memory,
  // which deviceToHostCopySync keeps when the two sides are provably so.
  const auto CopyInto = callExpr(
      unless(isExpansionInSystemHeader()),
      anyOf(cxxOperatorCallExpr(hasOverloadedOperatorName("="),
                                callee(cxxMethodDecl(ofClass(TensorClass)))),
            cxxMemberCallExpr(callee(cxxMethodDecl(
                hasAnyName(names::CopyInPlaceMethod, names::IndexPutMethod),
                ofClass(TensorClass))))));

  Finder->addMatcher(SyncMethodCall.bind("method"), this);
  Finder->addMatcher(CopyInto.bind("copy-into"), this);
  Finder->addMatcher(PrintTensor.bind("print"), this);
  Finder->addMatcher(SyncFunctionCall.bind("function"), this);

  // The user's word for functions whose bodies we may not see: a plain
  // name matches in any scope, a qualified one as clang's hasName does.
  // hasAnyName keeps StringRefs into the member, which outlives it.
  std::vector<StringRef> Listed(ExtraSyncFunctions.begin(),
                                ExtraSyncFunctions.end());
  // (hasAnyName of no names is not a matcher to build.)
  const auto Unlisted = Listed.empty()
                            ? functionDecl()
                            : functionDecl(unless(hasAnyName(Listed)));
  // A function of the project whose body another unit holds: its summary
  // says whether it waits (analysis/summaries/SummaryTable.h). A listed one
  // is taken at the user's word instead, once.
  if (hasSummaries())
    Finder->addMatcher(
        callExpr(
            unless(isExpansionInSystemHeader()),
            callee(functionDecl(unless(isExpansionInSystemHeader()), Unlisted)),
            unless(cxxOperatorCallExpr()))
            .bind("elsewhere"),
        this);
  if (Listed.empty())
    return;
  const auto ListedCall = callExpr(unless(isExpansionInSystemHeader()),
                                   callee(functionDecl(hasAnyName(Listed))),
                                   unless(cxxOperatorCallExpr()));
  Finder->addMatcher(ListedCall.bind("listed"), this);
}

void HostSyncInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const PrintingPolicy &Policy = Context.getPrintingPolicy();
  std::optional<analysis::HostSync> Sync;
  if (const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("method"))
    Sync = analysis::tensorMethodSync(*Call, Context, getLangOpts());
  else if (const auto *Print =
               Result.Nodes.getNodeAs<CXXOperatorCallExpr>("print"))
    Sync = analysis::tensorPrintSync(*Print);
  else if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("copy-into"))
    Sync = analysis::deviceToHostCopySync(*Call, Context, getLangOpts());
  else if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("function"))
    Sync = analysis::functionSync(*Call, Policy);
  else if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("listed"))
    Sync = analysis::listedFunctionSync(*Call, Policy);
  else if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("elsewhere"))
    Sync = elsewhereSync(*Call, Context);
  if (Sync)
    handle(*Sync, Context);
}

std::optional<analysis::HostSync>
HostSyncInLoopCheck::elsewhereSync(const CallExpr &Call, ASTContext &Context) {
  // A body in this unit is followed instead; and a unit that calls no
  // function of another unit never reads the summaries.
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || Callee->hasBody())
    return std::nullopt;
  return summaryTable(Context).waitOfCall(Call, Context);
}

void HostSyncInLoopCheck::handle(const analysis::HostSync &Sync,
                                 ASTContext &Context) {
  // The wait already happened where the tensor was copied to the host: we
  // report it there, not at every read of the host copy.
  if (Sync.Tensor && analysis::isProvablyHostTensor(Sync.Tensor, Context))
    return;

  // On every training step or evaluation batch: a validation pass waits
  // for the GPU on each batch just as a step does, for minutes per epoch.
  analysis::TrainingFacts &TU = trainingFacts(Context);
  // A tensor a device test keeps on the host, a pointer handed to a kernel
  // or a library: nothing waits.
  if (!analysis::waitsWhereUsed(Sync, TU.Parents))
    return;
  // Through the functions the step calls, however they are nested: the
  // finding is at the sync (where NOLINT and the fix belong), with a note
  // at each call on the way.
  std::optional<analysis::StepPath> Path =
      Callers.get(Context).perBatch(Sync.Operation);
  if (!Path)
    return;
  const bool PerStep = TU.Loops.isPerStep(*Path);
  // A program that cannot use a GPU waits for nothing: its missing device
  // is libtorch-cpu-only-device's finding, not ours.
  if (TU.Devices.isGpuFreeProgram() ||
      TU.Devices.isCpuOnlyFunction(
          utils::enclosingFunction(Sync.Operation, TU.Parents)) ||
      TU.Devices.isCpuOnlyFunction(
          Path->StepFunction
              ? Path->StepFunction
              : utils::enclosingFunction(Path->StepLoop, TU.Parents)))
    return;

  // In evaluation, a wait that is the point (analysis/steps/SyncPurpose.h):
  // a per-batch latency measurement, an early exit decided on the host,
  // results taken to the host, here or by a function of another unit
  // whose every wait does so (an image written, detections drawn).
  if (!PerStep && (analysis::isWaitWithPurpose(Sync, *Path, TU.Parents) ||
                   (Sync.Kind == SyncKind::Elsewhere &&
                    summaryTable(Context).onlyCopiesToHost(analysis::usrOf(
                        cast<CallExpr>(Sync.Operation)->getDirectCallee())))))
    return;
  const bool InCondition =
      (Sync.Kind == SyncKind::ReadScalar || Sync.Kind == SyncKind::HostBool) &&
      utils::isInBranchCondition(Sync.Operation, TU.Parents);
  diagnose(Sync, *Path, PerStep, InCondition, Context);
}

void HostSyncInLoopCheck::diagnose(const analysis::HostSync &Sync,
                                   const analysis::StepPath &Path, bool PerStep,
                                   bool InCondition, ASTContext &Context) {
  const SourceLocation Loc = Sync.Loc;
  const std::string &Name = Sync.Name;
  switch (Sync.Kind) {
  case SyncKind::ReadScalar:
  case SyncKind::HostBool:
    if (InCondition)
      diag(Loc, "branching on '%0' copies the value to the host and waits for "
                "the GPU on every %select{evaluation batch|training step}1")
          << Name << PerStep;
    else if (Sync.Kind == SyncKind::ReadScalar)
      diag(Loc, "'%0' copies the value to the host and waits for the GPU on "
                "every %select{evaluation batch|training step}1")
          << Name << PerStep;
    else
      diag(Loc, "'%0' returns a host bool: it copies and waits for the GPU on "
                "every %select{evaluation batch|training step}1")
          << Name << PerStep;
    break;
  case SyncKind::CopyToHost:
    diag(Loc, "'%0' copies the tensor to the host and waits for the GPU on "
              "every %select{evaluation batch|training step}1")
        << Name << PerStep;
    break;
  case SyncKind::Print:
    diag(Loc, "printing a tensor copies it to the host and waits for the GPU "
              "on every %select{evaluation batch|training step}0")
        << PerStep;
    break;
  case SyncKind::DynamicShape:
    diag(Loc, "'%0' has a data-dependent output size: it waits for the GPU on "
              "every %select{evaluation batch|training step}1")
        << Name << PerStep;
    break;
  case SyncKind::SizedOnHost:
    diag(Loc, "'%0' reads values back to the host to size its output: it "
              "waits for the GPU on every %select{evaluation batch|training "
              "step}1")
        << Name << PerStep;
    break;
  case SyncKind::HostMemory:
    diag(Loc, "'%0' reads tensor memory on the host: a GPU tensor must be "
              "copied and waited for on every %select{evaluation "
              "batch|training step}1")
        << Name << PerStep;
    break;
  case SyncKind::Synchronize:
    diag(Loc, "'%0' blocks the host until the GPU finishes, on every "
              "%select{evaluation batch|training step}1")
        << Name << PerStep;
    break;
  case SyncKind::HiddenRead:
    diag(Loc, "'%0' reads the total gradient norm back to the host (it "
              "returns a double) and waits for the GPU on every "
              "%select{evaluation batch|training step}1")
        << Name << PerStep;
    break;
  case SyncKind::Listed:
    diag(Loc, "'%0' is listed in SyncFunctions: it waits for the GPU on "
              "every %select{evaluation batch|training step}1")
        << Name << PerStep;
    break;
  case SyncKind::Elsewhere:
    diag(Loc, "'%0', defined in another translation unit, waits for the GPU "
              "on every %select{evaluation batch|training step}1")
        << Name << PerStep;
    break;
  }

  notePathToStep(Path, PerStep);
  if (Sync.Kind == SyncKind::Elsewhere)
    noteElsewhere(Sync, Context);
  // An element read per iteration of an inner loop, or a value collected
  // into a host container: one copy, before or after the loop.
  const analysis::HostReadUse Use = analysis::hostReadUse(
      Sync, Path.StepLoop, parents(Context), Context.getSourceManager());
  if (Use.Use == analysis::HostReadUse::Kind::InInnerLoop)
    diag(Loc,
         "the loop around it waits for the GPU on each of its iterations: "
         "run it on host copies of its inputs, made once before it with "
         "'.cpu()', or keep its work on the device",
         DiagnosticIDs::Note);
  else if (Use.Tensor)
    diag(Loc,
         "the loop around it reads '%0' element by element, and waits for "
         "the GPU each time: copy it to the host once, before the loop "
         "('auto %0_host = %0.cpu();'), and read the elements from the copy",
         DiagnosticIDs::Note)
        << Use.Tensor->getName();
  else
    diag(
        Loc,
        analysis::syncRemedy(Sync, PerStep, InCondition,
                             Use.Use == analysis::HostReadUse::Kind::Collected),
        DiagnosticIDs::Note);
}

void HostSyncInLoopCheck::noteElsewhere(const analysis::HostSync &Sync,
                                        ASTContext &Context) {
  const auto &Call = *cast<CallExpr>(Sync.Operation);
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (std::optional<analysis::SyncElsewhere> Chain =
          summaryTable(Context).syncOfCall(Call, Context))
    noteChainElsewhere(*Callee, Sync.Loc, Chain->Calls, Chain->What.Place,
                       "'" + Chain->What.Operation +
                           "' waits for the GPU on each call",
                       Context);
}

} // namespace clang::tidy::libtorch
