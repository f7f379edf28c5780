//===--- UserCodeMatchFinderTest.cpp - matchers over user code tests ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/UserCodeMatchFinder.h"
#include "ASTTestSupport.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::utils;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace user_code_match_finder_test {

constexpr char Code[] = R"cpp(
#include <torch/torch.h>
int main() {
  torch::Tensor x = torch::ones({2, 4});
  auto y = x.sum();
  return y.item<float>() > 0;
}
)cpp";

/// Counts call expressions in and out of system headers, and records the
/// order of the events MatchFinder sends it.
class CallCounter : public MatchFinder::MatchCallback {
public:
  explicit CallCounter(std::string ID = "counter") : ID(std::move(ID)) {}
  void onStartOfTranslationUnit() override { Events.push_back("start"); }
  void onEndOfTranslationUnit() override { Events.push_back("end"); }
  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
    if (Result.SourceManager->isInSystemHeader(
            Result.SourceManager->getExpansionLoc(Call->getBeginLoc())))
      ++InSystemHeaders;
    else
      ++InUserCode;
    if (Events.empty() || Events.back() != "run")
      Events.push_back("run");
  }
  StringRef getID() const override { return ID; }

  std::string ID;
  unsigned InUserCode = 0;
  unsigned InSystemHeaders = 0;
  std::vector<std::string> Events;
};

TEST(UserCodeMatchFinderTest, MatchesUserCodeOnly) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(Code);
  ASSERT_TRUE(AST);
  CallCounter Direct, ThroughUserCode;
  MatchFinder Outer;
  Outer.addMatcher(callExpr().bind("call"), &Direct);
  UserCodeMatchFinder UserCode(ThroughUserCode);
  UserCode.attach(Outer).addMatcher(callExpr().bind("call"), &ThroughUserCode);
  Outer.matchAST(AST->getASTContext());

  // The mock headers make calls of their own: a matcher registered with the
  // outer finder still sees them, so the scope was restored for it.
  EXPECT_GT(Direct.InSystemHeaders, 0u);
  EXPECT_EQ(ThroughUserCode.InSystemHeaders, 0u);
  EXPECT_EQ(ThroughUserCode.InUserCode, Direct.InUserCode);
  EXPECT_GE(ThroughUserCode.InUserCode, 3u);
}

TEST(UserCodeMatchFinderTest, RestoresTheTraversalScope) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(Code);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  std::vector<Decl *> Before = Context.getTraversalScope();
  CallCounter Counter;
  MatchFinder Outer;
  UserCodeMatchFinder UserCode(Counter);
  UserCode.attach(Outer).addMatcher(callExpr().bind("call"), &Counter);
  Outer.matchAST(Context);
  const auto After = Context.getTraversalScope(); // an ArrayRef since LLVM 21
  EXPECT_EQ(std::vector<Decl *>(After.begin(), After.end()), Before);
}

TEST(UserCodeMatchFinderTest, KeepsAScopeTheHostNarrowed) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(
      "#include <torch/torch.h>\n"
      "void helper() { torch::ones({1}).sum(); }\n"
      "int main() { helper(); }\n");
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  auto Main = match(functionDecl(hasName("main")).bind("main"), Context);
  ASSERT_EQ(Main.size(), 1u);
  std::vector<Decl *> OnlyMain{
      const_cast<FunctionDecl *>(Main[0].getNodeAs<FunctionDecl>("main"))};
  Context.setTraversalScope(OnlyMain);
  CallCounter Counter;
  MatchFinder Outer;
  UserCodeMatchFinder UserCode(Counter);
  UserCode.attach(Outer).addMatcher(callExpr().bind("call"), &Counter);
  Outer.matchAST(Context);
  // helper()'s two calls are outside the scope the host chose.
  EXPECT_EQ(Counter.InUserCode, 1u);
  const auto After = Context.getTraversalScope();
  EXPECT_EQ(std::vector<Decl *>(After.begin(), After.end()), OnlyMain);
}

TEST(UserCodeMatchFinderTest, OneStartAndEndAroundTheMatches) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(Code);
  ASSERT_TRUE(AST);
  CallCounter Counter;
  MatchFinder Outer;
  UserCodeMatchFinder UserCode(Counter);
  UserCode.attach(Outer).addMatcher(callExpr().bind("call"), &Counter);
  Outer.matchAST(AST->getASTContext());
  EXPECT_EQ(Counter.Events, (std::vector<std::string>{"start", "run", "end"}));
}

TEST(UserCodeMatchFinderTest, ProfiledUnderTheOwnersName) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(Code);
  ASSERT_TRUE(AST);
  llvm::StringMap<llvm::TimeRecord> Records;
  MatchFinder::MatchFinderOptions Options;
  Options.CheckProfiling.emplace(Records);
  MatchFinder Outer(std::move(Options));
  CallCounter Owner("libtorch-owner");
  UserCodeMatchFinder UserCode(Owner);
  EXPECT_EQ(UserCode.getID(), "libtorch-owner");
  UserCode.attach(Outer).addMatcher(callExpr().bind("call"), &Owner);
  Outer.matchAST(AST->getASTContext());
  EXPECT_EQ(Records.size(), 1u);
  EXPECT_EQ(Records.count("libtorch-owner"), 1u);
  EXPECT_GT(Owner.InUserCode, 0u);
}

} // namespace user_code_match_finder_test
