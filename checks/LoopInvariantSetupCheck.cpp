//===--- LoopInvariantSetupCheck.cpp - libtorch-tidy ----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LoopInvariantSetupCheck.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchMatchers.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

/// A module or optimizer, held directly, by a ModuleHolder (`Net`) or by a
/// `std::shared_ptr`: what `torch::load` reads once, as setup.
bool isModelOrOptimizer(QualType Type) {
  const auto *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  if (analysis::isSameOrDerivedFrom(Record, names::Module) ||
      analysis::isSameOrDerivedFrom(Record, names::Optimizer) ||
      analysis::isSameOrDerivedFrom(Record, names::JitModule) ||
      analysis::isSameOrDerivedFrom(Record, names::ModuleHolder))
    return true;
  const auto *Pointer = dyn_cast<ClassTemplateSpecializationDecl>(Record);
  if (!Pointer || !analysis::hasQualifiedName(Pointer, names::SharedPtr) ||
      Pointer->getTemplateArgs().size() < 1 ||
      Pointer->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  const auto *Held =
      Pointer->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  return Held && (analysis::isSameOrDerivedFrom(Held, names::Module) ||
                  analysis::isSameOrDerivedFrom(Held, names::Optimizer));
}

} // namespace

void LoopInvariantSetupCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  const auto OptimizerClass =
      cxxRecordDecl(isSameOrDerivedFrom(names::Optimizer));
  const auto ModuleTo = cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                                          analysis::matchers::anyModuleTo());
  // Copies and moves of an optimizer build nothing new.
  const auto NewOptimizer =
      cxxConstructExpr(unless(isExpansionInSystemHeader()),
                       hasDeclaration(cxxConstructorDecl(
                           ofClass(OptimizerClass), unless(isCopyConstructor()),
                           unless(isMoveConstructor()))));
  // `std::make_shared<torch::optim::Adam>(...)` constructs it in a system
  // header: match the user's call instead.
  const auto MakeOptimizer =
      callExpr(unless(isExpansionInSystemHeader()),
               callee(functionDecl(
                   hasAnyName(names::MakeShared, names::MakeUnique),
                   hasTemplateArgument(
                       0, refersToType(hasUnqualifiedDesugaredType(
                              recordType(hasDeclaration(OptimizerClass))))))));
  const auto MakeLoader =
      callExpr(unless(isExpansionInSystemHeader()),
               callee(functionDecl(hasName(names::MakeDataLoader))));
  const auto Load = callExpr(unless(isExpansionInSystemHeader()),
                             callee(functionDecl(hasName(names::Load))));
  const auto ContextSetter = cxxMemberCallExpr(
      unless(isExpansionInSystemHeader()),
      callee(cxxMethodDecl(ofClass(hasName(names::Context)),
                           matchesName("::set[A-Za-z0-9_]*$"))));

  Finder->addMatcher(ModuleTo.bind("to"), this);
  Finder->addMatcher(NewOptimizer.bind("optimizer"), this);
  Finder->addMatcher(MakeOptimizer.bind("optimizer"), this);
  Finder->addMatcher(MakeLoader.bind("loader"), this);
  Finder->addMatcher(Load.bind("load"), this);
  Finder->addMatcher(ContextSetter.bind("setter"), this);
}

void LoopInvariantSetupCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const Expr *Setup = nullptr;
  SourceLocation Loc;
  std::string Message;
  if (const auto *To = Result.Nodes.getNodeAs<CXXMemberCallExpr>("to")) {
    Setup = To;
    Loc = To->getExprLoc();
    Message = "'to()' on a module runs on every training step and walks "
              "every parameter and buffer each time; move the model once, "
              "before the loop";
  } else if (const auto *Optimizer =
                 Result.Nodes.getNodeAs<Expr>("optimizer")) {
    Setup = Optimizer;
    Loc = Optimizer->getBeginLoc();
    Message = "an optimizer constructed on every training step is allocated "
              "again and loses its state (momentum, running averages) at "
              "each step; construct it once, before the loop";
  } else if (const auto *Loader = Result.Nodes.getNodeAs<CallExpr>("loader")) {
    Setup = Loader;
    Loc = compat::beginOf(*Loader);
    Message = "'make_data_loader' on every training step builds a new loader "
              "(and starts its worker threads) for each batch; make it once, "
              "before the loop";
  } else if (const auto *Load = Result.Nodes.getNodeAs<CallExpr>("load")) {
    // Loading tensors per step is reading data, not setup.
    if (Load->getNumArgs() == 0 ||
        !isModelOrOptimizer(Load->getArg(0)->getType()))
      return;
    Setup = Load;
    Loc = compat::beginOf(*Load);
    Message = "'torch::load' of a model or optimizer on every training step "
              "reads it from disk again and again; load it once, before the "
              "loop";
  } else if (const auto *Setter =
                 Result.Nodes.getNodeAs<CXXMemberCallExpr>("setter")) {
    Setup = Setter;
    Loc = Setter->getExprLoc();
    Message = "'" + Setter->getMethodDecl()->getNameAsString() +
              "()' changes a global setting on every training step that "
              "only needs to be set once; set it before the loop";
  }
  if (!Setup)
    return;

  analysis::TrainingFacts &TU = trainingFacts(Context);
  std::optional<analysis::StepPath> Path = TU.Loops.perStep(Setup);
  if (!Path)
    return;
  // A program that cannot use a GPU moves nothing: `to()` is cheap there.
  if (Result.Nodes.getNodeAs<Expr>("to") && TU.Devices.isGpuFreeProgram())
    return;
  diag(Loc, Message);
  diag(Path->StepLoop->getBeginLoc(), "hoist it above this training loop",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
