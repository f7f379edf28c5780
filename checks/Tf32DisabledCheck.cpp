//===--- Tf32DisabledCheck.cpp - libtorch-tidy -------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Tf32DisabledCheck.h"
#include "analysis/ProgramSetup.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

constexpr char Setting[] =
    "at::globalContext().setFloat32MatmulPrecision(\"high\");";
constexpr char Message[] =
    "float32 CUDA training without TF32: every matmul runs in full float32 "
    "precision and leaves the Tensor Cores of Ampere and newer GPUs idle; "
    "allow TF32 with 'setFloat32MatmulPrecision(\"high\")'";

} // namespace

void Tf32DisabledCheck::registerMatchers(MatchFinder *Finder) {
  // The first CUDA training loop of the TU carries the finding (check()).
  Finder->addMatcher(
      stmt(unless(isExpansionInSystemHeader()),
           anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt()))
          .bind("loop"),
      this);
}

void Tf32DisabledCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  analysis::CudaTrainingFacts &Cuda =
      CudaFacts.get(Context, trainingFacts(Context));
  llvm::ArrayRef<const Stmt *> Loops = Cuda.cudaTrainingLoops();
  if (Loops.empty() || Loops.front() != Loop)
    return;
  // The precision was chosen (either spelling, any value), or the model
  // already runs in half / bfloat16, where TF32 hardly matters.
  if (Cuda.callsContextMethod("setFloat32MatmulPrecision") ||
      Cuda.callsContextMethod("setAllowTF32CuBLAS") || Cuda.usesAutocast() ||
      Cuda.namesReducedPrecisionDtype())
    return;

  // A global setting belongs at the start of the program. Without `main` in
  // this TU (or where we cannot rewrite it) the user places it.
  std::optional<FixItHint> Fix;
  if (const FunctionDecl *Main = Cuda.mainDefinition();
      Main && analysis::declaresGlobalContext(Context))
    Fix = analysis::insertFirstInMain(*Main, Setting, *Result.SourceManager,
                                      getLangOpts());
  {
    auto Diag = diag(Loop->getBeginLoc(), Message);
    if (Fix)
      Diag << *Fix;
  }
  if (!Fix)
    diag(Loop->getBeginLoc(),
         "call '%0' once at the start of 'main', before the model is built",
         DiagnosticIDs::Note)
        << Setting;
}

} // namespace clang::tidy::libtorch
