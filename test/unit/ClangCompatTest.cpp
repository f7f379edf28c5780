//===--- ClangCompatTest.cpp - One spelling for every LLVM major tests ----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Each wrapper of support/clang-compat/ClangCompat.h does what the API it
// replaces did, on the major it is built against: a wrapper that compiled
// but answered otherwise (a positional bool taking another's place, a
// canonical type where a written one was meant) would pass a build and
// change findings silently.
//
//===----------------------------------------------------------------------===//

#include "clang-compat/ClangCompat.h"
#include "ASTTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;

namespace clang_compat_test {

TEST(ClangCompatTest, TypeOfClassIsTheClassItself) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCode(R"cpp(
    namespace n { struct Base { virtual void f() = 0; };
                  struct Derived : Base { void f() override {} }; }
  )cpp");
  ASSERT_TRUE(AST);
  auto Found =
      match(cxxRecordDecl(hasName("::n::Derived"), isDefinition()).bind("r"),
            AST->getASTContext());
  ASSERT_EQ(Found.size(), 1u);
  const auto *Record = Found[0].getNodeAs<CXXRecordDecl>("r");
  const QualType Type = compat::typeOfClass(*Record);
  ASSERT_FALSE(Type.isNull());
  EXPECT_EQ(Type->getAsCXXRecordDecl(), Record);
  EXPECT_FALSE(Type.hasQualifiers());
}

TEST(ClangCompatTest, OverloadedOperatorCallsBeginAtTheirFirstOperand) {
  // `model(x)` begins at `model`, `a + b` at `a`, whatever static type the
  // call is seen through (LLVM 22's CallExpr::getBeginLoc() says `(`/`+`).
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCode(R"cpp(
    struct V { V operator+(const V &) const { return *this; } };
    struct F { int operator()(int x) const { return x; } };
    int g(F model, V a, V b) { a + b; return model(1); }
  )cpp");
  ASSERT_TRUE(AST);
  const SourceManager &SM = AST->getSourceManager();
  auto Calls = match(cxxOperatorCallExpr().bind("c"), AST->getASTContext());
  ASSERT_EQ(Calls.size(), 2u);
  std::vector<unsigned> Columns;
  for (const BoundNodes &Bound : Calls) {
    const auto *Call = Bound.getNodeAs<CallExpr>("c");
    EXPECT_EQ(compat::beginOf(*Call), Call->getSourceRange().getBegin());
    Columns.push_back(SM.getSpellingColumnNumber(compat::beginOf(*Call)));
  }
  llvm::sort(Columns);
  // `a` and `model` on line 4 of the snippet.
  EXPECT_EQ(Columns, (std::vector<unsigned>{32, 46}));
}

TEST(ClangCompatTest, TraversalOfTypeLocsReachesQualifiers) {
  // A visitor that overrides TraverseTypeLoc through the wrapper still
  // visits what the base class visits: the qualifier's namespace.
  struct Visitor : RecursiveASTVisitor<Visitor> {
    using Base = RecursiveASTVisitor<Visitor>;
    unsigned TypeLocs = 0;
    std::vector<std::string> Namespaces;
    bool TraverseTypeLoc(TypeLoc Loc, bool TraverseQualifier = true) {
      ++TypeLocs;
      return compat::traverseTypeLocAs<Base>(*this, Loc, TraverseQualifier);
    }
    bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc Loc) {
      if (Loc)
        Namespaces.push_back("qualified");
      return Base::TraverseNestedNameSpecifierLoc(Loc);
    }
  };
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCode("namespace n { struct S {}; } n::S Value;");
  ASSERT_TRUE(AST);
  Visitor V;
  V.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  EXPECT_GT(V.TypeLocs, 0u);
  EXPECT_EQ(V.Namespaces, std::vector<std::string>{"qualified"});
}

