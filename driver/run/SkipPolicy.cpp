//===--- SkipPolicy.cpp - What the enabled checks let a unit skip ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/SkipPolicy.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

using namespace llvm;

namespace libtorch_tidy::run {
namespace {

/// Checks that follow an argument into forwarding callees
/// (ExprMutationAnalyzer).
constexpr StringLiteral ForwardingBodyChecks[] = {
    "bugprone-infinite-loop",     "bugprone-redundant-branch-condition",
    "misc-const-correctness",     "performance-for-range-copy",
    "readability-use-anyofallof",
};

/// Checks that read the bodies of any callee, to the end of the call chain.
constexpr StringLiteral AllBodyChecks[] = {
    "bugprone-exception-escape",
    "openmp-exception-escape",
    "misc-no-recursion",
    "bugprone-signal-handler",
    "cert-sig30-c",
    "cert-msc54-cpp",
};

/// Checks that judge user code by declarations anywhere in the unit. The
/// exception analysis caches what it found for each function it walked,
/// and what it finds depends on what it walked before: clang-tidy walks the
/// whole unit in order, system headers first.
constexpr StringLiteral WholeUnitChecks[] = {
    "bugprone-forward-declaration-namespace",
    "bugprone-exception-escape",
    "openmp-exception-escape",
    "misc-no-recursion",
    "bugprone-signal-handler",
    "cert-sig30-c",
    "cert-msc54-cpp",
};

bool isStaticAnalyzerCheck(StringRef Check) {
  return Check.startswith("clang-analyzer-");
}

} // namespace

bool needsWholeUnit(StringRef Check) {
  return isStaticAnalyzerCheck(Check) || is_contained(WholeUnitChecks, Check);
}

SkipPolicy skipPolicyFor(ArrayRef<std::string> EnabledChecks) {
  SkipPolicy Policy;
  for (const std::string &Check : EnabledChecks) {
    if (isStaticAnalyzerCheck(Check) || is_contained(AllBodyChecks, Check))
      Policy.SystemBodies = SkipPolicy::Bodies::KeepAll;
    else if (is_contained(ForwardingBodyChecks, Check) &&
             Policy.SystemBodies == SkipPolicy::Bodies::SkipAll)
      Policy.SystemBodies = SkipPolicy::Bodies::KeepForwarding;
    if (needsWholeUnit(Check))
      Policy.NarrowScope = false;
  }
  return Policy;
}

} // namespace libtorch_tidy::run
