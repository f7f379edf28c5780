//===--- SummaryTable.cpp - The summaries of a project's units ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/summaries/SummaryTable.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/summaries/CalledElsewhere.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/WalkDepths.h"
#include "utils/CallArguments.h"
#include "utils/SourceText.h"
#include "clang/Basic/FileManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <deque>

namespace clang::tidy::libtorch::analysis {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

std::string updatesText(const SummarizedUpdates &Updates) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  const auto Distance = [&OS](llvm::StringRef Name,
                              std::optional<unsigned> Value) {
    OS << Name << '=';
    if (Value)
      OS << *Value;
    else
      OS << '-';
    OS << ' ';
  };
  Distance("backward", Updates.Backward);
  Distance("backward-outside-loops", Updates.BackwardOutsideLoops);
  Distance("step", Updates.Step);
  Distance("step-outside-loops", Updates.StepOutsideLoops);
  return Text;
}

/// The largest summary file read: a whole project's summaries are a few
/// megabytes.
constexpr uint64_t MaxSummaryFileBytes = uint64_t(256) << 20;
/// The largest file a summary's note is placed in: a source file.
constexpr uint64_t MaxNoteFileBytes = uint64_t(32) << 20;

/// Why \p Path cannot be read as data of at most \p MaxBytes, through the
/// file system the unit is parsed with: a FIFO would block the read until
/// someone writes to it, a device or a huge file would be read whole, and
/// a file that cannot be opened would become the unit's compile error once
/// the source manager tried.
std::optional<std::string>
unreadableAsData(FileManager &Files, llvm::StringRef Path, uint64_t MaxBytes) {
  llvm::vfs::FileSystem &FS = Files.getVirtualFileSystem();
  llvm::ErrorOr<llvm::vfs::Status> Status = FS.status(Path);
  if (!Status)
    return "cannot read it (" + Status.getError().message() + ")";
  if (Status->getType() != llvm::sys::fs::file_type::regular_file)
    return std::string("it is not a regular file");
  if (Status->getSize() > MaxBytes)
    return "it is larger than " + std::to_string(MaxBytes >> 20) + " MiB";
  if (llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> Opened =
          FS.openFileForRead(Path);
      !Opened)
    return "cannot read it (" + Opened.getError().message() + ")";
  return std::nullopt;
}

/// What the function \p Call calls is given in host memory, when the
/// function that calls it is given \p Host.
HostParameters hostParametersOfCall(const SummarizedCall &Call,
                                    const HostParameters &Host) {
  HostParameters Given(Call.Arguments.size());
  for (size_t I = 0; I < Call.Arguments.size(); ++I) {
    const int Source = Call.Arguments[I];
    if (Source == SummarizedCall::HostArgument ||
        (Source >= 0 && static_cast<size_t>(Source) < Host.size() &&
         Host.test(Source)))
      Given.set(I);
  }
  return Given;
}

} // namespace

SummaryTable::SummaryTable(const std::vector<SummarizedUnit> &Units)
    : OwnText(std::make_shared<const std::string>(summaryFileText(Units))),
      Lines(llvm::cantFail(SummaryLines::of(*OwnText))) {}

const FunctionSummary *SummaryTable::summaryOf(llvm::StringRef Usr) const {
  auto [It, New] = Asked.try_emplace(Usr);
  if (New)
    It->second = Lines.find(Usr);
  return It->second ? &*It->second : nullptr;
}

