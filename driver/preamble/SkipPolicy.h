//===--- SkipPolicy.h - What the enabled checks let a unit skip -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A unit skips what no enabled check looks at (run/UnitAnalysis.cpp's
// SkippingConsumer): the bodies of functions declared in system headers, and
// the matching of top-level declarations in system headers. Most checks,
// ours and clang-tidy's, look only at user code, but a few standard ones
// follow calls into system headers or collect the whole translation unit;
// with one of them enabled, the unit skips less, so that every check's
// findings in user code stay those of clang-tidy:
//
// - bodies of function templates with a forwarding-reference parameter
//   (`template <class T> void f(T &&)`): ExprMutationAnalyzer follows an
//   argument into such a callee to see whether it is modified
//   (bugprone-infinite-loop, bugprone-redundant-branch-condition,
//   misc-const-correctness, performance-for-range-copy,
//   readability-use-anyofallof, and since LLVM 22
//   performance-unnecessary-value-param);
// - all bodies: checks that walk callees to their end
//   (bugprone-exception-escape, openmp-exception-escape, the static
//   analyzer's clang-analyzer-*, which inlines them), and the call graph
//   checks (misc-no-recursion, bugprone-signal-handler and its CERT
//   aliases);
// - the whole translation unit, not only user declarations: checks that
//   collect declarations of system headers to judge user ones
//   (bugprone-forward-declaration-namespace) and the call graph and analyzer
//   checks above.
//
// The lists come from which checks' objects in Debian's clang-tidy
// libraries use ExprMutationAnalyzer, ExceptionAnalyzer or CallGraph (`nm
// --undefined-only` on libclangTidy*Module.a, read again for 22), and
// which judge user code by the rest of the unit;
// test/driver/standard-checks-equality.test compares the findings with
// clang-tidy's.
//
// It lives with the precompiled prefixes, below run/: a prefix's PCH must
// skip exactly what the units parsed against it skip.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_PREAMBLE_SKIPPOLICY_H
#define LIBTORCH_TIDY_DRIVER_PREAMBLE_SKIPPOLICY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang {
class Decl;
class SourceManager;
} // namespace clang

namespace libtorch_tidy::preamble {

struct SkipPolicy {
  enum class Bodies {
    /// Skip the bodies of system-header functions (constexpr ones and those
    /// with a deduced return type aside: Sema needs them).
    SkipAll,
    /// As SkipAll, but keep those of function templates with a
    /// forwarding-reference parameter.
    KeepForwarding,
    /// Parse every body.
    KeepAll,
  };
  Bodies SystemBodies = Bodies::SkipAll;
  /// Match only the top-level declarations outside system headers.
  bool NarrowScope = true;
};

/// Whether \p Check judges user code by the whole unit (the third kind
/// above): it matches in a context of its own, with the whole traversal
/// scope, before the other checks match only user declarations.
bool needsWholeUnit(llvm::StringRef Check);

/// What a unit may skip with \p EnabledChecks enabled.
SkipPolicy skipPolicyFor(llvm::ArrayRef<std::string> EnabledChecks);

/// Whether the body of \p D (a function, or a function template) is skipped
/// under \p Bodies: only the bodies of functions declared in system
/// headers, and not those Sema needs (constexpr functions and deduced return
/// types), nor, under KeepForwarding, those of function templates with a
/// forwarding-reference parameter. The unit's parse and the parse of its
/// precompiled prefix (PrefixPch.h) both ask this.
bool skipsBody(const clang::Decl *D, const clang::SourceManager &Sources,
               SkipPolicy::Bodies Bodies);

/// The name of \p Bodies, for keys.
llvm::StringRef bodiesName(SkipPolicy::Bodies Bodies);

} // namespace libtorch_tidy::preamble

#endif // LIBTORCH_TIDY_DRIVER_PREAMBLE_SKIPPOLICY_H
