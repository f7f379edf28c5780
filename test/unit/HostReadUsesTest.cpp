//===--- HostReadUsesTest.cpp - what a host read's value is for -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/HostReadUses.h"
#include "ASTTestSupport.h"
#include "utils/UserCode.h"
#include <algorithm>

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::HostReadUse;
using clang::tidy::libtorch::analysis::hostReadUse;
using clang::tidy::libtorch::analysis::HostSync;
using clang::tidy::libtorch::analysis::tensorMethodSync;
using clang::tidy::libtorch::utils::UserCodeParents;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace host_read_uses_test {

class HostReadUsesTest : public ::testing::Test {
protected:
  void parse(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(
        "#include <torch/torch.h>\n#include <vector>\n" + Code);
    ASSERT_TRUE(AST);
    Parents = std::make_unique<UserCodeParents>(AST->getASTContext());
    ASTContext &Context = AST->getASTContext();
    for (const BoundNodes &Node :
         match(cxxMemberCallExpr(isExpansionInMainFile(),
                                 callee(cxxMethodDecl(hasName("item"))))
                   .bind("read"),
               Context))
      Reads.push_back(Node.getNodeAs<CXXMemberCallExpr>("read"));
    const SourceManager &SM = Context.getSourceManager();
    std::sort(Reads.begin(), Reads.end(), [&SM](const auto *A, const auto *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });
    // A braced list is matched in both its forms.
    Reads.erase(std::unique(Reads.begin(), Reads.end()), Reads.end());
  }

  /// What the \p N-th `item()` of the snippet (from 0, in source order)
  /// reads for, when \p RepeatedLoop runs it per batch.
  HostReadUse::Kind use(size_t N, const Stmt *RepeatedLoop = nullptr) {
    EXPECT_LT(N, Reads.size());
    if (N >= Reads.size())
      return HostReadUse::Kind::Other;
    ASTContext &Context = AST->getASTContext();
    std::optional<HostSync> Sync =
        tensorMethodSync(*Reads[N], Context, Context.getLangOpts());
    EXPECT_TRUE(Sync.has_value());
    if (!Sync)
      return HostReadUse::Kind::Other;
    return hostReadUse(*Sync, RepeatedLoop, *Parents,
                       Context.getSourceManager())
        .Use;
  }

  /// The for loop of the function named \p Function.
  const Stmt *loopOf(llvm::StringRef Function) {
    auto Found = match(
        forStmt(hasAncestor(functionDecl(hasName(Function)))).bind("loop"),
        AST->getASTContext());
    EXPECT_FALSE(Found.empty());
    return Found.empty() ? nullptr : Found.front().getNodeAs<Stmt>("loop");
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
  std::vector<const CXXMemberCallExpr *> Reads;
};

TEST_F(HostReadUsesTest, ElementsCollectionsAndInnerLoops) {
  parse(R"cpp(
struct Box { float x, score; };
std::vector<Box> boxes(torch::Tensor out) {
  std::vector<Box> kept;
  for (int64_t i = 0; i < out.size(0); ++i) {
    float score = out[i][1].item<float>();
    kept.push_back({out.select(0, i)[0].item<float>(), score});
  }
  return kept;
}
void written(torch::Tensor out) {
  for (int64_t i = 0; i < 4; ++i) {
    float first = out[0].item<float>();
    out.add_(1);
  }
}
std::vector<long> decode(torch::Tensor next) {
  std::vector<long> ids;
  for (int t = 0; t < 8; ++t) {
    ids.push_back(next.item<long>());
    ids.emplace_back(next.argmax().item<long>());
    next = next.softmax(0);
  }
  return ids;
}
void nms(torch::Tensor order) {
  while (order.numel() > 0) {
    long best = order[0].item<long>();
    order = order.slice(0, 1);
  }
}
float total(torch::Tensor loss) {
  float sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += loss.item<float>();
  return sum + loss.item<float>();
}
void inside(torch::Tensor batch) {
  for (int i = 0; i < 8; ++i) {
    auto out = batch * i;
    for (int j = 0; j < 4; ++j)
      out[j].item<float>();
  }
})cpp");
  using Kind = HostReadUse::Kind;
  EXPECT_EQ(use(0), Kind::ElementOfUnchanged) << "a box's score, per box";
  EXPECT_EQ(use(1), Kind::ElementOfUnchanged)
      << "an element first, though the element is collected";
  EXPECT_EQ(use(2), Kind::InInnerLoop) << "the loop writes what it reads";
  EXPECT_EQ(use(3, loopOf("decode")), Kind::Collected) << "push_back";
  EXPECT_EQ(use(4, loopOf("decode")), Kind::Collected) << "emplace_back";
  EXPECT_EQ(use(5), Kind::InInnerLoop) << "greedy NMS: the order changes";
  EXPECT_EQ(use(6, loopOf("total")), Kind::Other)
      << "a running total in the loop that repeats";
  EXPECT_EQ(use(7), Kind::Other) << "outside any loop";
  EXPECT_EQ(use(8), Kind::ElementOfUnchanged)
      << "declared in the outer loop, before the inner one: one copy per "
         "outer iteration";
}

} // namespace host_read_uses_test
