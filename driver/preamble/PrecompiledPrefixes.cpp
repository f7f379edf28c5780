//===--- PrecompiledPrefixes.cpp - The preamble engine --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "preamble/PrecompiledPrefixes.h"
#include "cache/Dependencies.h"
#include "cache/ResultCache.h"
#include "preamble/PrefixPch.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include <chrono>
#include <thread>

using namespace clang;
using namespace llvm;

namespace libtorch_tidy::preamble {
namespace {

/// A build takes a minute at most on a slow machine: a builder that takes
/// longer is not waited for (a builder that died released its lock).
constexpr std::chrono::seconds BuildWait(600);

/// Whether the unit already gets something before its main file, or is
/// parsed in a way a PCH of ours does not model: it then parses as it is.
bool includesBeforeMainFile(const CompilerInvocation &Invocation) {
  const FrontendOptions &Frontend = Invocation.getFrontendOpts();
  if (Frontend.Inputs.size() != 1 ||
      Frontend.Inputs.front().getKind().getLanguage() != Language::CXX ||
      !Frontend.Inputs.front().isFile())
    return true;
  const LangOptions &Lang = Invocation.getLangOpts();
  if (usesHeaderModules(Invocation) || Lang.CUDA || Lang.OpenMP)
    return true;
  const PreprocessorOptions &PP = Invocation.getPreprocessorOpts();
  return !PP.ImplicitPCHInclude.empty() || !PP.Includes.empty() ||
         !PP.MacroIncludes.empty() || !PP.ChainedIncludes.empty() ||
         !PP.RemappedFiles.empty() || !PP.RemappedFileBuffers.empty();
}

/// The invocation as compiler arguments, without what names the main file
/// or its outputs: two units of a project with the same flags get the same.
std::string invocationKey(const CompilerInvocation &Invocation) {
  CompilerInvocation Copy(Invocation);
  FrontendOptions &Frontend = Copy.getFrontendOpts();
  const InputKind Kind = Frontend.Inputs.front().getKind();
  Frontend.Inputs.clear();
  Frontend.Inputs.emplace_back("prefix", Kind);
  Frontend.OutputFile.clear();
  Copy.getDependencyOutputOpts() = DependencyOutputOptions();
  CodeGenOptions &CodeGen = Copy.getCodeGenOpts();
  CodeGen.MainFileName.clear();
  CodeGen.DwarfDebugFlags.clear();
  CodeGen.CoverageDataFile.clear();
  CodeGen.CoverageNotesFile.clear();
  std::string Key;
  for (const std::string &Arg : Copy.getCC1CommandLine())
    Key += Arg + '\0';
  return Key;
}

/// Whether \p VFS shows every file \p Entry's build read as the real file
/// system does (an overlay maps none of them), and none of the paths that
/// must stay absent.
bool seenAsReal(const cache::StoredPrefix &Entry, vfs::FileSystem &VFS) {
  IntrusiveRefCntPtr<vfs::FileSystem> Real = vfs::getRealFileSystem();
  for (const cache::Dependency &D : Entry.Dependencies) {
    ErrorOr<vfs::Status> Seen = VFS.status(D.first);
    if (D.second == cache::AbsentFileHash) {
      if (Seen)
        return false;
      continue;
    }
    ErrorOr<vfs::Status> Actual = Real->status(D.first);
    if (!Seen || !Actual || Seen->getUniqueID() != Actual->getUniqueID())
      return false;
  }
  return true;
}

void use(CompilerInvocation &Invocation, const cache::StoredPrefix &Entry) {
  PreprocessorOptions &PP = Invocation.getPreprocessorOpts();
  PP.ImplicitPCHInclude = Entry.PchPath;
  // Its inputs were checked by content (PreambleStore::lookup); clang's
  // check by size and time would refuse a header reinstalled unchanged.
  PP.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
}

} // namespace

bool usesHeaderModules(const CompilerInvocation &Invocation) {
  const LangOptions &Lang = Invocation.getLangOpts();
  // C++20 alone sets Modules (implied by CPlusPlusModules).
  if (!Lang.Modules)
    return false;
  const HeaderSearchOptions &Search = Invocation.getHeaderSearchOpts();
  const FrontendOptions &Frontend = Invocation.getFrontendOpts();
  return !Lang.CPlusPlusModules || Search.ImplicitModuleMaps ||
         !Search.PrebuiltModuleFiles.empty() ||
         !Search.PrebuiltModulePaths.empty() || !Frontend.ModuleFiles.empty() ||
         !Frontend.ModuleMapFiles.empty();
}

PrecompiledPrefixes::PrecompiledPrefixes(PrefixSettings Settings)
    : Settings(std::move(Settings)), Store(this->Settings.CacheDirectory) {}

void PrecompiledPrefixes::warnOversize(std::uint64_t Bytes) const {
  // The parent prints this line once a run (run/UnitScheduler.cpp).
  errs() << "libtorch-tidy: warning: the cache directory '"
         << Settings.CacheDirectory << "' may hold " << Settings.MaxBytes / 1024
         << " KiB (--cache-max-size), less than "
         << "the precompiled prefix of " << (Bytes + 1023) / 1024
         << " KiB that this unit would use; analyzing without it (raise "
            "--cache-max-size to keep it)\n";
}

std::optional<AppliedPrefix> PrecompiledPrefixes::apply(
    CompilerInvocation &Invocation, FileManager &Files,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    std::optional<SkipPolicy::Bodies> SkipBodies) {
  if (includesBeforeMainFile(Invocation))
    return std::nullopt;
  StringRef Main = Invocation.getFrontendOpts().Inputs.front().getFile();
  // Through the unit's file system (an overlay may map the file).
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = Files.getBufferForFile(Main);
  if (!Text)
    return std::nullopt;
  AppliedPrefix Applied;
  Applied.Prefix = leadingSystemIncludes((*Text)->getBuffer());
  if (Applied.Prefix.empty())
    return std::nullopt;
  const std::string Header = Applied.Prefix.headerText();

  SmallString<256> WorkingDirectory;
  (void)sys::fs::current_path(WorkingDirectory);
  const std::string Key = cache::PreambleStore::key(
      {Settings.ToolStamp, invocationKey(Invocation),
       std::string(WorkingDirectory), cache::compilerEnvironment(), Header,
       SkipBodies ? bodiesName(*SkipBodies).str() : "keep-all"});
  auto Found = [&](cache::StoredPrefix Entry,
                   bool Built) -> std::optional<AppliedPrefix> {
    if (Settings.CheckOverlay &&
        !seenAsReal(Entry, Files.getVirtualFileSystem()))
      return std::nullopt;
    use(Invocation, Entry);
    Applied.Entry = std::move(Entry);
    Applied.Built = Built;
    Applied.ReplacedDamaged = Built && Store.removedDamaged(Key);
    return std::optional<AppliedPrefix>(std::move(Applied));
  };
  if (std::optional<cache::StoredPrefix> Entry = Store.lookup(Key))
    return Found(std::move(*Entry), false);
  if (!shouldBuild(Key, Applied.Prefix))
    return std::nullopt;
  std::optional<cache::StoredPrefix> Committed;
  if (!lockOrWait(Key, Applied.Prefix, Committed))
    return Committed ? Found(std::move(*Committed), false) : std::nullopt;
  bool Built = false;
  std::optional<cache::StoredPrefix> Entry =
      buildLocked(Key, Header, Applied.Prefix, Invocation, Files,
                  std::move(PCHContainerOps), SkipBodies, Built);
  if (!Entry)
    return std::nullopt;
  return Found(std::move(*Entry), Built);
}

bool PrecompiledPrefixes::shouldBuild(const std::string &Key,
                                      const IncludePrefix &Prefix) {
  if (Store.refused(Key))
    return false;
  if (Store.stillNoRoom(Key)) {
    // The parent prints this line once a run.
    errs() << "libtorch-tidy: warning: the cache directory '"
           << Settings.CacheDirectory
           << "' still has too little room for a precompiled prefix it could "
              "not hold before; analyzing without it until there is room "
              "(free space, or clear the cache)\n";
    return false;
  }
  if (Settings.MaxBytes)
    if (std::optional<std::uint64_t> Size = Store.oversize(Key);
        Size && *Size > Settings.MaxBytes) {
      warnOversize(*Size);
      return false;
    }
  if (Settings.Build == BuildPolicy::Never) {
    if (Settings.OnEvent)
      Settings.OnEvent(Prefix, PrefixEvent::Missing);
    return false;
  }
  if (Settings.Build == BuildPolicy::Auto && !Settings.SharedInRun &&
      !Store.wanted(Key)) {
    // Once is no reason to build: a second time is.
    Store.markWanted(Key);
    if (Settings.OnFirstWanted)
      Settings.OnFirstWanted();
    return false;
  }
  return true;
}

bool PrecompiledPrefixes::lockOrWait(
    const std::string &Key, const IncludePrefix &Prefix,
    std::optional<cache::StoredPrefix> &Committed) {
  // Another process may be building it: wait for its PCH rather than parse
  // the same headers at the same time.
  const auto Deadline = std::chrono::steady_clock::now() + BuildWait;
  bool Waiting = false;
  while (!Store.tryLock(Key)) {
    if (!Waiting && Settings.OnEvent)
      Settings.OnEvent(Prefix, PrefixEvent::Waiting);
    Waiting = true;
    if (std::chrono::steady_clock::now() > Deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!Store.locked(Key)) {
      Committed = Store.lookup(Key);
      if (Committed || Store.refused(Key))
        return false;
    }
  }
  return true;
}

std::optional<cache::StoredPrefix> PrecompiledPrefixes::buildLocked(
    const std::string &Key, const std::string &Header,
    const IncludePrefix &Prefix, CompilerInvocation &Invocation,
    FileManager &Files, std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    std::optional<SkipPolicy::Bodies> SkipBodies, bool &Built) {
  const std::string Lock = Store.lockPath(Key);
  sys::RemoveFileOnSignal(Lock);
  auto Unlock = [&] {
    Store.unlock(Key);
    sys::DontRemoveFileOnSignal(Lock);
  };
  // It may have been committed just before the lock was taken.
  if (std::optional<cache::StoredPrefix> Entry = Store.lookup(Key)) {
    Unlock();
    return Entry;
  }
  std::optional<std::string> HeaderPath = Store.writeHeader(Key, Header);
  if (!HeaderPath) {
    Unlock();
    return std::nullopt;
  }
  const std::string PchPath = Store.newPchPath(Key);
  sys::RemoveFileOnSignal(PchPath);
  if (Settings.OnEvent)
    Settings.OnEvent(Prefix, PrefixEvent::Building);
  PrefixPchBuild Build = buildPrefixPch(Invocation, *HeaderPath, PchPath, Files,
                                        std::move(PCHContainerOps), SkipBodies);
  std::optional<cache::StoredPrefix> Entry;
  if (!Build.WriteError.empty()) {
    // The cache's fault (a full disk, a quota), not the prefix's: no
    // refusal, a later run with room builds it (until then, none tries:
    // stillNoRoom). The unit parses without it and keeps its findings. The
    // parent prints this line once a run.
    if (Build.Bytes)
      Store.recordNoRoom(Key, Build.Bytes);
    errs() << "libtorch-tidy: warning: the cache directory '"
           << Settings.CacheDirectory
           << "' cannot be written: " << Build.WriteError
           << "; analyzing without its precompiled prefix\n";
  } else if (!Build.Succeeded) {
    // Not again while what it read stays the same.
    if (!Build.Dependencies.empty())
      Store.refuse(Key, Build.Dependencies);
  } else if (std::uint64_t Size = 0; Settings.MaxBytes &&
                                     !sys::fs::file_size(PchPath, Size) &&
                                     Size > Settings.MaxBytes) {
    // The cap would evict it at once and the next run would build it
    // again: neither is worth it.
    Store.recordOversize(Key, Size, Build.Dependencies);
    sys::fs::remove(PchPath);
    warnOversize(Size);
  } else if (Store.commit(Key, PchPath, Build.Dependencies)) {
    Entry = cache::StoredPrefix{*HeaderPath, PchPath,
                                std::move(Build.Dependencies)};
    Built = true;
  }
  sys::DontRemoveFileOnSignal(PchPath);
  Unlock();
  return Entry;
}

} // namespace libtorch_tidy::preamble