TEST(ClangCompatTest, DriverArgumentsAsClangReadsThem) {
  // clang's own options are known, a clang-cl one (/Zi) is an input file
  // to the clang driver, and a made-up option is unknown.
  std::vector<const char *> Args = {"-std=c++20", "-fno-made-up-option", "-O2"};
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed =
      compat::parseClangDriverArguments(Args, MissingIndex, MissingCount);
  std::vector<std::string> Unknown, Known;
  for (const llvm::opt::Arg *A : Parsed)
    (compat::isUnknownOrUnsupportedOption(A->getOption()) ? Unknown : Known)
        .push_back(A->getAsString(Parsed));
  EXPECT_EQ(Unknown, std::vector<std::string>{"-fno-made-up-option"});
  EXPECT_EQ(Known, (std::vector<std::string>{"-std=c++20", "-O2"}));
  EXPECT_EQ(MissingCount, 0u);
}

TEST(ClangCompatTest, EnabledChecksAreClangTidysDefaults) {
  tidy::ClangTidyOptions Options = tidy::ClangTidyOptions::getDefaults();
  // (The static analyzer's checks are clang-tidy's own: no module of
  // another library needs to be linked for them.)
  Options.Checks = "-*,clang-analyzer-core.DivideZero";
  EXPECT_TRUE(llvm::is_contained(compat::enabledCheckNames(Options),
                                 "clang-analyzer-core.DivideZero"));
  Options.Checks = "-*";
  EXPECT_TRUE(compat::enabledCheckNames(Options).empty());
  // The alpha analyzer checks stay off, as clang-tidy's default.
  Options.Checks = "-*,clang-analyzer-alpha.*";
  EXPECT_TRUE(compat::enabledCheckNames(Options).empty());
  const compat::ChecksAndOptionKeys All = compat::allChecksAndOptionKeys();
  EXPECT_TRUE(All.Checks.contains("clang-analyzer-core.DivideZero"));
  EXPECT_FALSE(All.Checks.contains("clang-analyzer-alpha.core.Conversion"));
}

TEST(ClangCompatTest, RemovedArgsRoundTrip) {
  tidy::ClangTidyOptions Options;
  EXPECT_EQ(compat::removedArgsOf(Options), nullptr);
  compat::setRemovedArgs(Options, {"-Werror"});
  const std::vector<std::string> *Removed = compat::removedArgsOf(Options);
  if (!compat::HasRemovedArgs) {
    EXPECT_EQ(Removed, nullptr);
    return;
  }
  ASSERT_NE(Removed, nullptr);
  EXPECT_EQ(*Removed, std::vector<std::string>{"-Werror"});
}

TEST(ClangCompatTest, MakeAbsoluteAgainstADirectory) {
  llvm::SmallString<64> Path("src/a.cpp");
  compat::makeAbsolute("/work/tree", Path);
  EXPECT_EQ(Path.str(), "/work/tree/src/a.cpp");
  llvm::SmallString<64> Already("/abs/b.cpp");
  compat::makeAbsolute("/work/tree", Already);
  EXPECT_EQ(Already.str(), "/abs/b.cpp");
}

TEST(ClangCompatTest, TidyContextDiagnosticsOutliveNothing) {
  // The engine attached to a context reports through the consumer given,
  // and the context's options (owned by the context since LLVM 21) stay
  // valid for as long as the engine is used.
  tidy::ClangTidyOptions Options = tidy::ClangTidyOptions::getDefaults();
  Options.Checks = "-*";
  auto Context =
      compat::newTidyContext(std::make_unique<tidy::DefaultOptionsProvider>(
                                 tidy::ClangTidyGlobalOptions(), Options),
                             compat::TidyContextFlags{});
  tidy::ClangTidyDiagnosticConsumer Consumer(*Context);
  std::unique_ptr<DiagnosticsEngine> Engine =
      compat::attachDiagnosticsEngine(*Context, Consumer);
  EXPECT_EQ(Engine->getClient(), &Consumer);
  EXPECT_FALSE(Engine->getDiagnosticOptions().ShowColors);
}

} // namespace clang_compat_test
