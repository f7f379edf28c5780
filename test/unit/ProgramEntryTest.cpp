//===--- ProgramEntryTest.cpp - what main runs, unit tests ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/program/ProgramEntry.h"
#include "ASTTestSupport.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::ProgramEntry;
using clang::tidy::libtorch::utils::UserCodeParents;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace program_entry_test {

class ProgramEntryTest : public ::testing::Test {
protected:
  void parse(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(
        "#include <torch/torch.h>\nvoid probe(int id);\n" + Code);
    ASSERT_TRUE(AST);
    Parents = std::make_unique<UserCodeParents>(AST->getASTContext());
    Entry = std::make_unique<ProgramEntry>(AST->getASTContext(), *Parents);
  }

  /// probe(N) calls, one per N (template instantiations looked through).
  const CallExpr *probe(int Id) {
    auto Found = match(callExpr(callee(functionDecl(hasName("probe"))),
                                hasArgument(0, integerLiteral(equals(Id))))
                           .bind("probe"),
                       AST->getASTContext());
    EXPECT_FALSE(Found.empty()) << "probe(" << Id << ")";
    return Found.empty() ? nullptr : Found[0].getNodeAs<CallExpr>("probe");
  }
  bool reaches(int Id) { return Entry->reaches(*probe(Id)); }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
  std::unique_ptr<ProgramEntry> Entry;
};

TEST_F(ProgramEntryTest, CallsFromMain) {
  parse(R"cpp(
void leaf() { probe(1); }
void middle() { leaf(); }
void unused() { probe(2); }
struct Trainer {
  Trainer() { probe(3); }
  void fit() { probe(4); }
  void never() { probe(5); }
};
template <typename T> void fit_all(T t) { probe(6); }
void worker() { probe(7); }
void start(void (*f)()) { f(); }
int main() {
  probe(0);
  middle();
  Trainer trainer;
  trainer.fit();
  fit_all(1);
  start(worker);
  auto inside = [] { probe(8); };
  inside();
})cpp");
  ASSERT_NE(Entry->main(), nullptr);
  EXPECT_TRUE(reaches(0)) << "main itself";
  EXPECT_TRUE(reaches(1)) << "two calls deep";
  EXPECT_FALSE(reaches(2)) << "never called";
  EXPECT_TRUE(reaches(3)) << "a constructor";
  EXPECT_TRUE(reaches(4)) << "a member function";
  EXPECT_FALSE(reaches(5));
  EXPECT_TRUE(reaches(6)) << "a template, through its instantiation";
  EXPECT_TRUE(reaches(7)) << "a function handed on by name";
  EXPECT_TRUE(reaches(8)) << "a lambda written in main";
}

TEST_F(ProgramEntryTest, NoMain) {
  parse(R"cpp(
void train() { probe(1); })cpp");
  EXPECT_EQ(Entry->main(), nullptr);
  EXPECT_FALSE(reaches(1));
}

TEST_F(ProgramEntryTest, SettingLoopIsTheFirstThatMainRuns) {
  parse(R"cpp(
void header_loop() { for (int i = 0; i < 2; ++i) probe(1); }
void own_loop() { for (int i = 0; i < 2; ++i) probe(2); }
int main() { own_loop(); })cpp");
  auto Loops = match(forStmt(isExpansionInMainFile()).bind("loop"),
                     AST->getASTContext());
  ASSERT_EQ(Loops.size(), 2u);
  const Stmt *First = Loops[0].getNodeAs<Stmt>("loop");
  const Stmt *Second = Loops[1].getNodeAs<Stmt>("loop");
  if (AST->getSourceManager().isBeforeInTranslationUnit(Second->getBeginLoc(),
                                                        First->getBeginLoc()))
    std::swap(First, Second);
  std::vector<const Stmt *> Both = {First, Second};
  EXPECT_EQ(Entry->settingLoop(Both), Second) << "main runs only own_loop";
  std::vector<const Stmt *> OnlyFirst = {First};
  EXPECT_EQ(Entry->settingLoop(OnlyFirst), First)
      << "no loop that main runs: the first";
  EXPECT_EQ(Entry->settingLoop({}), nullptr);
}

} // namespace program_entry_test
