//===--- DataLoaderOptionsModelTest.cpp - analysis unit tests -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/data/DataLoaderOptionsModel.h"
#include "ASTTestSupport.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::analyzeLoaderOptions;
using clang::tidy::libtorch::analysis::findLoaderOptionsArgument;
using clang::tidy::libtorch::utils::UserCodeParents;
using Facts = clang::tidy::libtorch::analysis::LoaderOptionsFacts;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace data_loader_options_model_test {

const char Prelude[] = R"cpp(
#include <torch/torch.h>
struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t i) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 16; }
};
torch::data::DataLoaderOptions makeOptions();
void configure(torch::data::DataLoaderOptions &options);
)cpp";

/// Parses \p Body as the body of `void train(int n, Options given)` on the
/// mock headers and analyzes its (first) make_data_loader call.
class LoaderOptionsTest : public ::testing::Test {
protected:
  Facts analyze(const std::string &Statements) {
    std::string Code = std::string(Prelude) +
                       "void train(int n, torch::data::DataLoaderOptions "
                       "given) {\n  Points ds;\n" +
                       Statements + "\n}\n";
    AST = libtorch_tidy::testing::parseWithMockTorch(Code);
    if (!AST)
      return {};
    ASTContext &Context = AST->getASTContext();
    auto Functions = match(
        functionDecl(hasName("train"), hasBody(stmt().bind("body"))), Context);
    EXPECT_EQ(Functions.size(), 1u);
    if (Functions.empty())
      return {};
    const auto *Body = Functions.front().getNodeAs<Stmt>("body");
    auto Calls = match(
        findAll(callExpr(callee(functionDecl(hasName(
                             clang::tidy::libtorch::names::MakeDataLoader))))
                    .bind("call")),
        *Body, Context);
    EXPECT_FALSE(Calls.empty()) << "no make_data_loader call in:\n" << Code;
    if (Calls.empty())
      return {};
    const Expr *Options =
        findLoaderOptionsArgument(*Calls.front().getNodeAs<CallExpr>("call"));
    EXPECT_NE(Options, nullptr);
    Parents = std::make_unique<UserCodeParents>(Context);
    return analyzeLoaderOptions(Options, Body, Context, *Parents);
  }

  std::string text(const Expr *E) {
    if (!E)
      return "<null>";
    ASTContext &Context = AST->getASTContext();
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(E->getSourceRange()),
               Context.getSourceManager(), Context.getLangOpts())
        .str();
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
};

TEST_F(LoaderOptionsTest, BareBatchSizeIsAnImplicitConversion) {
  Facts F = analyze("auto loader = torch::data::make_data_loader("
                    "std::move(ds), 64);");
  EXPECT_EQ(F.Origin, Facts::OriginKind::BareBatchSize);
  EXPECT_EQ(F.Workers, Facts::WorkersKind::Unset);
  EXPECT_EQ(text(F.BatchSizeArg), "64");
  EXPECT_TRUE(F.hasNoWorkers());
}

TEST_F(LoaderOptionsTest, DefaultedOptions) {
  Facts F = analyze("auto loader = torch::data::make_data_loader("
                    "std::move(ds));");
  EXPECT_EQ(F.Origin, Facts::OriginKind::DefaultArgument);
  EXPECT_TRUE(F.hasNoWorkers());
}

TEST_F(LoaderOptionsTest, ChainWithoutWorkersCanBeExtended) {
  Facts F = analyze("auto loader = torch::data::make_data_loader("
                    "std::move(ds), torch::data::DataLoaderOptions()"
                    ".batch_size(64).drop_last(true));");
  EXPECT_EQ(F.Origin, Facts::OriginKind::SetterChain);
  EXPECT_EQ(F.Workers, Facts::WorkersKind::Unset);
  EXPECT_EQ(text(F.AppendAfter),
            "torch::data::DataLoaderOptions().batch_size(64).drop_last(true)");
}

TEST_F(LoaderOptionsTest, ChainFromBatchSizeConstructor) {
  Facts F = analyze("auto loader = torch::data::make_data_loader("
                    "std::move(ds), torch::data::DataLoaderOptions(32));");
  EXPECT_EQ(F.Origin, Facts::OriginKind::SetterChain);
  EXPECT_EQ(text(F.AppendAfter), "torch::data::DataLoaderOptions(32)");
}

