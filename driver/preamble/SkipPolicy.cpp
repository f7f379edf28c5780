//===--- SkipPolicy.cpp - What the enabled checks let a unit skip ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "preamble/SkipPolicy.h"
#include "utils/UserCode.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

using namespace llvm;
using clang::Decl;
using clang::FunctionDecl;
using clang::PackExpansionType;
using clang::ParmVarDecl;
using clang::QualType;
using clang::RValueReferenceType;
using clang::SourceManager;
using clang::TemplateTypeParmType;

namespace libtorch_tidy::preamble {
namespace {

/// Checks that follow an argument into forwarding callees
/// (ExprMutationAnalyzer).
constexpr llvm::StringLiteral ForwardingBodyChecks[] = {
    "bugprone-infinite-loop",
    "bugprone-redundant-branch-condition",
    "misc-const-correctness",
    "performance-for-range-copy",
    "readability-use-anyofallof",
    // Since LLVM 22 (clang-tidy 16 did not use the analyzer there).
    "performance-unnecessary-value-param",
};

/// Checks that read the bodies of any callee, to the end of the call chain.
constexpr llvm::StringLiteral AllBodyChecks[] = {
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
constexpr llvm::StringLiteral WholeUnitChecks[] = {
    "bugprone-forward-declaration-namespace",
    "bugprone-exception-escape",
    "openmp-exception-escape",
    "misc-no-recursion",
    "bugprone-signal-handler",
    "cert-sig30-c",
    "cert-msc54-cpp",
};

bool isStaticAnalyzerCheck(StringRef Check) {
  return Check.starts_with("clang-analyzer-");
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

namespace {

/// A function template taking `T &&` (or a pack of them): what
/// ExprMutationAnalyzer follows an argument into.
bool hasForwardingReferenceParameter(const FunctionDecl &FD) {
  if (!FD.getDescribedFunctionTemplate())
    return false;
  return llvm::any_of(FD.parameters(), [](const ParmVarDecl *Param) {
    QualType Type = Param->getType();
    if (const auto *Pack = Type->getAs<PackExpansionType>())
      Type = Pack->getPattern();
    const auto *Ref = Type->getAs<RValueReferenceType>();
    return Ref && !Ref->getPointeeType().getQualifiers() &&
           Ref->getPointeeType()->getAs<TemplateTypeParmType>();
  });
}

} // namespace

bool skipsBody(const Decl *D, const SourceManager &Sources,
               SkipPolicy::Bodies Bodies) {
  if (Bodies == SkipPolicy::Bodies::KeepAll || !D)
    return false;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(D->getAsFunction());
  // User code keeps its bodies; so does a function without a location,
  // which isUserCode() does not count as user code.
  if (!FD || FD->getLocation().isInvalid() ||
      clang::tidy::libtorch::utils::isUserCode(FD, Sources))
    return false;
  // Sema refuses to skip these; we say so rather than rely on it.
  if (FD->isConstexpr())
    return false;
  if (FD->getDeclaredReturnType()->getContainedDeducedType())
    return false;
  if (Bodies == SkipPolicy::Bodies::KeepForwarding &&
      hasForwardingReferenceParameter(*FD))
    return false;
  return true;
}

StringRef bodiesName(SkipPolicy::Bodies Bodies) {
  switch (Bodies) {
  case SkipPolicy::Bodies::SkipAll:
    return "skip-all";
  case SkipPolicy::Bodies::KeepForwarding:
    return "keep-forwarding";
  case SkipPolicy::Bodies::KeepAll:
    return "keep-all";
  }
  llvm_unreachable("unknown SkipPolicy::Bodies");
}

} // namespace libtorch_tidy::preamble
