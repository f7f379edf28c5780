//===--- LibTorchMatchersTest.cpp - LibTorch names and matchers -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/vocabulary/LibTorchMatchers.h"
#include "ASTTestSupport.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch;
using namespace clang::tidy::libtorch::analysis;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace libtorch_matchers_test {

const char Code[] = R"cpp(
#include <torch/torch.h>
struct Net : torch::nn::Module {};
struct Other { void to(torch::Device d); };
void f(torch::nn::Linear linear, std::shared_ptr<Net> net,
       torch::jit::Module scripted, Other other, torch::Device device) {
  auto t = torch::zeros({2});
  auto a = t.to(device);
  auto b = t.cuda();
  auto c = t.to(torch::kFloat);
  auto d = t.cpu();
  linear->to(device);
  net->to(device);
  scripted.to(device);
  other.to(device);
  torch::DeviceType kind = torch::kCUDA;
  auto options = torch::TensorOptions().device(device);
  auto joined = torch::cat({t, t});
}
)cpp";

class LibTorchMatchersTest : public ::testing::Test {
protected:
  void SetUp() override {
    AST = parseWithMockTorch(Code);
    ASSERT_TRUE(AST);
  }
  /// The source text of the main-file member calls \p Matcher accepts.
  std::vector<std::string>
  calls(const internal::Matcher<CXXMemberCallExpr> &Matcher) {
    std::vector<std::string> Found;
    const SourceManager &SM = AST->getASTContext().getSourceManager();
    for (const BoundNodes &Node :
         match(cxxMemberCallExpr(isExpansionInMainFile(), Matcher).bind("c"),
               AST->getASTContext())) {
      const auto *Call = Node.getNodeAs<CXXMemberCallExpr>("c");
      Found.push_back(
          Lexer::getSourceText(
              CharSourceRange::getTokenRange(Call->getSourceRange()), SM,
              AST->getASTContext().getLangOpts())
              .str());
    }
    return Found;
  }
  const VarDecl *variable(llvm::StringRef Name) {
    auto Found =
        match(varDecl(hasName(Name), isExpansionInMainFile()).bind("v"),
              AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Name.str();
    return Found.empty() ? nullptr : Found[0].getNodeAs<VarDecl>("v");
  }
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(LibTorchMatchersTest, TensorToOrCuda) {
  EXPECT_EQ(calls(matchers::tensorToOrCuda()),
            (std::vector<std::string>{"t.to(device)", "t.cuda()",
                                      "t.to(torch::kFloat)"}))
      << "cpu() and the to() of a module or another class are no copy";
}

TEST_F(LibTorchMatchersTest, ModuleTo) {
  EXPECT_EQ(
      calls(matchers::moduleTo()),
      (std::vector<std::string>{"linear->to(device)", "net->to(device)"}));
  EXPECT_EQ(calls(matchers::anyModuleTo()),
            (std::vector<std::string>{"linear->to(device)", "net->to(device)",
                                      "scripted.to(device)"}));
  EXPECT_FALSE(isModuleToCall(nullptr));
}

TEST_F(LibTorchMatchersTest, DeviceTypes) {
  EXPECT_TRUE(isDeviceLikeType(variable("device")->getType()));
  EXPECT_TRUE(isDeviceLikeType(variable("kind")->getType()));
  EXPECT_TRUE(isDeviceLikeType(variable("options")->getType()));
  EXPECT_FALSE(isDeviceLikeType(variable("t")->getType()));
  EXPECT_TRUE(isDeviceTypeEnum(variable("kind")->getType()));
  EXPECT_FALSE(isDeviceTypeEnum(variable("device")->getType()));
}

TEST_F(LibTorchMatchersTest, QualifiedNames) {
  const auto *Call =
      dyn_cast<CallExpr>(variable("joined")->getInit()->IgnoreImplicit());
  ASSERT_TRUE(Call);
  const FunctionDecl *Cat = Call->getDirectCallee();
  ASSERT_TRUE(Cat);
  EXPECT_TRUE(hasQualifiedName(Cat, "::at::cat") ||
              hasQualifiedName(Cat, "::torch::cat"));
  EXPECT_TRUE(hasAnyQualifiedName(Cat, names::JoinFunctions));
  EXPECT_FALSE(hasAnyQualifiedName(Cat, names::CudaQueries));
  EXPECT_TRUE(isInNamespace(Cat, names::TorchNamespace) ||
              isInNamespace(Cat, names::AtNamespace));
  // A namespace is matched whole: `::at` is not a prefix of `::aten`.
  EXPECT_FALSE(isInNamespace(Cat, "::a"));
  const auto *Net = variable("net")->getType()->getAsCXXRecordDecl();
  ASSERT_TRUE(Net);
  EXPECT_TRUE(hasQualifiedName(Net, names::SharedPtr));
}

} // namespace libtorch_matchers_test
