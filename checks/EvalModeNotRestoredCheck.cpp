//===--- EvalModeNotRestoredCheck.cpp - libtorch-tidy ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "EvalModeNotRestoredCheck.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "utils/SourceLines.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

/// How a call on the module \p Module is spelled: `->` for a holder, a
/// shared_ptr or a pointer, `.` for a module object; nothing when unsure.
std::optional<llvm::StringRef> memberAccess(const ValueDecl *Module) {
  QualType Type = Module->getType().getNonReferenceType();
  if (Type->isPointerType())
    return llvm::StringRef("->");
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record)
    return std::nullopt;
  if (analysis::isSameOrDerivedFrom(Record, names::ModuleHolder) ||
      analysis::hasQualifiedName(Record, names::SharedPtr))
    return llvm::StringRef("->");
  if (analysis::isSameOrDerivedFrom(Record, names::Module) ||
      analysis::isSameOrDerivedFrom(Record, names::JitModule))
    return llvm::StringRef(".");
  return std::nullopt;
}

} // namespace

void EvalModeNotRestoredCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // Template code is read as written: ModuleModes indexes no
  // instantiations, so a call in one names no module it knows.
  const auto ModeSwitch =
      cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("eval", "train"))),
                        unless(isInTemplateInstantiation()));
  Finder->addMatcher(ModeSwitch.bind("eval"), this);
}

void EvalModeNotRestoredCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Eval = Result.Nodes.getNodeAs<CXXMemberCallExpr>("eval");
  ASTContext &Context = *Result.Context;
  const SourceManager &SM = Context.getSourceManager();
  // A call spelled in a macro: the note would point into its expansion.
  if (!compat::beginOf(*Eval).isFileID())
    return;
  analysis::ModuleModes &Index = moduleModes(Context);
  std::optional<analysis::UnrestoredEval> Found = Index.unrestoredEval(Eval);
  if (!Found || !Reported.get(Context)
                     .insert({Found->Loop, Found->TrainingForward})
                     .second)
    return;
  const ValueDecl *Module = analysis::moduleOfMemberCall(Eval);
  std::string Name = Module->getNameAsString();
  {
    auto Diag = diag(Found->TrainingForward->getBeginLoc(),
                     "'%0' is trained in eval mode after the first "
                     "evaluation: the training loop switches it to eval() "
                     "and never back to train() before this forward pass, so "
                     "dropout stays off and batch norm normalizes with its "
                     "running statistics for the rest of training")
                << Name;
    // The fix-it: train() at the top of the loop body, where the module is
    // named (a variable declared before the loop, or a member of the class
    // whose method runs the loop). Anything else gets the note only.
    const auto *Body =
        dyn_cast_or_null<CompoundStmt>(utils::loopBody(Found->Loop));
    std::optional<llvm::StringRef> Access =
        Found->ModuleInLoop ? memberAccess(Found->ModuleInLoop) : std::nullopt;
    if (Body && !Body->body_empty() && Access &&
        Body->body_front()->getBeginLoc().isFileID() &&
        Found->ModuleInLoop->getIdentifier() &&
        Fixed.get(Context).insert(Body).second) {
      const Stmt *First = Body->body_front();
      std::string Call =
          Found->ModuleInLoop->getNameAsString() + Access->str() + "train();";
      std::optional<std::string> Indent =
          utils::indentationIfFirstOnLine(First->getBeginLoc(), SM);
      Diag << FixItHint::CreateInsertion(
          First->getBeginLoc(),
          Indent ? Call + utils::lineBreakAt(First->getBeginLoc(), SM) + *Indent
                 : Call + " ");
    }
  }
  diag(Eval->getExprLoc(),
       "'%0' is switched to eval mode here, on every iteration of the "
       "training loop; call '%0%1train()' at the top of the loop body or "
       "right after the evaluation",
       DiagnosticIDs::Note)
      << Name << memberAccess(Module).value_or("->");
}

} // namespace clang::tidy::libtorch
