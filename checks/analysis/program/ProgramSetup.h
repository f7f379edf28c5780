//===--- ProgramSetup.h - Code that runs once, first in main ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Global LibTorch settings (`at::globalContext().setBenchmarkCuDNN(true)`,
// `setFloat32MatmulPrecision("high")`) belong at the start of the program,
// before any model is built or run. Checks that suggest one insert it as the
// first statement of the `main` that runs the training loop needing it
// (ProgramEntry.h), and read which LibTorch the code is compiled against to
// spell version-dependent code.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_PROGRAMSETUP_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_PROGRAMSETUP_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Preprocessor.h"
#include <optional>
#include <string>

namespace clang::tidy::libtorch::analysis {

/// Where a statement inserted first in `main` goes. Two checks may each
/// insert one in the same run (tf32-disabled and cudnn-benchmark), and
/// clang's Replacements refuse two insertions at one offset (their order
/// would be ambiguous): each check has its own slot, so one --fix applies
/// both.
enum class SetupSlot {
  /// Right after the opening brace of `main`.
  AfterBrace,
  /// At the start of the line of `main`'s first statement, when only
  /// whitespace precedes it there and no preprocessor directive comes
  /// between; else at the start of the line after the brace's, when only
  /// whitespace or a `//` comment follows the brace; otherwise as
  /// AfterBrace (and the two conflict: --fix says to run it again).
  BeforeFirstStatement,
};

/// A fix-it that makes \p Statement (one full statement, with its `;`) the
/// first statement of \p Main, on a line of its own indented like the body.
/// Nothing when the body is not a plain `{ ... }` block whose opening brace is
/// written in the file (a function-try-block, a body made by a macro), or
/// when `main` already starts with exactly that statement.
std::optional<FixItHint> insertFirstInMain(const FunctionDecl &Main,
                                           llvm::StringRef Statement,
                                           SetupSlot Slot,
                                           const SourceManager &SM,
                                           const LangOptions &LangOpts);

/// True when `at::globalContext()` is declared in this translation unit
/// (ATen/Context.h, which <torch/torch.h> includes), so that an inserted
/// call to it compiles.
bool declaresGlobalContext(ASTContext &Context);

struct LibTorchVersion {
  unsigned Major = 0;
  unsigned Minor = 0;
  bool atLeast(unsigned OtherMajor, unsigned OtherMinor) const {
    return Major > OtherMajor || (Major == OtherMajor && Minor >= OtherMinor);
  }
};

/// The LibTorch version the code is compiled against, read from the
/// `TORCH_VERSION_MAJOR` / `TORCH_VERSION_MINOR` macros of torch/version.h
/// (which <torch/torch.h> includes); nothing when they are not defined.
std::optional<LibTorchVersion> libTorchVersion(Preprocessor &PP);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_PROGRAMSETUP_H
