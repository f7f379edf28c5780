//===--- TensorCreatedOffDeviceCheck.h - libtorch-tidy ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_TENSORCREATEDOFFDEVICECHECK_H
#define LIBTORCH_TIDY_CHECKS_TENSORCREATEDOFFDEVICECHECK_H

#include "LibTorchCheck.h"
#include "analysis/devices/ConstantHostData.h"
#include "analysis/devices/HostDtypes.h"
#include "analysis/devices/HostTensorSources.h"
#include "analysis/steps/CallerPaths.h"
#include "utils/SourceText.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::libtorch {

/// Finds tensors made on the host and copied to the GPU right away, on
/// every training step or evaluation batch (analysis/steps/BatchScope.h,
/// through calls as deep as analysis/steps/CallerPaths.h follows them): a
/// factory that can make them on the device (written before the copy, or
/// returned by a helper whose result is copied), a constant host table rebuilt
/// as a tensor (analysis/devices/ConstantHostData.h), a narrow host tensor
/// widened before the copy (analysis/devices/HostDtypes.h); and a factory's
/// host tensor never copied, handed to an operation with a tensor on the device
/// (analysis/devices/HostTensorSources.h). Where that runs once (setup,
/// constructors, once per epoch) it costs nothing worth a finding.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-tensor-created-off-device.md
class TensorCreatedOffDeviceCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }

  /// Which host-made tensor \p Copy moves to the GPU, if any, and whether
  /// it does so on every training step or evaluation batch.
  void handle(const CXXMemberCallExpr &Copy, ASTContext &Context);
  /// `factory(...).to(device)`, the factory written before the copy.
  void diagnoseFactory(const CallExpr &Factory, const CXXMemberCallExpr &Copy,
                       const analysis::StepPath &Path, bool PerStep,
                       ASTContext &Context);
  /// `helper(...).to(device)`, where the helper returns \p Factory.
  void diagnoseReturnedFactory(const CallExpr &Factory, const CallExpr &Helper,
                               const CXXMemberCallExpr &Copy,
                               const analysis::StepPath &Path, bool PerStep,
                               ASTContext &Context);
  void diagnoseWidening(const analysis::HostWidening &Widening,
                        const CXXMemberCallExpr &Copy,
                        const analysis::StepPath &Path, bool PerStep,
                        ASTContext &Context);
  /// Whether \p Factory's host tensor meets a tensor on the device,
  /// uncopied, on every training step or evaluation batch.
  void handle(const CallExpr &Factory, ASTContext &Context);
  void diagnoseHostOperand(const analysis::HostOperand &Operand,
                           const analysis::StepPath &Path, bool PerStep,
                           ASTContext &Context);
  /// A call, on every step or evaluation batch, of a function defined in
  /// another unit whose summary makes a host tensor and copies it.
  void handleCallElsewhere(const CallExpr &Call, ASTContext &Context);
  /// \p E as written, for a message.
  std::string spelled(const Expr *E, const ASTContext &Context) const {
    return utils::spelledText(E, Context.getSourceManager(), getLangOpts());
  }
  /// The method called and its arguments, as written: `to(device)`.
  std::string spelled(const CXXMemberCallExpr &Call,
                      const ASTContext &Context) const {
    return utils::tokenRangeText(
        cast<MemberExpr>(Call.getCallee())->getMemberLoc(), Call.getRParenLoc(),
        Context.getSourceManager(), getLangOpts());
  }
  /// The note that says how to pass the device when no fix-it can.
  void notePassDevice(const CallExpr &Factory, llvm::StringRef FactoryName,
                      llvm::StringRef Device, bool DropCopy);
  void diagnoseConstantTable(const analysis::ConstantHostTable &Table,
                             const CXXMemberCallExpr &Copy,
                             const analysis::StepPath &Path, bool PerStep,
                             ASTContext &Context);

  /// Which functions the steps and evaluation batches call, per TU.
  utils::PerUnit<analysis::BatchCallPaths> Callers{
      unitScope(), [this](ASTContext &Context) {
        return std::make_unique<analysis::BatchCallPaths>(
            batchScope(Context), trainingFacts(Context).Loops,
            analysis::StepEntries::Accepted);
      }};
  /// Factories in helpers already reported (a helper called and copied at
  /// several sites is one finding).
  utils::PerUnit<llvm::DenseSet<const CallExpr *>> ReportedFactories{
      unitScope()};
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_TENSORCREATEDOFFDEVICECHECK_H
