//===--- ASTTestSupport.h - Parsing snippets on mock headers ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_TEST_UNIT_ASTTESTSUPPORT_H
#define LIBTORCH_TIDY_TEST_UNIT_ASTTESTSUPPORT_H

#include "preamble/IncludePrefix.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <map>
#include <memory>
#include <string>

namespace libtorch_tidy::testing {

/// The PCH of the system includes \p Code starts with, for \p Args, built
/// once per test process with the CLI's own prefix rule
/// (driver/preamble/IncludePrefix.h); empty if there is none. The unit
/// tests parse hundreds of snippets that all start with the mock
/// <torch/torch.h>: each then costs a tenth of a full parse. The analyses
/// see the same AST either way (test/driver/parse-equality.test shows it
/// for every check test).
inline std::string mockPrefixPch(const std::string &Code,
                                 const std::vector<std::string> &Args) {
  struct Built {
    llvm::SmallString<128> Directory;
    std::map<std::string, std::string> Pchs;
    ~Built() {
      if (!Directory.empty())
        llvm::sys::fs::remove_directories(Directory);
    }
  };
  static Built Cache;
  const preamble::IncludePrefix Prefix = preamble::leadingSystemIncludes(Code);
  if (Prefix.empty())
    return "";
  std::string Key = Prefix.headerText();
  for (const std::string &Arg : Args)
    Key += Arg + '\0';
  auto [It, New] = Cache.Pchs.try_emplace(Key);
  if (!New)
    return It->second;
  if (Cache.Directory.empty() &&
      llvm::sys::fs::createUniqueDirectory("unit-test-pch", Cache.Directory))
    return "";
  const std::string Name = std::to_string(Cache.Pchs.size());
  llvm::SmallString<128> Header(Cache.Directory), Pch(Cache.Directory);
  llvm::sys::path::append(Header, Name + ".h");
  llvm::sys::path::append(Pch, Name + ".pch");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Header, EC);
    if (EC)
      return "";
    OS << Prefix.headerText();
  }
  std::vector<std::string> Command = {"clang-tool"};
  Command.insert(Command.end(), Args.begin(), Args.end());
  Command.insert(Command.end(), {"-x", "c++-header", std::string(Header), "-o",
                                 std::string(Pch)});
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(clang::FileSystemOptions()));
  clang::tooling::ToolInvocation Build(
      Command, std::make_unique<clang::GeneratePCHAction>(), Files.get());
  if (Build.run() && llvm::sys::fs::exists(Pch))
    It->second = std::string(Pch);
  return It->second;
}

/// Parses \p Code (which includes <torch/torch.h> itself) against the mock
/// LibTorch headers; fails the test on compile errors.
inline std::unique_ptr<clang::ASTUnit>
parseWithMockTorch(const std::string &Code,
                   std::vector<std::string> ExtraArgs = {}) {
  std::vector<std::string> Args = {
      "-std=c++17", "-isystem", LIBTORCH_TIDY_MOCK_INCLUDE_DIR,
      "-resource-dir=" LIBTORCH_TIDY_CLANG_RESOURCE_DIR};
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  const std::string Pch = mockPrefixPch(Code, Args);
  if (!Pch.empty())
    Args.insert(Args.end(), {"-include-pch", Pch});
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
