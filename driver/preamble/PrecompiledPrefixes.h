//===--- PrecompiledPrefixes.h - The preamble engine ------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Parses a unit against a precompiled header of the system includes it
// starts with (IncludePrefix.h), so that `#include <torch/torch.h>` is read
// from a PCH instead of ~1,500 headers being parsed again: after an edit of
// the unit, and by every unit of a project that starts the same way.
//
// For one compile command, before the parse (run/AnalysisAction.h):
// 1. find the prefix; none, or a command that already includes something
//    before the main file (-include, a PCH, modules, a language other than
//    C++): the unit parses as it is;
// 2. its key: the tool, the compiler invocation without what names the main
//    file or its outputs, the working directory, the prefix and the bodies
//    skipped; the stored PCH is used if every file it read is unchanged;
// 3. else build it, when that pays (Settings.Build): another unit of the run
//    starts the same way, or an earlier run already wanted it. A single
//    unit analyzed once never pays for a PCH it cannot reuse. A build that
//    another process is doing is waited for, not repeated;
// 4. the PCH is included before the main file (as with -include-pch); the
//    main file's own `#include` lines of its headers are then skipped by
//    their include guards.
//
// The findings are the same with and without (test/parse_equality.py);
// the unit's analysis falls back to a plain parse when they could differ
// (UnitAnalysis.cpp): a check that watches the preprocessor, which would miss
// the events of the precompiled headers, compiler errors with the prefix, or
// a main file that changed between the scan and the parse.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_PREAMBLE_PRECOMPILEDPREFIXES_H
#define LIBTORCH_TIDY_DRIVER_PREAMBLE_PRECOMPILEDPREFIXES_H

#include "cache/PreambleStore.h"
#include "preamble/IncludePrefix.h"
#include "preamble/SkipPolicy.h"
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace clang {
class CompilerInvocation;
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace libtorch_tidy::preamble {

/// When a missing PCH is built.
enum class BuildPolicy {
  /// When it pays (the file comment, step 3).
  Auto,
  /// Always (`--preamble=always`, a prefix builder).
  Always,
  /// Never: a stored prefix is used, a missing one is neither built nor
  /// waited for (the language server's analyses, which a builder of its own
  /// serves: driver/lsp/ServerPrefixBuilds.cpp).
  Never,
};

/// What takes a while, or is missing, in apply(): an editor shows it.
enum class PrefixEvent {
  /// This process starts building the prefix.
  Building,
  /// Another process builds it; this one waits.
  Waiting,
  /// BuildPolicy::Never: it would be built, and is not stored.
  Missing,
};

struct PrefixSettings {
  /// The result cache's directory.
  std::string CacheDirectory;
  BuildPolicy Build = BuildPolicy::Auto;
  /// Another unit of this run starts with the same includes.
  bool SharedInRun = false;
  /// Identifies the tool's binary (cache::toolIdentity()).
  std::string ToolStamp;
  /// The unit's file system overlays the real one (`--vfsoverlay`, the
  /// language server's unsaved buffers): an entry whose build read a file
  /// the overlay maps elsewhere is not used, since its content was checked
  /// on the real file.
  bool CheckOverlay = false;
  /// `--cache-max-size` (0: none): a prefix larger than the cap would be
  /// evicted right after it is built, and built again by the next run, so
  /// it is not kept and, while its inputs stay the same, not built again.
  std::uint64_t MaxBytes = 0;
  /// Called when this process starts building a prefix, starts waiting for
  /// another process that builds it (either takes a while, which an editor
  /// shows), or finds it missing under BuildPolicy::Never.
  std::function<void(const IncludePrefix &Prefix, PrefixEvent Event)> OnEvent;
  /// BuildPolicy::Auto: called when a prefix is wanted for the first time
  /// (and not built, once being no reason to); a run with a core to spare
  /// builds it for the next run (run/DetachedPrefixBuild.h).
  std::function<void()> OnFirstWanted;
};

/// Whether \p Invocation uses Clang's header modules (-fmodules, module
/// maps, module files), which turn its #includes into imports. Such a unit
/// gets no prefix, which would not model them; and only such a unit needs
/// clang-tidy's replay of the preprocessor events of modular headers
/// (run/AnalysisAction.h). C++20 alone sets LangOptions::Modules too: it is
/// no reason for either, or every unit against LibTorch 2.x, which requires
/// C++20, would get no prefix and lex its headers twice. A C++20 module
/// unit starts with `module;` or `export module`, never with a system
/// include, so it gets no prefix anyway (leadingSystemIncludes).
bool usesHeaderModules(const clang::CompilerInvocation &Invocation);

/// A PCH a unit is parsed against.
struct AppliedPrefix {
  IncludePrefix Prefix;
  cache::StoredPrefix Entry;
  /// Built for this unit (else reused).
  bool Built = false;
  /// Built in place of a damaged PCH, which the lookup removed.
  bool ReplacedDamaged = false;
};

class PrecompiledPrefixes {
public:
  explicit PrecompiledPrefixes(PrefixSettings Settings);

  /// Sets \p Invocation up to include the precompiled prefix of its main
  /// file, finding or building it; nothing if it has none (it then parses
  /// as it is). \p SkipBodies: the system-header bodies the unit skips.
  std::optional<AppliedPrefix>
  apply(clang::CompilerInvocation &Invocation, clang::FileManager &Files,
        std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
        std::optional<SkipPolicy::Bodies> SkipBodies);

private:
  /// Whether the prefix \p Key, stored nowhere, is to be built now: not
  /// when an earlier build failed on the same files, the cache has no room
  /// for it, the policy says never, or (BuildPolicy::Auto, not shared in the
  /// run) it is wanted for the first time.
  bool shouldBuild(const std::string &Key, const IncludePrefix &Prefix);
  /// Takes the build lock of \p Key, waiting (up to a limit) for another
  /// process that holds it. True with the lock taken; false otherwise, with
  /// \p Committed set when that process committed the prefix meanwhile.
  bool lockOrWait(const std::string &Key, const IncludePrefix &Prefix,
                  std::optional<cache::StoredPrefix> &Committed);
  /// With the lock of \p Key held: builds the PCH of \p Header, keeps it if
  /// it may be kept, and releases the lock. \p Built is false when the
  /// prefix was committed just before the lock was taken.
  std::optional<cache::StoredPrefix>
  buildLocked(const std::string &Key, const std::string &Header,
              const IncludePrefix &Prefix,
              clang::CompilerInvocation &Invocation, clang::FileManager &Files,
              std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
              std::optional<SkipPolicy::Bodies> SkipBodies, bool &Built);
  /// One line: the prefix of \p Bytes is not kept under the cap.
  void warnOversize(std::uint64_t Bytes) const;

  PrefixSettings Settings;
  cache::PreambleStore Store;
};

} // namespace libtorch_tidy::preamble

#endif // LIBTORCH_TIDY_DRIVER_PREAMBLE_PRECOMPILEDPREFIXES_H
