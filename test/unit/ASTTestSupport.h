//===--- ASTTestSupport.h - Parsing snippets on mock headers ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_TEST_UNIT_ASTTESTSUPPORT_H
#define LIBTORCH_TIDY_TEST_UNIT_ASTTESTSUPPORT_H

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <memory>
#include <string>

namespace libtorch_tidy::testing {

/// Parses \p Code (which includes <torch/torch.h> itself) against the mock
/// LibTorch headers; fails the test on compile errors.
inline std::unique_ptr<clang::ASTUnit>
parseWithMockTorch(const std::string &Code,
                   std::vector<std::string> ExtraArgs = {}) {
  std::vector<std::string> Args = {
      "-std=c++17", "-isystem", LIBTORCH_TIDY_MOCK_INCLUDE_DIR,
      "-resource-dir=" LIBTORCH_TIDY_CLANG_RESOURCE_DIR};
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(Code, Args, "snippet.cpp");
  EXPECT_TRUE(AST);
  if (AST)
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
  return AST;
}

/// The initializer of the variable named \p Name (first one found).
inline const clang::Expr *initializerOf(clang::ASTUnit &AST,
                                        llvm::StringRef Name) {
  using namespace clang::ast_matchers;
  auto Found =
      match(varDecl(hasName(Name), hasInitializer(expr().bind("init"))),
            AST.getASTContext());
  EXPECT_FALSE(Found.empty()) << "no variable " << Name.str();
  return Found.empty() ? nullptr : Found[0].getNodeAs<clang::Expr>("init");
}

} // namespace libtorch_tidy::testing

#endif // LIBTORCH_TIDY_TEST_UNIT_ASTTESTSUPPORT_H
