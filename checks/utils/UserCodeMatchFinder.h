//===--- UserCodeMatchFinder.h - Matchers run over user code ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A check's matchers, run over user code only.
//
// clang-tidy's MatchFinder tries every registered matcher on every node of
// its kind in the traversal scope. In a clang-tidy run that scope is the
// whole translation unit: on a LibTorch unit, hundreds of thousands of call
// expressions in LibTorch's headers, each tried by every check that matches
// calls, only to be refused by the matcher's system-header test. With
// `--enable-check-profile` each of those tries also reads the clock and
// mallinfo() whenever the next matcher belongs to another check.
//
// A UserCodeMatchFinder holds a check's matchers in a MatchFinder of its own
// and registers one matcher with clang-tidy's: the translation unit. When
// that matches (once, first in the traversal), it runs its matchers with the
// traversal scope set to the top-level declarations outside system headers
// (userTopLevelDecls: what the libtorch-tidy CLI sets for the whole run, and
// what clangd sets), then restores the scope; a scope the host has already
// narrowed is used as it is. Findings are those the check's matchers give on
// user code; the time spent is the check's own in clang-tidy's profile,
// since this callback reports the check's name.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_USERCODEMATCHFINDER_H
#define LIBTORCH_TIDY_CHECKS_UTILS_USERCODEMATCHFINDER_H

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <memory>
#include <optional>

namespace clang::tidy::libtorch::utils {

class UserCodeMatchFinder : public ast_matchers::MatchFinder::MatchCallback {
public:
  /// \p Owner names this callback in clang-tidy's profile and gives its
  /// traversal kind: the check whose matchers this runs.
  explicit UserCodeMatchFinder(
      const ast_matchers::MatchFinder::MatchCallback &Owner)
      : Owner(Owner) {}

  /// Registers the translation-unit matcher with \p Outer and returns a new,
  /// empty MatchFinder for the check's own matchers. The callbacks added to
  /// it get onStartOfTranslationUnit and onEndOfTranslationUnit from it,
  /// around the matching of user code; they must not also be added to
  /// \p Outer.
  ast_matchers::MatchFinder &attach(ast_matchers::MatchFinder &Outer);

  void run(const ast_matchers::MatchFinder::MatchResult &Result) override;
  StringRef getID() const override { return Owner.getID(); }
  std::optional<TraversalKind> getCheckTraversalKind() const override {
    return Owner.getCheckTraversalKind();
  }

private:
  const ast_matchers::MatchFinder::MatchCallback &Owner;
  std::unique_ptr<ast_matchers::MatchFinder> Inner;
};

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_USERCODEMATCHFINDER_H