TEST_F(LoaderOptionsTest, WorkerCounts) {
  EXPECT_EQ(analyze("auto l = torch::data::make_data_loader(std::move(ds), "
                    "torch::data::DataLoaderOptions().workers(0));")
                .Workers,
            Facts::WorkersKind::LiteralZero);
  EXPECT_EQ(analyze("auto l = torch::data::make_data_loader(std::move(ds), "
                    "torch::data::DataLoaderOptions().workers(2));")
                .Workers,
            Facts::WorkersKind::LiteralPositive);
  Facts FromVariable =
      analyze("auto l = torch::data::make_data_loader(std::move(ds), "
              "torch::data::DataLoaderOptions().workers(n));");
  EXPECT_EQ(FromVariable.Workers, Facts::WorkersKind::NonLiteral);
  EXPECT_FALSE(FromVariable.hasNoWorkers());
}

TEST_F(LoaderOptionsTest, LastWorkersSetterWins) {
  Facts F = analyze("auto l = torch::data::make_data_loader(std::move(ds), "
                    "torch::data::DataLoaderOptions().workers(2).batch_size("
                    "8).workers(0));");
  EXPECT_EQ(F.Workers, Facts::WorkersKind::LiteralZero);
  EXPECT_EQ(text(F.WorkersArg), "0");
}

TEST_F(LoaderOptionsTest, LocalVariableWithLaterSetter) {
  Facts F = analyze("auto options = torch::data::DataLoaderOptions()"
                    ".batch_size(8);\n  options.workers(2);\n"
                    "  auto l = torch::data::make_data_loader(std::move(ds), "
                    "options);");
  EXPECT_EQ(F.Workers, Facts::WorkersKind::LiteralPositive);
  ASSERT_NE(F.Variable, nullptr);
  EXPECT_EQ(F.Variable->getName(), "options");
}

TEST_F(LoaderOptionsTest, LocalVariableWithoutWorkers) {
  Facts F = analyze("auto options = torch::data::DataLoaderOptions()"
                    ".batch_size(8);\n"
                    "  auto l = torch::data::make_data_loader(std::move(ds), "
                    "options);");
  EXPECT_EQ(F.Origin, Facts::OriginKind::SetterChain);
  EXPECT_TRUE(F.hasNoWorkers());
  EXPECT_EQ(text(F.AppendAfter),
            "torch::data::DataLoaderOptions().batch_size(8)");
}

TEST_F(LoaderOptionsTest, DirectlyInitializedVariableHasNoAppendPoint) {
  Facts F = analyze("torch::data::DataLoaderOptions options(8);\n"
                    "  auto l = torch::data::make_data_loader(std::move(ds), "
                    "options);");
  EXPECT_TRUE(F.hasNoWorkers());
  EXPECT_EQ(F.AppendAfter, nullptr);
  ASSERT_NE(F.Variable, nullptr);
}

TEST_F(LoaderOptionsTest, WhatWeCannotSeeIsOpaque) {
  EXPECT_EQ(analyze("auto l = torch::data::make_data_loader(std::move(ds), "
                    "makeOptions());")
                .Origin,
            Facts::OriginKind::Opaque);
  EXPECT_EQ(analyze("auto l = torch::data::make_data_loader(std::move(ds), "
                    "given);")
                .Origin,
            Facts::OriginKind::Opaque);
  EXPECT_EQ(analyze("auto l = torch::data::make_data_loader(std::move(ds), "
                    "makeOptions().batch_size(4));")
                .Origin,
            Facts::OriginKind::Opaque);
  Facts Escaped =
      analyze("torch::data::DataLoaderOptions options(8);\n"
              "  configure(options);\n"
              "  auto l = torch::data::make_data_loader(std::move(ds), "
              "options);");
  EXPECT_EQ(Escaped.Origin, Facts::OriginKind::Opaque);
  EXPECT_FALSE(Escaped.hasNoWorkers());
}

} // namespace data_loader_options_model_test
