//===--- ZeroGradSetToNoneCheck.cpp - libtorch-tidy -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ZeroGradSetToNoneCheck.h"
#include "analysis/gradients/GradientOrder.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/CallArguments.h"
#include "utils/FixIts.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

/// True when the parentheses of \p Call hold nothing but whitespace, so that
/// an argument can be inserted before the closing one.
bool hasEmptyParens(const CXXMemberCallExpr *Call, const SourceManager &SM,
                    const LangOptions &LangOpts) {
  const auto *Member = dyn_cast<MemberExpr>(Call->getCallee());
  if (!Member)
    return false;
  const SourceRange Range(Member->getMemberLoc(), Call->getRParenLoc());
  if (!utils::isRewritable(Range))
    return false;
  StringRef Text =
      Lexer::getSourceText(CharSourceRange::getTokenRange(Range), SM, LangOpts);
  StringRef Args =
      Text.drop_front(Member->getMemberNameInfo().getAsString().size()).trim();
  return Args == "()";
}

} // namespace

void ZeroGradSetToNoneCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // Which class declares it is decided in check() (analysis::isZeroGradCall).
  Finder->addMatcher(
      cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                        callee(cxxMethodDecl(hasName("zero_grad"))))
          .bind("call"),
      this);
}

void ZeroGradSetToNoneCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  const CXXMethodDecl *Method = Call->getMethodDecl();
  if (!Method || !analysis::isZeroGradCall(Call))
    return;

  analysis::TrainingFacts &TU = trainingFacts(Context);
  // Zeroing once during setup costs nothing; only training code repeats it.
  if (!TU.Loops.isInsideTrainingLoop(Call) && !TU.Loops.perStep(Call))
    return;
  // A program that cannot use a GPU is not what this tool measures.
  if (TU.Devices.isGpuFreeProgram())
    return;

  const bool IsOptimizer =
      analysis::isSameOrDerivedFrom(Method->getParent(), names::Optimizer);
  const char *Owner = IsOptimizer ? "Optimizer" : "Module";
  const SourceLocation Loc =
      isa<MemberExpr>(Call->getCallee())
          ? cast<MemberExpr>(Call->getCallee())->getMemberLoc()
          : compat::beginOf(*Call);

  // LibTorch 1.13: `void Optimizer::zero_grad()` always writes zeros and has
  // no way to reset; the replacement is a loop, not an exact rewrite.
  if (Method->getNumParams() == 0) {
    {
      diag(Loc, "'%0::zero_grad()' writes zeros into every gradient on each "
                "step (LibTorch 1.x cannot reset them here); resetting them "
                "skips that memory pass and lets backward write fresh "
                "gradients")
          << Owner;
    }
    diag(Loc,
         "reset them instead: 'for (auto &group : optimizer.param_groups()) "
         "for (auto &p : group.params()) p.mutable_grad().reset();', or "
         "'model->zero_grad(/*set_to_none=*/true);' on the module the "
         "optimizer trains; LibTorch 2.x resets by default",
         DiagnosticIDs::Note);
    return;
  }

  const ParmVarDecl *Param = Method->getParamDecl(0);
  if (!Param->getType()->isBooleanType())
    return;
  const Expr *Arg = Call->getNumArgs() > 0 ? Call->getArg(0) : nullptr;
  const bool Defaulted = !Arg || isa<CXXDefaultArgExpr>(Arg);
  // The default as this LibTorch declares it: false in 1.13's Module, true
  // from 2.0 on for both classes.
  std::optional<bool> Default;
  if (Param->hasDefaultArg() && !Param->hasUninstantiatedDefaultArg() &&
      !Param->hasUnparsedDefaultArg())
    Default = utils::literalBool(Param->getDefaultArg());
  const bool DefaultResets = Default.value_or(false);
  std::optional<bool> SetToNone = Defaulted ? Default : utils::literalBool(Arg);
  // `zero_grad(flag)`: the caller decided; nothing to prove.
  if (!SetToNone || *SetToNone)
    return;

  FixItHint Fix;
  if (Defaulted) {
    // 1.13 Module::zero_grad(): pass the flag explicitly.
    if (hasEmptyParens(Call, SM, getLangOpts()))
      Fix = FixItHint::CreateInsertion(Call->getRParenLoc(),
                                       "/*set_to_none=*/true");
  } else if (utils::isRewritable(Arg->getSourceRange()) &&
             utils::isRewritable(Call->getSourceRange())) {
    if (DefaultResets)
      // 2.x: the default already resets; drop the explicit `false`.
      Fix = FixItHint::CreateRemoval(CharSourceRange::getCharRange(
          Arg->getBeginLoc(), Call->getRParenLoc()));
    else
      Fix = FixItHint::CreateReplacement(Arg->getSourceRange(),
                                         "/*set_to_none=*/true");
  }

  {
    auto Diag = diag(Loc, "'%0::zero_grad(%1)' writes zeros into every "
                          "gradient on each step; 'set_to_none' resets them "
                          "instead, skipping that memory pass")
                << Owner << (Defaulted ? "" : "false");
    if (!Fix.isNull())
      Diag << Fix;
  }
  if (Fix.isNull())
    diag(Loc,
         DefaultResets ? "call 'zero_grad()': this LibTorch resets by "
                         "default"
                       : "call 'zero_grad(/*set_to_none=*/true)'",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
