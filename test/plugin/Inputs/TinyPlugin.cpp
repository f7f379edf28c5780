//===--- TinyPlugin.cpp - A clang-tidy plugin of another project ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// test/plugin/load-into-cli.test loads this into clang-tidy and into the
// CLI: one module ("tiny") with one check and one option, as any LLVM 22
// clang-tidy plugin has them.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang::ast_matchers;

namespace clang::tidy::tiny {

/// Flags functions with the name of the Name option ("bad").
class FunctionNameCheck : public ClangTidyCheck {
public:
  FunctionNameCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context), Forbidden(Options.get("Name", "bad")) {}

  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "Name", Forbidden);
  }
  void registerMatchers(MatchFinder *Finder) override {
    Finder->addMatcher(functionDecl(hasName(Forbidden)).bind("function"), this);
  }
  void check(const MatchFinder::MatchResult &Result) override {
    const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
    diag(Function->getLocation(), "function named '%0'") << Forbidden;
  }

private:
  const std::string Forbidden;
};

class TinyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<FunctionNameCheck>("tiny-function-name");
  }
};

static ClangTidyModuleRegistry::Add<TinyModule> Registration("tiny-module",
                                                             "A test plugin");

} // namespace clang::tidy::tiny
