//===--- AnalysisAction.h - The frontend action of one unit -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What runs inside the compiler for one unit (UnitAnalysis.h sets it up):
// clang-tidy's AST consumers, wrapped so that the unit skips what our checks
// never look at (the bodies of functions in system headers,
// preamble/SkipPolicy.h), with TORCH_VERSION recorded from the preprocessor
// and, at the end of each parse, the bytes parsed of every user file and the
// files the unit read (for `--fix` and the result cache). With \p Prefixes,
// each compile command is parsed against the precompiled prefix of its main
// file (preamble/PrecompiledPrefixes.h) unless a check watches the
// preprocessor.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_ANALYSISACTION_H
#define LIBTORCH_TIDY_DRIVER_RUN_ANALYSISACTION_H

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
// ClangTidyASTConsumerFactory owns the check factories.
#include "clang-tidy/ClangTidyModule.h"
#include "preamble/PrecompiledPrefixes.h"
#include "run/ErrorConversion.h"
#include "run/ParseRecovery.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace libtorch_tidy::run {

/// Creates the action of each of a unit's compile commands. \p Context runs
/// the checks; \p WholeUnitContext (may be null) those that need the whole
/// unit (preamble/SkipPolicy.h). The TORCH_VERSION seen goes to \p
/// LibTorchVersion; with \p Dependencies, every file read with the hash of its
/// content and every path a `__has_include` found empty (UnitAnalysis.h).
class AnalysisActionFactory : public clang::tooling::FrontendActionFactory {
public:
  AnalysisActionFactory(
      clang::tidy::ClangTidyContext &Context,
      clang::tidy::ClangTidyContext *WholeUnitContext,
      std::vector<std::string> EnabledChecks,
      llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
      bool SkipSystemBodies, std::string &LibTorchVersion,
      std::vector<std::pair<std::string, std::string>> *Dependencies,
      preamble::PrecompiledPrefixes *Prefixes);

  std::unique_ptr<clang::FrontendAction> create() override;

  bool
  runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                clang::FileManager *Files,
                std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
                clang::DiagnosticConsumer *DiagConsumer) override;

  /// What the compiler parsed of each user file (EndSourceFileAction).
  ParsedContents Parsed;
  /// Files parsed with different content by two compile commands.
  std::set<std::string> Inconsistent;
  /// The summaries of the main file's functions as JSON text
  /// (model::TranslationUnitResult::FunctionSummaries), from the last
  /// compile command parsed.
  std::string FunctionSummaries;
  /// The project's functions the unit calls without their bodies
  /// (model::TranslationUnitResult::CalledElsewhere), likewise.
  std::vector<std::string> CalledElsewhere;
  /// Paths where `__has_include` found nothing (AbsentHeaderRecorder).
  std::set<std::string> AbsentHeaders;
  /// The precompiled prefixes the unit was parsed against, one per compile
  /// command that used one.
  std::vector<preamble::AppliedPrefix> AppliedPrefixes;
  /// An enabled check registered preprocessor callbacks: it would miss the
  /// events of a precompiled prefix, so none is used.
  bool ChecksWatchPreprocessor = false;
  /// The main file parsed does not start with the prefix it was parsed
  /// against (edited since it was scanned).
  bool PrefixMismatch = false;
  /// Where the unit's compile errors may have changed what the checks saw
  /// (ParseRecovery.h); nothing when it had none.
  ParseRecovery Recovery;
  /// A prefix builder (PrefixRole::BuildOnly): each compile command's
  /// prefix is found or built, and nothing is parsed.
  bool BuildPrefixOnly = false;

private:
  class Action;

  /// The consumers' factories of every check and of those that need the
  /// whole unit (may be absent).
  struct ConsumerFactories {
    ConsumerFactories(
        clang::tidy::ClangTidyContext &Context,
        clang::tidy::ClangTidyContext *WholeUnitContext,
        llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS);
    clang::tidy::ClangTidyASTConsumerFactory Checks;
    std::optional<clang::tidy::ClangTidyASTConsumerFactory> WholeUnit;
  };
  /// The factories for \p Compiler's unit. clang-tidy replays the
  /// preprocessor events of headers read from Clang's modules
  /// (ExpandModularHeadersPPCallbacks) when its factory has the file system,
  /// and decides by LangOptions::Modules, which C++20 alone sets: every
  /// header of a C++20 unit would be lexed twice, for nothing, and the
  /// replay's callbacks would cost the unit its precompiled prefix. Only a
  /// unit that uses header modules (preamble::usesHeaderModules) gets the
  /// factories with the file system, made when the first one comes.
  ConsumerFactories &factoriesFor(clang::CompilerInstance &Compiler);

  clang::tidy::ClangTidyContext &Context;
  clang::tidy::ClangTidyContext *WholeUnitContext;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS;
  ConsumerFactories Textual;
  std::optional<ConsumerFactories> Modular;
  std::vector<std::string> EnabledChecks;
  bool SkipSystemBodies;
  std::string &LibTorchVersion;
  std::vector<std::pair<std::string, std::string>> *Dependencies;
  preamble::PrecompiledPrefixes *Prefixes;
  /// Set while a compile command is parsed against a prefix.
  bool ParsingAgainstPrefix = false;
  /// The errors of the compile command being parsed (runInvocation).
  ErrorRecorder *Errors = nullptr;
};

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_ANALYSISACTION_H
