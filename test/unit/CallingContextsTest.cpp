//===--- CallingContextsTest.cpp - The walk through callers ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/CallingContexts.h"
#include "ASTTestSupport.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::utils;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches.
namespace calling_contexts_test {

constexpr char Code[] = R"cpp(
void leaf() {}
void mid() { leaf(); }
void top() { mid(); }
void again(int n) {
  if (n)
    again(n - 1);
  leaf();
}
)cpp";

/// The direct calls of the snippet, per callee, and the function each call
/// is in; counts how often it is asked.
struct SnippetCallers {
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const CallExpr *, 2>>
      Sites;
  llvm::DenseMap<const CallExpr *, const FunctionDecl *> CallerOf;
  unsigned Asked = 0;

  llvm::ArrayRef<const CallExpr *> callSitesOf(const FunctionDecl *Callee) {
    ++Asked;
    auto Found = Sites.find(Callee->getCanonicalDecl());
    if (Found == Sites.end())
      return {};
    return Found->second;
  }
};

class CallingContextsTest : public ::testing::Test {
protected:
  void SetUp() override {
    AST = parseWithMockTorch(Code);
    for (const BoundNodes &Bound : match(
             callExpr(hasAncestor(functionDecl().bind("caller"))).bind("call"),
             AST->getASTContext())) {
      const auto *Call = Bound.getNodeAs<CallExpr>("call");
      if (!Call->getDirectCallee())
        continue;
      Callers.Sites[Call->getDirectCallee()->getCanonicalDecl()].push_back(
          Call);
      Callers.CallerOf[Call] = Bound.getNodeAs<FunctionDecl>("caller");
    }
  }
  const FunctionDecl *function(llvm::StringRef Name) {
    auto Found =
        match(functionDecl(hasName(Name)).bind("f"), AST->getASTContext());
    return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
  }
  /// Some chain of callers of \p Callable leads from \p Target.
  bool calledFrom(CallingContexts<SnippetCallers> &Contexts,
                  const FunctionDecl *Callable, const FunctionDecl *Target,
                  unsigned Depth = 0) {
    return Contexts.anyCaller(
        Callable, Depth, [&](const CallExpr *Site, unsigned Deeper) {
          ++Visits;
          const FunctionDecl *Caller = Callers.CallerOf.lookup(Site);
          return Caller == Target ||
                 calledFrom(Contexts, Caller, Target, Deeper);
        });
  }
  std::unique_ptr<ASTUnit> AST;
  SnippetCallers Callers;
  unsigned Visits = 0;
};

TEST_F(CallingContextsTest, TheDepthBoundsTheChain) {
  // top() -> mid() -> leaf(): two calls up from leaf().
  CallingContexts<SnippetCallers> Two(Callers, 2);
  EXPECT_TRUE(calledFrom(Two, function("leaf"), function("top")));
  CallingContexts<SnippetCallers> One(Callers, 1);
  EXPECT_FALSE(calledFrom(One, function("leaf"), function("top")));
  EXPECT_TRUE(calledFrom(One, function("leaf"), function("mid")));
  EXPECT_TRUE(One.canFollow(0));
  EXPECT_FALSE(One.canFollow(1));
}

TEST_F(CallingContextsTest, RecursionFollowedUpToTheBound) {
  CallingContexts<SnippetCallers> Followed(Callers, 4, Recursion::Followed);
  EXPECT_FALSE(calledFrom(Followed, function("again"), function("top")));
  EXPECT_EQ(Visits, 4U) << "again(n - 1) once per depth";
}

TEST_F(CallingContextsTest, RecursionCut) {
  CallingContexts<SnippetCallers> Cut(Callers, 4, Recursion::Cut);
  EXPECT_FALSE(calledFrom(Cut, function("again"), function("top")));
  EXPECT_EQ(Visits, 1U) << "the recursive call is not walked again";
  // Once the walk is over, the function may be walked again.
  EXPECT_FALSE(calledFrom(Cut, function("again"), function("top")));
  EXPECT_EQ(Visits, 2U);
}

TEST_F(CallingContextsTest, AnswersKeptPerDepth) {
  CallingContexts<SnippetCallers> Kept(Callers, 2, Recursion::Cut,
                                       Memo::PerDepth);
  EXPECT_TRUE(calledFrom(Kept, function("leaf"), function("top")));
  unsigned Asked = Callers.Asked;
  EXPECT_TRUE(calledFrom(Kept, function("leaf"), function("top")));
  EXPECT_EQ(Callers.Asked, Asked) << "answered from the memo";
  // Another depth is another question.
  EXPECT_FALSE(calledFrom(Kept, function("leaf"), function("top"), 1));
  EXPECT_GT(Callers.Asked, Asked);
}

TEST_F(CallingContextsTest, EveryCallerVisited) {
  CallingContexts<SnippetCallers> Contexts(Callers, 1);
  llvm::SmallVector<const FunctionDecl *, 2> Seen;
  Contexts.eachCaller(function("leaf"), 0,
                      [&](const CallExpr *Site, unsigned Deeper) {
                        EXPECT_EQ(Deeper, 1U);
                        Seen.push_back(Callers.CallerOf.lookup(Site));
                      });
  ASSERT_EQ(Seen.size(), 2U);
  EXPECT_EQ(Seen[0], function("mid"));
  EXPECT_EQ(Seen[1], function("again"));
  Seen.clear();
  Contexts.eachCaller(function("leaf"), 1, [&](const CallExpr *Site, unsigned) {
    Seen.push_back(Callers.CallerOf.lookup(Site));
  });
  EXPECT_TRUE(Seen.empty()) << "past the bound";
}

} // namespace calling_contexts_test
