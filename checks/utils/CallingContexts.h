//===--- CallingContexts.h - A function in the calls that run it -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The step every upward walk across functions shares: a walk up from a
// statement (forEachAncestor in AstWalk.h) that reaches its function goes
// on at each call of that function in the unit, one call deeper. What the
// walk looks for in a function stays with the walk; what this class keeps
// in one place is how far it goes (a depth bound), what a recursive call
// does (followed until the bound, or cut) and which answers are kept.
//
// Only the calls the index holds are seen (analysis::CallSiteIndex: direct
// calls, and virtual calls into the overrides they may run), so function
// pointers, std::function and other translation units are not followed.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_CALLINGCONTEXTS_H
#define LIBTORCH_TIDY_CHECKS_UTILS_CALLINGCONTEXTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <utility>

namespace clang::tidy::libtorch::utils {

/// What a walk through callers does with a function whose callers it is
/// walking already (a recursive call).
enum class Recursion {
  /// Walks them again, one call deeper: only the depth bound ends it. For
  /// walks that keep no state across calls and must see every chain.
  Followed,
  /// Does not walk them again: that chain answers "no".
  Cut,
};

/// Whether anyCaller keeps its answers per (function, depth).
enum class Memo {
  None,
  /// Safe when the walk's answer for a call depends on nothing but that
  /// call and its depth: one CallingContexts per question otherwise.
  PerDepth,
};

/// The call sites of functions, walked upward with a depth bound.
/// \p CallerIndex: anything with `callSitesOf(const FunctionDecl *)`
/// returning a range of `const CallExpr *` (analysis::TrainingLoopModel).
template <typename CallerIndex> class CallingContexts {
public:
  CallingContexts(CallerIndex &Callers, unsigned MaxDepth,
                  Recursion Recursive = Recursion::Cut, Memo Kept = Memo::None)
      : Callers(Callers), MaxDepth(MaxDepth), Recursive(Recursive), Kept(Kept) {
  }

  /// A walk that has followed \p Depth calls may follow one more.
  bool canFollow(unsigned Depth) const { return Depth < MaxDepth; }

  /// Calls \p InCaller(Site, Depth + 1) for the call sites of \p Callable
  /// in the order of the index until one returns true, and says whether
  /// one did. False when \p Depth calls are as many as the bound allows,
  /// and, with Recursion::Cut, when \p Callable's callers are being walked
  /// already.
  template <typename Visitor>
  bool anyCaller(const FunctionDecl *Callable, unsigned Depth,
                 Visitor InCaller) {
    if (!Callable || !canFollow(Depth))
      return false;
    const FunctionDecl *Key = Callable->getCanonicalDecl();
    if (Kept == Memo::PerDepth)
      if (auto Known = Answers.find({Key, Depth}); Known != Answers.end())
        return Known->second;
    if (!enter(Key))
      return false;
    const unsigned CutsBefore = Cuts;
    bool Found = false;
    for (const CallExpr *Site : Callers.callSitesOf(Callable))
      if (InCaller(Site, Depth + 1)) {
        Found = true;
        break;
      }
    leave(Key);
    // An answer that a cut recursion may have changed is not kept: another
    // start reaches the function with other callers in progress.
    if (Kept == Memo::PerDepth && Cuts == CutsBefore)
      Answers[{Key, Depth}] = Found;
    return Found;
  }

  /// Calls \p InCaller(Site, Depth + 1) for every call site of \p Callable,
  /// in the order of the index; none past the bound, and with
  /// Recursion::Cut none of a function whose callers are being walked.
  template <typename Visitor>
  void eachCaller(const FunctionDecl *Callable, unsigned Depth,
                  Visitor InCaller) {
    anyCaller(Callable, Depth, [&](const CallExpr *Site, unsigned Deeper) {
      InCaller(Site, Deeper);
      return false;
    });
  }

private:
  bool enter(const FunctionDecl *Key) {
    if (Recursive == Recursion::Followed)
      return true;
    if (InProgress.insert(Key).second)
      return true;
    ++Cuts;
    return false;
  }
  void leave(const FunctionDecl *Key) {
    if (Recursive == Recursion::Cut)
      InProgress.erase(Key);
  }

  CallerIndex &Callers;
  unsigned MaxDepth;
  Recursion Recursive;
  Memo Kept;
  /// The functions (canonical) whose callers are being walked.
  llvm::DenseSet<const FunctionDecl *> InProgress;
  /// How many recursive calls were cut so far.
  unsigned Cuts = 0;
  /// With Memo::PerDepth: the answer per (function, depth).
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, bool> Answers;
};

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_CALLINGCONTEXTS_H
