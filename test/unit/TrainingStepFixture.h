//===--- TrainingStepFixture.h - Snippets around a training step -*- C++
//-*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the analysis tests of training steps share: a prelude with a module,
// an optimizer and a member function that runs one step (`Step::once()`),
// and the `probe(N)` calls that a test asks questions about, parsed on the
// mock headers with the training-loop model built over them.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_TEST_UNIT_TRAININGSTEPFIXTURE_H
#define LIBTORCH_TIDY_TEST_UNIT_TRAININGSTEPFIXTURE_H

#include "ASTTestSupport.h"
#include "analysis/steps/TrainingLoopModel.h"
#include "utils/UserCode.h"
#include <memory>
#include <string>
#include <vector>

namespace libtorch_tidy::testing {

/// `probe(int)` and a one-step `Step` after the mock <torch/torch.h>.
inline std::string
trainingStepPrelude(const std::string &MoreDeclarations = "") {
  return R"cpp(
#include <torch/torch.h>
)cpp" + MoreDeclarations +
         R"cpp(
void probe(int id);
struct Step {
  torch::nn::Linear model{4, 2};
  torch::optim::SGD optimizer{model->parameters(), 0.1};
  torch::Tensor x = torch::zeros({8, 4});
  void once() {
    auto loss = model(x).sum();
    loss.backward();
    optimizer.step();
  }
};
)cpp";
}

class TrainingStepFixture : public ::testing::Test {
protected:
  /// Parses the prelude and \p Code, and builds the training-loop model
  /// (with \p Macros as the project's periodic-guard macros).
  void parseStep(const std::string &Prelude, const std::string &Code,
                 std::vector<std::string> Macros = {}) {
    AST = parseWithMockTorch(Prelude + Code);
    ASSERT_TRUE(AST);
    Parents = std::make_unique<clang::tidy::libtorch::utils::UserCodeParents>(
        AST->getASTContext());
    Loops =
        std::make_unique<clang::tidy::libtorch::analysis::TrainingLoopModel>(
            AST->getASTContext(), *Parents, Macros);
  }

  /// The one `probe(Id)` call of the snippet.
  const clang::CallExpr *probe(int Id) {
    using namespace clang::ast_matchers;
    auto Found = match(callExpr(callee(functionDecl(hasName("probe"))),
                                hasArgument(0, integerLiteral(equals(Id))))
                           .bind("probe"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << "probe(" << Id << ")";
    return Found.empty() ? nullptr
                         : Found[0].getNodeAs<clang::CallExpr>("probe");
  }

  std::unique_ptr<clang::ASTUnit> AST;
  std::unique_ptr<clang::tidy::libtorch::utils::UserCodeParents> Parents;
  std::unique_ptr<clang::tidy::libtorch::analysis::TrainingLoopModel> Loops;
};

} // namespace libtorch_tidy::testing

#endif // LIBTORCH_TIDY_TEST_UNIT_TRAININGSTEPFIXTURE_H