llvm::Expected<SummaryTable> SummaryTable::read(llvm::StringRef Path,
                                                SourceManager &SM) {
  if (std::optional<std::string> Why =
          unreadableAsData(SM.getFileManager(), Path, MaxSummaryFileBytes))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   *Why + "; write it with 'libtorch-tidy "
                                          "--export-summaries=FILE'");
  llvm::Expected<FileEntryRef> File =
      SM.getFileManager().getFileRef(Path, /*OpenFile=*/true);
  if (!File)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read it (" +
                                       llvm::toString(File.takeError()) +
                                       "); write it with 'libtorch-tidy "
                                       "--export-summaries=FILE'");
  std::optional<llvm::MemoryBufferRef> Buffer =
      SM.getMemoryBufferForFileOrNone(*File);
  if (!Buffer)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read it");
  // Searched in the source manager's buffer, which outlives the unit's
  // tables: only the lines asked for are ever parsed.
  llvm::Expected<SummaryLines> Lines = SummaryLines::of(Buffer->getBuffer());
  if (!Lines)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::toString(Lines.takeError()) +
                                       "; write it again with 'libtorch-tidy "
                                       "--export-summaries=FILE'");
  SummaryTable Table;
  Table.Lines = *Lines;
  Table.Project = summaryProject(Path);
  return Table;
}

std::optional<std::pair<std::vector<SummarizedCall>, const FunctionSummary *>>
SummaryTable::nearest(
    llvm::StringRef Usr, const HostParameters &Given,
    llvm::function_ref<bool(const FunctionSummary &, const HostParameters &)>
        Has) const {
  // Breadth first, so that the nearest fact is the one reported; each
  // function once, so that recursion ends.
  struct Visit {
    const FunctionSummary *Function;
    std::vector<SummarizedCall> Calls;
    HostParameters Host;
  };
  std::deque<Visit> Queue;
  llvm::StringSet<> Seen;
  const auto Enqueue = [&](llvm::StringRef Key,
                           std::vector<SummarizedCall> Calls,
                           HostParameters Host) {
    const FunctionSummary *Function = summaryOf(Key);
    if (Function && Seen.insert(Key).second)
      Queue.push_back({Function, std::move(Calls), std::move(Host)});
  };
  Enqueue(Usr, {}, Given);
  while (!Queue.empty()) {
    Visit Next = std::move(Queue.front());
    Queue.pop_front();
    if (Has(*Next.Function, Next.Host))
      return std::make_pair(std::move(Next.Calls), Next.Function);
    if (Next.Calls.size() >= CallDepth::CallerChain)
      continue;
    for (const SummarizedCall &Call : Next.Function->Calls) {
      std::vector<SummarizedCall> Calls = Next.Calls;
      Calls.push_back(Call);
      Enqueue(Call.Usr, std::move(Calls),
              hostParametersOfCall(Call, Next.Host));
    }
  }
  return std::nullopt;
}

std::optional<SyncElsewhere>
SummaryTable::syncReachedBy(llvm::StringRef Usr,
                            const HostParameters &Given) const {
  // A wait that reads a parameter given a host tensor waits for nothing.
  const auto Waits = [](const SummarizedSync &Sync,
                        const HostParameters &Host) {
    return !Sync.Parameter || *Sync.Parameter >= Host.size() ||
           !Host.test(*Sync.Parameter);
  };
  auto Found = nearest(
      Usr, Given, [&](const FunctionSummary &F, const HostParameters &H) {
        return llvm::any_of(F.Syncs, [&](const SummarizedSync &Sync) {
          return Waits(Sync, H);
        });
      });
  if (!Found)
    return std::nullopt;
  // What the function found is given, along the calls that reach it.
  HostParameters AtFound = Given;
  for (const SummarizedCall &Call : Found->first)
    AtFound = hostParametersOfCall(Call, AtFound);
  for (const SummarizedSync &Sync : Found->second->Syncs)
    if (Waits(Sync, AtFound))
      return SyncElsewhere{std::move(Found->first), Sync};
  return std::nullopt;
}

bool SummaryTable::onlyCopiesToHost(llvm::StringRef Usr) const {
  // The function itself, which waits on no other path and calls no other
  // function of the project: a summary lists only the waits of every call.
  const FunctionSummary *Function = summaryOf(Usr);
  if (!Function || Function->Syncs.empty() || Function->WaitsOtherwise)
    return false;
  return llvm::all_of(Function->Syncs, [](const SummarizedSync &Sync) {
    return Sync.Kind == SyncKind::CopyToHost || Sync.Kind == SyncKind::Print;
  });
}

