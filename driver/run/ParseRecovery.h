//===--- ParseRecovery.h - Findings in code that did not parse --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A unit with compile errors is still analyzed, as far as it parsed: a
// header that is not found is an error, not the end of the parse, as in an
// editor's parser (recoverFromMissingHeaders). But error recovery changes
// the code the checks see. A statement that names what the missing header
// declared is dropped; a condition that does not parse is kept as a
// `RecoveryExpr`; a declaration of an unknown type is invalid, and its uses
// vanish without errors of their own. A check could then report what the
// program does not do: a module "never moved" whose `to(device)` was
// dropped, a sync "on every step" whose periodic guard did not parse.
// ParseRecovery says which findings of such a unit to leave out:
//
// - A function whose body holds an error is broken; so is every function of
//   a class whose definition holds an error outside its functions. An error
//   outside every function (a member or a global of an undeclared type)
//   breaks every function after it in the unit: the uses of an invalid
//   declaration vanish without errors of their own, and C++ code uses only
//   what was declared before it.
// - A finding of a check whose evidence is the call graph (Catalog.def:
//   `Calls`) is left out when it lies in a broken function, in a function
//   that a broken one calls (directly or not), or in a call to a function
//   from which a broken one can be reached: the finding's evidence can have
//   come from there.
// - A finding of a check whose evidence is the whole unit (`Unit`: device
//   placement, program-wide settings) is left out when any function is
//   broken. Other clang-tidy checks count as `Calls`: theirs is mostly the
//   function they report in.
// - With an error in a system header, an error without a location, or the
//   error limit reached, every finding of the unit is left out.
//
// The #include of a header that is not found is no error in code: what uses
// the header's declarations has errors of its own, and macros it would have
// defined are the one thing these rules cannot see (an `#ifdef` of one reads
// as false, as it would for a compiler). What the header would have added
// to an overload set is seen at the call: an unqualified call of a library
// function (LibTorch's `make_data_loader` after `using namespace
// torch::data`) after a missing #include may resolve to a function of the
// header in the complete program (the project's own wrapper). Such a call
// counts as code that did not parse when it involves LibTorch (its callee
// or an argument, analysis::involvesLibTorch): `strstr(path, ".jpg")` tells
// the checks nothing, whichever `strstr` it resolves to. So does a
// qualified call that a user declaration could win: `::make_data_loader`
// (the global namespace is everybody's), and `project::make_data_loader`
// where the project's namespace does not declare it but brings it in with a
// using-directive or -declaration (a declaration in the namespace hides
// those). A call qualified by the namespace that declares it, or by a
// library's own namespace (`std::printf`), a member call and an operator
// cannot be taken over (a header would have to reopen the library's
// namespace or class), and a call of a user function is left as it is: the
// project's own overloads are the program the checks analyze.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_PARSERECOVERY_H
#define LIBTORCH_TIDY_DRIVER_RUN_PARSERECOVERY_H

#include "model/Findings.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace libtorch_tidy::run {

/// Makes a header that is not found an error instead of a fatal error, so
/// that the parse goes on past its #include (a fatal error stops the
/// preprocessor and template instantiation, and hides every later error).
void recoverFromMissingHeaders(clang::DiagnosticsEngine &Diagnostics);

/// Forwards every diagnostic to the consumer it wraps and records the
/// errors: their locations (valid while the parse's SourceManager lives),
/// the headers that were not found, and whether the error limit was hit.
class ErrorRecorder : public clang::DiagnosticConsumer {
public:
  explicit ErrorRecorder(clang::DiagnosticConsumer &Inner) : Inner(Inner) {}

  void BeginSourceFile(const clang::LangOptions &Options,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void finish() override;
  bool IncludeInDiagnosticCounts() const override;
  void clear() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  bool sawErrors() const {
    return !CodeErrors.empty() || !MissingHeaders.empty() || Unbounded;
  }

  /// Errors other than a missing header's #include, where they were
  /// reported.
  std::vector<clang::SourceLocation> CodeErrors;
  /// The headers not found, as the #include spelled them, in order.
  std::vector<std::string> MissingHeaders;
  /// The first #include of a header that was not found: the overload sets
  /// of the calls after it may be incomplete.
  clang::SourceLocation FirstMissingInclude;
  /// The error limit was reached, or an error had no location: which code
  /// did not parse is not known.
  bool Unbounded = false;

private:
  clang::DiagnosticConsumer &Inner;
};

/// Which findings of a unit with compile errors may come from code that did
/// not parse (the file comment says why and how).
class ParseRecovery {
public:
  /// Nothing is left out.
  ParseRecovery() = default;

  /// From the AST of one parse and the errors \p Errors recorded in it.
  static ParseRecovery of(clang::ASTContext &Context,
                          const ErrorRecorder &Errors);

  /// Adds what another compile command of the unit found.
  void merge(ParseRecovery Other);

  /// Whether the finding of \p CheckId at \p Offset of \p File (an
  /// absolute path, as \p AbsolutePath makes the compiler's file names)
  /// may have been invented by error recovery.
  bool mayBeInvented(
      llvm::StringRef CheckId, llvm::StringRef File, unsigned Offset,
      llvm::function_ref<std::string(llvm::StringRef)> AbsolutePath) const;

  /// The headers not found, each once.
  const std::vector<std::string> &missingHeaders() const {
    return MissingHeaders;
  }
  /// Some function did not parse, or more than functions did.
  bool anyCodeBroken() const { return Everything || !Broken.empty(); }

private:
  /// Bytes [Begin, End) of a file, named as the compiler spelled it.
  struct Span {
    std::string File;
    unsigned Begin = 0;
    unsigned End = 0;
  };

  /// Every finding of the unit may be invented.
  bool Everything = false;
  /// Broken functions, the functions they call and the calls that reach
  /// them: where a `Calls` finding may be invented.
  std::vector<Span> Broken;
  std::vector<std::string> MissingHeaders;
};

/// Leaves out of \p Unit's findings those that \p Recovery says may have
/// been invented; returns how many. Compiler diagnostics stay.
unsigned leaveOutRecoveredFindings(
    model::TranslationUnitResult &Unit, const ParseRecovery &Recovery,
    llvm::function_ref<std::string(llvm::StringRef)> AbsolutePath);

/// The line that says what of \p Unit was analyzed when it has compile
/// errors: "2 compiler errors; analyzed in part: 'opencv2/core.hpp' was not
/// found".
std::string compileErrorsSummary(const model::TranslationUnitResult &Unit);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_PARSERECOVERY_H
