//===--- RecoveryFunctionGraph.h - Calls, for ParseRecovery -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The call graph of a unit's user code as ParseRecovery (ParseRecovery.h)
// needs it: each function's body as a range of its file, the calls in it,
// the class definitions, and the calls of library functions by a name a
// user declaration could take over. Ranges, not declarations: a compile
// error has a place, not a declaration.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_RECOVERYFUNCTIONGRAPH_H
#define LIBTORCH_TIDY_DRIVER_RUN_RECOVERYFUNCTIONGRAPH_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <vector>

namespace libtorch_tidy::run {

/// The user functions with bodies, their calls to one another, and the
/// classes they belong to: template patterns, not instantiations (an
/// instantiation's code is its pattern's, and so are its errors' places).
class FunctionGraph {
public:
  struct Range {
    clang::FileID File;
    unsigned Begin = 0;
    unsigned End = 0;
    /// Where it starts, for the order of the translation unit.
    clang::SourceLocation Start;
    bool holds(clang::FileID F, unsigned Offset) const {
      return F == File && Begin <= Offset && Offset < End;
    }
    bool holds(const Range &Inner) const {
      return Inner.File == File && Begin <= Inner.Begin && Inner.End <= End;
    }
  };
  struct Call {
    const clang::Decl *Callee;
    Range Where;
  };
  struct Function {
    Range Body;
    std::vector<Call> Calls;
  };

  explicit FunctionGraph(clang::ASTContext &Context);

  /// \p R as a range of one file, macros expanded; none when it spans
  /// files or is invalid.
  std::optional<Range> rangeOf(clang::SourceRange R,
                               const clang::LangOptions &Options) const;

  /// Key of a function for the graph: its pattern's first declaration.
  static const clang::Decl *keyOf(const clang::FunctionDecl *F);

  const clang::SourceManager &SM;
  std::vector<Function> Functions;
  llvm::DenseMap<const clang::Decl *, size_t> IndexOf;
  /// Class definitions, with their range.
  std::vector<Range> Classes;
  /// Where user code calls a library function by a name whose lookup a
  /// user declaration could change (a call of `f`, `::f`, or of `ns::f`
  /// brought into a project namespace `ns` by a using).
  std::vector<clang::SourceLocation> OpenNameLibraryCalls;
};

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_RECOVERYFUNCTIONGRAPH_H
