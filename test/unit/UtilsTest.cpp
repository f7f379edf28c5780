//===--- UtilsTest.cpp - references and source lines unit tests -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ASTTestSupport.h"
#include "utils/FixIts.h"
#include "utils/References.h"
#include "utils/SourceLines.h"
#include "utils/SourceText.h"
#include "utils/UserCode.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::utils;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace utils_test {

constexpr char Code[] = "int use(int);\n"
                        "void f(int p) {\n"
                        "  int never = 1;\n"
                        "  use(never);\n"
                        "  use(never + p);\n"
                        "  int assigned = 1;\n"
                        "  assigned = 2;\n"
                        "  int compound = 1;\n"
                        "  (compound) += 2;\n"
                        "  int addressed = 1;\n"
                        "  int *q = &addressed;\n"
                        "  int cast = 1;\n"
                        "  (int &)cast = 3;\n"
                        "  auto inLambda = 1;\n"
                        "  [&] { inLambda = 4; }();\n"
                        "  use(1); use(2);\n"
                        "\tuse(3);  \n"
                        "}\n";

class UtilsTest : public ::testing::Test {
protected:
  void SetUp() override { AST = parseWithMockTorch(Code); }
  const VarDecl *variable(llvm::StringRef Name) {
    auto Found = match(varDecl(hasName(Name)).bind("v"), AST->getASTContext());
    EXPECT_FALSE(Found.empty()) << Name.str();
    return Found.empty() ? nullptr : Found[0].getNodeAs<VarDecl>("v");
  }
  const Stmt *body() {
    auto Found =
        match(functionDecl(hasName("f")).bind("f"), AST->getASTContext());
    return Found[0].getNodeAs<FunctionDecl>("f")->getBody();
  }
  const CallExpr *useOf(int Literal) {
    auto Found = match(callExpr(callee(functionDecl(hasName("use"))),
                                hasArgument(0, integerLiteral(equals(Literal))))
                           .bind("c"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u);
    return Found.empty() ? nullptr : Found[0].getNodeAs<CallExpr>("c");
  }
  const SourceManager &sm() { return AST->getSourceManager(); }
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(UtilsTest, ReferencesInSourceOrder) {
  std::vector<const DeclRefExpr *> Refs =
      referencesTo(variable("never"), body());
  ASSERT_EQ(Refs.size(), 2u);
  EXPECT_TRUE(sm().isBeforeInTranslationUnit(Refs[0]->getBeginLoc(),
                                             Refs[1]->getBeginLoc()));
  EXPECT_TRUE(mentions(body(), variable("p")));
  EXPECT_FALSE(mentions(useOf(1), variable("p")));
  EXPECT_TRUE(referencesTo(variable("never"), useOf(1)).empty());
}

TEST_F(UtilsTest, AssignedOrAddressTaken) {
  EXPECT_FALSE(isAssignedOrAddressTaken(variable("never"), body()));
  EXPECT_TRUE(isAssignedOrAddressTaken(variable("assigned"), body()));
  EXPECT_TRUE(isAssignedOrAddressTaken(variable("compound"), body()));
  EXPECT_TRUE(isAssignedOrAddressTaken(variable("addressed"), body()));
  EXPECT_TRUE(isAssignedOrAddressTaken(variable("inLambda"), body()));
  // A written cast on the left side counts only when the walk is told to
  // look through casts.
  EXPECT_FALSE(isAssignedOrAddressTaken(variable("cast"), body()));
  EXPECT_TRUE(isAssignedOrAddressTaken(variable("cast"), body(),
                                       ImplicitWrappers | ExplicitCast));
}

TEST_F(UtilsTest, LocalsDeclaredBefore) {
  const CallExpr *Use = useOf(1);
  const VarDecl *Never = variable("never");
  EXPECT_TRUE(localsDeclaredBefore(Use, Use->getBeginLoc(), sm()));
  // `use(never + p)` moved before `never` is declared would not compile.
  auto Sum = match(callExpr(hasArgument(0, binaryOperator())).bind("c"),
                   AST->getASTContext());
  ASSERT_EQ(Sum.size(), 1u);
  const auto *Call = Sum[0].getNodeAs<CallExpr>("c");
  EXPECT_FALSE(localsDeclaredBefore(Call, Never->getBeginLoc(), sm()));
  EXPECT_TRUE(localsDeclaredBefore(Call, Call->getBeginLoc(), sm()));
}

TEST_F(UtilsTest, Indentation) {
  const CallExpr *Alone = useOf(3);
  EXPECT_EQ(indentationOf(Alone->getBeginLoc(), sm()), "\t");
  EXPECT_EQ(indentationIfFirstOnLine(Alone->getBeginLoc(), sm()), "\t");
  EXPECT_EQ(indentationIfFirstOnLine(useOf(1)->getBeginLoc(), sm()), "  ");
  // `use(2)` follows another statement on its line.
  EXPECT_EQ(indentationIfFirstOnLine(useOf(2)->getBeginLoc(), sm()),
            std::nullopt);
  EXPECT_EQ(lineBreakAt(Alone->getBeginLoc(), sm()), "\n");
}

TEST_F(UtilsTest, WholeLines) {
  const CallExpr *Alone = useOf(3);
  // `\tuse(3);  ` is alone on its line: the range runs from the line break
  // before it to the one after it.
  SourceLocation End = Alone->getEndLoc().getLocWithOffset(2); // past `);`
  std::optional<CharSourceRange> Line =
      wholeLines(Alone->getBeginLoc(), End, sm());
  ASSERT_TRUE(Line);
  StringRef Text =
      Lexer::getSourceText(*Line, sm(), AST->getASTContext().getLangOpts());
  EXPECT_EQ(Text, "\n\tuse(3);  ");
  // `use(1); use(2);` share a line.
  EXPECT_FALSE(wholeLines(useOf(1)->getBeginLoc(),
                          useOf(1)->getEndLoc().getLocWithOffset(2), sm()));
  // Only spaces count as blank when told so.
  EXPECT_FALSE(wholeLines(Alone->getBeginLoc(), End, sm(), " "));
}

TEST(SourceLinesTest, CrLfLineBreak) {
  auto AST = parseWithMockTorch("void g();\r\nvoid f() {\r\n  g();\r\n}\r\n");
  auto Found = match(callExpr().bind("c"), AST->getASTContext());
  ASSERT_EQ(Found.size(), 1u);
  const auto *Call = Found[0].getNodeAs<CallExpr>("c");
  const SourceManager &SM = AST->getSourceManager();
  EXPECT_EQ(lineBreakAt(Call->getBeginLoc(), SM), "\r\n");
  SourceLocation End = Call->getEndLoc().getLocWithOffset(2);
  // The '\r' before the line break is not a blank unless named.
  EXPECT_FALSE(wholeLines(Call->getBeginLoc(), End, SM));
  EXPECT_TRUE(wholeLines(Call->getBeginLoc(), End, SM, " \t\r"));
}

constexpr char StatementsCode[] = "int mark(int);\n"
                                  "#define MARKED mark(4)\n"
                                  "void g(bool c) {\n"
                                  "  mark(1);\n"
                                  "  {\n"
                                  "    mark(2);\n"
                                  "  }\n"
                                  "  (mark(3));\n"
                                  "  MARKED;\n"
                                  "  if (c) mark(5);\n"
                                  "  int x = mark(6);\n"
                                  "  mark(7); mark(8);\n"
                                  "}\n";

/// The statements of StatementsCode and the edits that move them.
class FixItsTest : public ::testing::Test {
protected:
  void SetUp() override {
    AST = parseWithMockTorch(StatementsCode);
    Parents = std::make_unique<clang::tidy::libtorch::utils::UserCodeParents>(
        AST->getASTContext());
  }
  const CallExpr *mark(int Literal) {
    auto Found = match(callExpr(callee(functionDecl(hasName("mark"))),
                                hasArgument(0, integerLiteral(equals(Literal))))
                           .bind("c"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u);
    return Found.empty() ? nullptr : Found[0].getNodeAs<CallExpr>("c");
  }
  std::string text(CharSourceRange Range) {
    return Lexer::getSourceText(Range, AST->getSourceManager(),
                                AST->getASTContext().getLangOpts())
        .str();
  }
  const SourceManager &sm() { return AST->getSourceManager(); }
  const LangOptions &langOpts() { return AST->getASTContext().getLangOpts(); }
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<clang::tidy::libtorch::utils::UserCodeParents> Parents;
};

TEST_F(FixItsTest, InsertionAfterWhatIsWritten) {
  std::optional<FixItHint> After =
      insertionAfter(*mark(1), ".x", sm(), langOpts());
  ASSERT_TRUE(After);
  EXPECT_EQ(After->CodeToInsert, ".x");
  EXPECT_EQ(text(CharSourceRange::getCharRange(mark(1)->getBeginLoc(),
                                               After->RemoveRange.getBegin())),
            "mark(1)")
      << "right after the last token";
  EXPECT_FALSE(insertionAfter(*mark(4), ".x", sm(), langOpts()))
      << "a macro's expansion is not ours to edit";
  EXPECT_TRUE(isRewritable(mark(1)->getSourceRange()));
  EXPECT_FALSE(isRewritable(mark(4)->getSourceRange()));
  EXPECT_FALSE(isRewritable(SourceRange()));
}

TEST_F(FixItsTest, WholeStatements) {
  std::optional<WholeStatement> InBlock = wholeStatement(mark(1), *Parents);
  ASSERT_TRUE(InBlock);
  EXPECT_EQ(InBlock->Statement, mark(1));
  EXPECT_TRUE(isa<CompoundStmt>(InBlock->Parent));
  std::optional<WholeStatement> InIf = wholeStatement(mark(5), *Parents);
  ASSERT_TRUE(InIf);
  EXPECT_TRUE(isa<IfStmt>(InIf->Parent));
  EXPECT_FALSE(wholeStatement(mark(3), *Parents)) << "parenthesized";
  EXPECT_FALSE(wholeStatement(mark(6), *Parents)) << "an initializer";
}

TEST_F(FixItsTest, StatementMove) {
  // Alone on its line: the removal takes the line; the copy goes after
  // `mark(2);`, indented like it.
  auto Move = statementMove(*mark(1), *mark(2), sm(), langOpts());
  ASSERT_TRUE(Move);
  EXPECT_EQ(text(Move->first.RemoveRange), "\n  mark(1);");
  EXPECT_EQ(Move->second.CodeToInsert, "\n    mark(1);");
  EXPECT_EQ(text(CharSourceRange::getCharRange(
                mark(2)->getBeginLoc(), Move->second.RemoveRange.getBegin())),
            "mark(2);");
  // Sharing its line: only the statement goes.
  auto Shared = statementMove(*mark(7), *mark(2), sm(), langOpts());
  ASSERT_TRUE(Shared);
  EXPECT_EQ(text(Shared->first.RemoveRange), "mark(7);");
  // After a statement that does not start its line: no indentation to copy.
  EXPECT_FALSE(statementMove(*mark(1), *mark(8), sm(), langOpts()));
}

} // namespace utils_test

// Text from a summary file reaches a report only escaped: no byte of it
// can steer the terminal.
TEST(SourceTextTest, PrintableEscapesControlCharacters) {
  EXPECT_EQ(printable("item<float>()"), "item<float>()");
  EXPECT_EQ(printable("a\x1b"
                      "]0;t\x07"
                      "b"),
            "a\\x1b]0;t\\x07b");
  EXPECT_EQ(printable("line\nnext\r\t"), "line\\x0anext\\x0d\\x09");
  EXPECT_EQ(printable(std::string("nul\0del\x7f", 8)), "nul\\x00del\\x7f");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9") << "UTF-8 stays";
}