std::optional<HostCopyElsewhere>
SummaryTable::hostCopyReachedBy(llvm::StringRef Usr) const {
  auto Found =
      nearest(Usr, {}, [](const FunctionSummary &F, const HostParameters &) {
        return !F.HostCopies.empty();
      });
  if (!Found)
    return std::nullopt;
  return HostCopyElsewhere{std::move(Found->first),
                           Found->second->HostCopies.front()};
}

std::optional<SummarizedUpdates>
SummaryTable::updatesOf(llvm::StringRef Usr) const {
  const FunctionSummary *Function = summaryOf(Usr);
  if (!Function || !Function->Updates.any())
    return std::nullopt;
  return Function->Updates;
}

std::string SummaryTable::answerText(llvm::StringRef Usr) const {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  const auto Place = [&OS](const SummarizedPlace &P) {
    OS << P.File << ':' << P.Line << ':' << P.Column << ' ' << P.Spelling << ' '
       << P.Digest << '\n';
  };
  const auto Calls = [&](const std::vector<SummarizedCall> &Chain) {
    for (const SummarizedCall &Call : Chain) {
      OS << "call " << Call.Usr << ' ' << Call.Name << ' ';
      Place(Call.Place);
    }
  };
  if (std::optional<SummarizedUpdates> Updates = updatesOf(Usr))
    OS << "updates " << updatesText(*Updates) << '\n';
  if (const FunctionSummary *Function = summaryOf(Usr);
      Function && Function->ReturnsDeviceTensor)
    OS << "returns-device-tensor\n";
  // Every wait within reach and every call on the way, with the parameters
  // they read and hand on: which wait a call finds depends on the host
  // tensors it gives (syncReachedBy). Host tensors only take waits away:
  // with none reached on any tensors, there is nothing to say.
  if (syncReachedBy(Usr))
    nearest(Usr, {}, [&](const FunctionSummary &F, const HostParameters &) {
      for (const SummarizedSync &Sync : F.Syncs) {
        OS << "wait " << F.Usr << ' ' << Sync.Operation << ' '
           << syncKindName(Sync.Kind) << ' ';
        if (Sync.Parameter)
          OS << "parameter=" << *Sync.Parameter << ' ';
        Place(Sync.Place);
      }
      for (const SummarizedCall &Call : F.Calls) {
        OS << "from " << F.Usr << ' ';
        for (int Source : Call.Arguments)
          OS << Source << ',';
        Calls({Call});
      }
      return false;
    });
  if (onlyCopiesToHost(Usr))
    OS << "only copies to the host\n";
  if (std::optional<HostCopyElsewhere> Reached = hostCopyReachedBy(Usr)) {
    Calls(Reached->Calls);
    OS << "copy " << Reached->What.Factory << ' ' << Reached->What.Copy << ' '
       << Reached->What.Constant << ' ';
    Place(Reached->What.Place);
  }
  return Text;
}

std::optional<SyncElsewhere>
SummaryTable::syncOfCall(const CallExpr &Call, ASTContext &Context) const {
  // A body in this unit is followed instead, where its waits are. The
  // same calls, and only those, are the unit's CalledElsewhere.
  const FunctionDecl *Callee = calleeDefinedElsewhere(Call);
  if (empty() || !Callee)
    return std::nullopt;
  HostParameters Host(Callee->getNumParams());
  for (unsigned I = 0; I < Callee->getNumParams(); ++I)
    if (const Expr *Arg = utils::argumentOfParameter(&Call, I);
        Arg && isTensorType(Arg->getType()) &&
        isProvablyHostTensor(Arg, Context))
      Host.set(I);
  return syncReachedBy(usrOf(Callee), Host);
}

std::optional<HostSync> SummaryTable::waitOfCall(const CallExpr &Call,
                                                 ASTContext &Context) const {
  if (!syncOfCall(Call, Context))
    return std::nullopt;
  const FunctionDecl *Callee = Call.getDirectCallee();
  HostSync Sync;
  Sync.Operation = &Call;
  Sync.Kind = SyncKind::Elsewhere;
  Sync.Name = utils::calledName(Callee, isa<CXXMemberCallExpr>(Call),
                                Context.getPrintingPolicy());
  Sync.Loc = calledNameLoc(Call);
  return Sync;
}

