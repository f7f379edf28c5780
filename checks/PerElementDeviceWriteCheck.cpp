//===--- PerElementDeviceWriteCheck.cpp - libtorch-tidy -------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "PerElementDeviceWriteCheck.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/ElementWrites.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

void PerElementDeviceWriteCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  const auto TensorClass =
      cxxRecordDecl(isSameOrDerivedFrom(names::TensorBase));
  // `t[i] = v`, `t[i] += v`, ...: operators of the tensor class.
  const auto ElementAssignment = cxxOperatorCallExpr(
      unless(isExpansionInSystemHeader()),
      hasAnyOverloadedOperatorName("=", "+=", "-=", "*=", "/="),
      callee(cxxMethodDecl(ofClass(TensorClass))));
  const auto ElementFill =
      cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                        callee(cxxMethodDecl(hasAnyName("fill_", "index_put_"),
                                             ofClass(TensorClass))));
  Finder->addMatcher(ElementAssignment.bind("write"), this);
  Finder->addMatcher(ElementFill.bind("write"), this);
}

void PerElementDeviceWriteCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *E = Result.Nodes.getNodeAs<Expr>("write");
  ASTContext &Context = *Result.Context;
  std::optional<analysis::ElementWrite> Write = analysis::elementWrite(E);
  if (!Write)
    return;
  // Only a tensor that certainly lives on a (maybe-)CUDA device: a host
  // buffer filled element by element is ordinary CPU code, and a tensor we
  // cannot place (a parameter, a member) is not judged.
  if (!analysis::isProvablyOnDevice(Write->Tensor, Context))
    return;
  const Stmt *Loop = analysis::indexLoop(*Write, parents(Context), Context);
  if (!Loop)
    return;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  // One write per training step (`losses[step] = ...`) is one launch among
  // the step's hundreds: not what this check is about.
  if (TU.Loops.isTrainingLoop(Loop))
    return;
  if (TU.Devices.isGpuFreeProgram())
    return;

  diag(E->getBeginLoc(),
       "one scalar is written into a GPU tensor per iteration of a host "
       "loop: each write is a separate kernel launch (and the host-side "
       "indexing that makes its view), so filling N elements costs N "
       "launches");
  diag(E->getBeginLoc(),
       "build the values on the host (a std::vector, then "
       "'torch::from_blob(values.data(), sizes)' or 'torch::tensor(values)') "
       "and copy them once with '.to(device)', or compute them with one "
       "tensor operation",
       DiagnosticIDs::Note);
  diag(Loop->getBeginLoc(), "the host loop over the index",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
