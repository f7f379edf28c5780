//===--- ElementWritesTest.cpp - scalar element write unit tests ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/ElementWrites.h"
#include "ASTTestSupport.h"
#include "utils/UserCode.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::elementWrite;
using clang::tidy::libtorch::analysis::indexLoop;
using clang::tidy::libtorch::utils::UserCodeParents;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace element_writes_test {

/// Parses the function bodies \p Bodies, each as
/// `void fN(torch::Tensor t, ...) { <Body> }`, and describes the statement
/// labelled `write:` in each: "none", or its number of indices and the line
/// of the loop over them. One parse for all of them keeps the test fast.
class ElementWritesTest : public ::testing::Test {
protected:
  std::vector<std::string> describe(const std::vector<std::string> &Bodies) {
    std::string Code = "#include <torch/torch.h>\n#include <vector>\n";
    for (size_t I = 0; I < Bodies.size(); ++I)
      Code += "void f" + std::to_string(I) +
              "(torch::Tensor t, torch::Tensor row, int64_t n,\n"
              "       const std::vector<float> &v) {\n" +
              Bodies[I] + "\n}\n";
    AST = libtorch_tidy::testing::parseWithMockTorch(Code);
    EXPECT_TRUE(AST);
    if (!AST)
      return {};
    Parents = std::make_unique<UserCodeParents>(AST->getASTContext());
    const SourceManager &SM = AST->getSourceManager();
    std::vector<std::string> Out;
    for (size_t I = 0; I < Bodies.size(); ++I) {
      auto Found = match(
          functionDecl(hasName("f" + std::to_string(I)),
                       hasDescendant(labelStmt(has(expr().bind("write"))))),
          AST->getASTContext());
      EXPECT_EQ(Found.size(), 1u);
      if (Found.empty()) {
        Out.push_back("unparsed");
        continue;
      }
      const auto *E = Found[0].getNodeAs<Expr>("write");
      auto Write = elementWrite(E->IgnoreImplicit());
      if (!Write) {
        Out.push_back("none");
        continue;
      }
      const Stmt *Loop = indexLoop(*Write, *Parents, AST->getASTContext());
      Out.push_back(
          std::to_string(Write->Indices.size()) +
          (Loop ? " loop@" +
                      std::to_string(
                          SM.getPresumedLoc(Loop->getBeginLoc()).getLine())
                : std::string(" no-loop")));
    }
    return Out;
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
};

TEST_F(ElementWritesTest, ScalarWritesAreRecognized) {
  EXPECT_EQ(
      describe({"write: t[0][1] = 1;", "write: t[0] += 0.5;",
                "write: t[0].fill_(2);", "write: t.index_put_({0, 1}, 3.0);"}),
      (std::vector<std::string>{"2 no-loop", "1 no-loop", "1 no-loop",
                                "1 no-loop"}));
}

TEST_F(ElementWritesTest, TensorRightSidesAreNotElementWrites) {
  EXPECT_EQ(describe({"write: t[0] = row;", "write: t.index_put_({0}, row);",
                      "write: t = row;", "write: t.fill_(1);"}), // no subscript
            (std::vector<std::string>{"none", "none", "none", "none"}));
}

TEST_F(ElementWritesTest, LoopsOverTheIndex) {
  // Lines: 1-2 includes; each function takes 2 lines of signature, its
  // body, and a closing line.
  EXPECT_EQ(describe({// f0: lines 3-8, the body from line 5.
                      "for (int64_t i = 0; i < n; ++i)\n"
                      "  for (int64_t j = 0; j < n; ++j)\n"
                      "    write: t[i][j] = 1;",
                      // f1: lines 9-14; the inner loop does not index the
                      // write, the outer one does.
                      "for (int64_t i = 0; i < n; ++i)\n"
                      "  for (int64_t j = 0; j < n; ++j)\n"
                      "    write: t[i] = 1;",
                      // f2: lines 15-22.
                      "int64_t k = 0;\n"
                      "while (k < n) {\n"
                      "  write: t[k] = 1;\n"
                      "  ++k;\n"
                      "}",
                      // f3: lines 23-28.
                      "int64_t k = 0;\n"
                      "for (float x : v)\n"
                      "  write: t[k++] = x;"}),
            (std::vector<std::string>{"2 loop@6", "1 loop@11", "1 loop@18",
                                      "1 loop@26"}));
}

TEST_F(ElementWritesTest, LoopsThatDoNotChangeTheIndex) {
  EXPECT_EQ(
      describe({"int64_t k = 3;\n"
                "for (int64_t i = 0; i < n; ++i)\n"
                "  write: t[k] = v[i];",
                // A lambda ends the walk: where it is called is not known.
                "for (int64_t i = 0; i < n; ++i) {\n"
                "  auto put = [&](int64_t j) { write: t[j] = 1; };\n"
                "  put(i);\n"
                "}"}),
      (std::vector<std::string>{"1 no-loop", "1 no-loop"}));
}

TEST_F(ElementWritesTest, SmallConstantLoopsDoNotCount) {
  EXPECT_EQ(describe({// f0: lines 3-7.
                      "for (int c = 0; c < 3; ++c)\n"
                      "  write: t[c] = v[c];",
                      // f1: lines 8-12.
                      "for (int c = 0; c <= 3; ++c)\n"
                      "  write: t[c] = v[c];",
                      // f2: lines 13-17.
                      "for (int c = 0; c < 5; ++c)\n"
                      "  write: t[c] = v[c];",
                      // f3: lines 18-23; an outer loop over another index of
                      // the same write still counts.
                      "for (int64_t b = 0; b < n; ++b)\n"
                      "  for (int c = 0; c < 4; ++c)\n"
                      "    write: t[b][c] = v[c];"}),
            (std::vector<std::string>{"1 no-loop", "1 no-loop", "1 loop@15",
                                      "2 loop@20"}));
}

} // namespace element_writes_test
