//===--- SourceText.h - How expressions are spelled -------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_SOURCETEXT_H
#define LIBTORCH_TIDY_CHECKS_UTILS_SOURCETEXT_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include <string>

namespace clang::tidy::libtorch::utils {

/// The text of \p E for a message: as written in the file, or, inside a
/// macro expansion, as spelled in the macro. Empty if neither is readable.
std::string spelledText(const Expr *E, const SourceManager &SM,
                        const LangOptions &LangOpts);

/// How a message names the function \p Callee a call runs: `item<float>()`
/// for a method (\p IsMember), `torch::cuda::synchronize()` qualified
/// otherwise, template arguments included.
std::string calledName(const FunctionDecl *Callee, bool IsMember,
                       const PrintingPolicy &Policy);

/// \p Text, which data another run wrote (a summary file), as a message
/// may show it: control characters and DEL written as `\xNN`, so that a
/// name cannot move the cursor, retitle the terminal or start a line of
/// its own in the report.
std::string printable(llvm::StringRef Text);

/// The text from \p Begin to the end of the token at \p End, as written in
/// the file; empty when it cannot be read (a macro expansion).
std::string tokenRangeText(SourceLocation Begin, SourceLocation End,
                           const SourceManager &SM,
                           const LangOptions &LangOpts);

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_SOURCETEXT_H
