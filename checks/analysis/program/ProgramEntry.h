//===--- ProgramEntry.h - What `main` runs ----------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A program-wide setting (ProgramSetup.h) belongs in the `main` of the
// program that needs it. A training loop written in a header is compiled
// into every program that includes it, an inference program's too; only a
// `main` that runs the loop may get the setting.
//
// `main` *reaches* a statement when the statement is in `main` (or in a
// lambda written there), or in a function that `main` calls, directly or
// through the functions of this translation unit it calls (calls and
// constructions whose callee has a body here; a template is reached when
// one of its instantiations is). Calls through function pointers,
// `std::function`, virtual dispatch to an override, or into other
// translation units are not followed: what they run is not reached.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_PROGRAMENTRY_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_PROGRAMENTRY_H

#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

class ProgramEntry {
public:
  ProgramEntry(ASTContext &Context, const utils::UserCodeParents &Parents);

  /// The definition of `main` in this translation unit's user code, or null.
  const FunctionDecl *main() const { return Main; }

  /// `main` runs \p S (see the file comment). False without `main`.
  bool reaches(const Stmt &S);

  /// The loop a program-wide setting's finding goes on: the first of
  /// \p Loops (in source order) that `main` reaches, or the first one when
  /// `main` reaches none (or there is no `main`). Null when \p Loops is
  /// empty.
  const Stmt *settingLoop(llvm::ArrayRef<const Stmt *> Loops);

private:
  void collect();
  bool isReached(const FunctionDecl *Function) const;

  ASTContext &Context;
  const utils::UserCodeParents &Parents;
  const FunctionDecl *Main = nullptr;
  bool Collected = false;
  /// Canonical declarations of the functions `main` runs, and of the
  /// templates (patterns) they were instantiated from.
  llvm::DenseSet<const FunctionDecl *> Reached;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_PROGRAMENTRY_H