std::optional<HostCopyElsewhere>
SummaryTable::hostCopyOfCall(const CallExpr &Call) const {
  // The same calls, and only those, are the unit's CalledElsewhere.
  const FunctionDecl *Callee = calleeDefinedElsewhere(Call);
  if (empty() || !Callee)
    return std::nullopt;
  return hostCopyReachedBy(usrOf(Callee));
}

bool SummaryTable::returnsDeviceTensor(const CallExpr &Call) const {
  // The same calls, and only those, are the unit's CalledElsewhere.
  const FunctionDecl *Callee = calleeDefinedElsewhere(Call);
  if (empty() || !Callee)
    return false;
  const FunctionSummary *Function = summaryOf(usrOf(Callee));
  return Function && Function->ReturnsDeviceTensor;
}

namespace {

/// The nearest directory from \p Path's up that holds a `.git`.
std::string checkoutOf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return "";
  for (llvm::StringRef Directory = llvm::sys::path::parent_path(Real);
       !Directory.empty();
       Directory = llvm::sys::path::parent_path(Directory)) {
    llvm::SmallString<256> Git(Directory);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return Directory.str();
    if (Directory == llvm::sys::path::root_path(Directory))
      break;
  }
  return "";
}

} // namespace

std::string summaryProject(llvm::StringRef SummaryFile) {
  return checkoutOf(SummaryFile);
}

bool inSummaryProject(llvm::StringRef File, llvm::StringRef Project) {
  if (Project.empty())
    return true;
  // Lexically, then as the real path: `..` and links must not lead out.
  llvm::SmallString<256> Lexical(File);
  llvm::sys::path::remove_dots(Lexical, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Real;
  const auto Inside = [&](llvm::StringRef Path) {
    return Path.starts_with(Project) &&
           (Path.size() == Project.size() || Path[Project.size()] == '/');
  };
  return Inside(Lexical) &&
         (llvm::sys::fs::real_path(File, Real) || Inside(Real));
}

SourceLocation locate(const SummarizedPlace &Place, SourceManager &SM) {
  // The note's file is opened only if that is safe: the note is dropped
  // rather than blocking on a FIFO, reading a huge file whole or failing
  // the unit on a file it cannot open.
  if (unreadableAsData(SM.getFileManager(), Place.File, MaxNoteFileBytes))
    return {};
  llvm::Expected<FileEntryRef> File =
      SM.getFileManager().getFileRef(Place.File);
  if (!File) {
    llvm::consumeError(File.takeError());
    return {};
  }
  const FileID Id = SM.getOrCreateFileID(*File, SrcMgr::C_User);
  // Only in the content that was summarized: no line of a file is shown on
  // the word of whoever wrote the summary alone (summaries/FunctionSummary.h).
  std::optional<llvm::MemoryBufferRef> Content = SM.getBufferOrNone(Id);
  if (!Content || placeDigest(Content->getBuffer()) != Place.Digest)
    return {};
  const SourceLocation Loc = SM.translateLineCol(Id, Place.Line, Place.Column);
  bool Invalid = false;
  const char *At = SM.getCharacterData(Loc, &Invalid);
  std::optional<llvm::MemoryBufferRef> Buffer = SM.getBufferOrNone(Id);
  if (Invalid || !Buffer || Loc.isInvalid() ||
      SM.getSpellingLineNumber(Loc) != Place.Line ||
      SM.getSpellingColumnNumber(Loc) != Place.Column)
    return {};
  // The whole token: `item` must not match the start of `items`.
  const StringRef Rest(At, Buffer->getBufferEnd() - At);
  if (!Rest.starts_with(Place.Spelling) ||
      (Rest.size() > Place.Spelling.size() &&
       (llvm::isAlnum(Rest[Place.Spelling.size()]) ||
        Rest[Place.Spelling.size()] == '_')))
    return {};
  return Loc;
}

} // namespace clang::tidy::libtorch::analysis
