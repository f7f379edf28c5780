//===--- DataLoaderOptionsModel.h - What a loader's options say -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Reads a `torch::data::DataLoaderOptions` argument of `make_data_loader` and
// tells how many worker threads it asks for, as far as the source shows it:
// a bare batch size (`make_data_loader(ds, 64)`, an implicit
// `DataLoaderOptions(size_t)`), a defaulted argument, a setter chain
// (`DataLoaderOptions().batch_size(64).workers(2)`), or a local variable
// holding such a chain (with `opts.workers(n);` statements after it).
// Whatever we cannot see (a helper's return value, a parameter, a variable
// that escapes by reference) is `Opaque`: checks must stay silent on it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DATA_DATALOADEROPTIONSMODEL_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DATA_DATALOADEROPTIONSMODEL_H

#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <map>
#include <optional>
#include <string>

namespace clang::tidy::libtorch::analysis {

struct LoaderOptionsFacts {
  /// Where the options value comes from.
  enum class OriginKind {
    /// `make_data_loader(ds, 64)`: an implicit DataLoaderOptions(size_t).
    BareBatchSize,
    /// The options parameter was left to its default argument.
    DefaultArgument,
    /// A written DataLoaderOptions construction, possibly with setters.
    SetterChain,
    /// Anything we cannot read: a call, a parameter, an escaping variable.
    Opaque,
  };
  /// What the options say about `workers`.
  enum class WorkersKind {
    Unset,           ///< never set: the default, 0 worker threads
    LiteralZero,     ///< `.workers(0)`
    LiteralPositive, ///< `.workers(2)`
    NonLiteral,      ///< `.workers(n)`: we cannot know
  };

  OriginKind Origin = OriginKind::Opaque;
  WorkersKind Workers = WorkersKind::Unset;
  /// The argument of the `.workers(...)` call that decides, if any.
  const Expr *WorkersArg = nullptr;
  /// For each setter seen (`batch_size`, `enforce_ordering`, ...), the
  /// argument of the call that decides: the last one applied.
  std::map<std::string, const Expr *> SetterArguments;
  /// BareBatchSize: the batch-size expression as written.
  const Expr *BatchSizeArg = nullptr;
  /// SetterChain: the written expression after which `.workers(N)` can be
  /// appended; null when the options are built by a declaration such as
  /// `DataLoaderOptions opts(64);` that has no expression to append to.
  const Expr *AppendAfter = nullptr;
  /// The local variable the options were read from, if any.
  const VarDecl *Variable = nullptr;

  /// The deciding argument of setter \p Name, or null if it is never set.
  const Expr *setterArgument(llvm::StringRef Name) const {
    auto Found = SetterArguments.find(Name.str());
    return Found == SetterArguments.end() ? nullptr : Found->second;
  }

  /// True when the options certainly give the loader no worker threads.
  bool hasNoWorkers() const {
    return Origin != OriginKind::Opaque &&
           (Workers == WorkersKind::Unset ||
            Workers == WorkersKind::LiteralZero);
  }
};

/// Analyzes \p OptionsArg, the argument bound to the `DataLoaderOptions`
/// parameter of a `make_data_loader` call. \p EnclosingFunctionBody is the
/// body searched for later uses of a local options variable; it may be null.
LoaderOptionsFacts analyzeLoaderOptions(const Expr *OptionsArg,
                                        const Stmt *EnclosingFunctionBody,
                                        ASTContext &Context,
                                        const utils::UserCodeParents &Parents);

/// The argument of a `make_data_loader` call bound to its DataLoaderOptions
/// parameter (a CXXDefaultArgExpr when defaulted), or null.
const Expr *findLoaderOptionsArgument(const CallExpr &MakeDataLoaderCall);

/// True for the type `torch::data::DataLoaderOptions` (cv and references
/// ignored).
bool isDataLoaderOptionsType(QualType Type);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DATA_DATALOADEROPTIONSMODEL_H
