//===--- CudaTrainingFactsTest.cpp - CUDA-training facts unit tests -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/program/CudaTrainingFacts.h"
#include "ASTTestSupport.h"
#include "analysis/program/ProgramSetup.h"
#include "analysis/vocabulary/ConvolutionModules.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Core/Replacement.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::analysis;
using clang::tidy::libtorch::utils::UserCodeParents;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace cuda_training_facts_test {

const char Prelude[] = R"cpp(
#include <torch/torch.h>
struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};
void train(Net &model, torch::optim::SGD &optimizer, torch::Tensor x) {
  for (int epoch = 0; epoch < 3; ++epoch) {      // epoch loop
    for (int step = 0; step < 10; ++step) {      // step loop
      optimizer.zero_grad();
      model.forward(x).sum().backward();
      optimizer.step();
    }
  }
}
void evaluate(Net &model, torch::Tensor x) {
  for (int i = 0; i < 10; ++i)                   // eval loop
    model.forward(x);
}
)cpp";

/// The flags that select the mock's LibTorch \p Major: its 2.x mode models
/// LibTorch 2.15, which requires C++20.
std::vector<std::string> mockVersionArgs(const char *Major) {
  std::vector<std::string> Args = {
      std::string("-DLIBTORCH_MOCK_VERSION_MAJOR=") + Major};
  if (std::string(Major) != "1")
    Args.push_back("-std=c++20");
  return Args;
}

class CudaTrainingFactsTest : public ::testing::Test {
protected:
  void parse(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(Prelude + Code);
    ASSERT_TRUE(AST);
    Parents = std::make_unique<UserCodeParents>(AST->getASTContext());
    Training = std::make_unique<TrainingFacts>(AST->getASTContext(), *Parents,
                                               llvm::ArrayRef<std::string>());
    Facts =
        std::make_unique<CudaTrainingFacts>(AST->getASTContext(), *Training);
  }
  /// The line of each CUDA training loop.
  std::vector<unsigned> loopLines() {
    std::vector<unsigned> Lines;
    const SourceManager &SM = AST->getSourceManager();
    for (const Stmt *Loop : Facts->cudaTrainingLoops())
      Lines.push_back(SM.getSpellingLineNumber(Loop->getBeginLoc()));
    return Lines;
  }
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
  std::unique_ptr<TrainingFacts> Training;
  std::unique_ptr<CudaTrainingFacts> Facts;
};

// Line 8 of the snippet is the step loop of train(); the epoch loop (7) and
// the evaluation loop (16) are never CUDA training loops.
const unsigned StepLoopLine = 8;

TEST_F(CudaTrainingFactsTest, MaybeCudaDeviceInMainMakesTheStepLoopCuda) {
  parse(R"cpp(
int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model.to(device);
}
)cpp");
  EXPECT_EQ(loopLines(), std::vector<unsigned>{StepLoopLine});
  EXPECT_NE(Facts->mainDefinition(), nullptr);
}

TEST_F(CudaTrainingFactsTest, DeviceStringAndCudaCallAreEvidence) {
  parse("int main() { torch::Device device(\"cuda:1\"); }");
  EXPECT_EQ(loopLines(), std::vector<unsigned>{StepLoopLine});
  parse("void f(torch::Tensor t) { t.cuda(); }");
  EXPECT_EQ(loopLines(), std::vector<unsigned>{StepLoopLine});
}

TEST_F(CudaTrainingFactsTest, CpuOnlyProgramHasNoCudaTraining) {
  parse(R"cpp(
int main() {
  torch::Device device(torch::kCPU);
  Net model;
  model.to(device);
}
)cpp");
  EXPECT_TRUE(loopLines().empty());
}

TEST_F(CudaTrainingFactsTest, DeviceParameterCountsOnlyWithoutMain) {
  parse(R"cpp(
void train_on(Net &model, torch::optim::SGD &optimizer, torch::Device device) {
  for (int step = 0; step < 10; ++step) {
    optimizer.zero_grad();
    model.forward(torch::ones({2}, device)).sum().backward();
    optimizer.step();
  }
}
)cpp");
  EXPECT_EQ(loopLines(), std::vector<unsigned>{21});
  // With main here, the device it picks is visible: the CPU only.
  parse(R"cpp(
void train_on(Net &model, torch::optim::SGD &optimizer, torch::Device device) {
  for (int step = 0; step < 10; ++step) {
    optimizer.zero_grad();
    model.forward(torch::ones({2}, device)).sum().backward();
    optimizer.step();
  }
}
int main() { torch::Device device(torch::kCPU); }
)cpp");
  EXPECT_TRUE(loopLines().empty());
}

TEST_F(CudaTrainingFactsTest, NoDeviceAnywhereIsNoEvidence) {
  parse("");
  EXPECT_TRUE(loopLines().empty());
  EXPECT_EQ(Facts->mainDefinition(), nullptr);
}

TEST_F(CudaTrainingFactsTest, PrecisionAndContextFacts) {
  parse("void f(Net &m) { m.to(torch::kBFloat16); }");
  EXPECT_TRUE(Facts->namesReducedPrecisionDtype());
  EXPECT_FALSE(Facts->usesAutocast());
  parse("void f(torch::Tensor t) { t.to(at::ScalarType::Half); }");
  EXPECT_TRUE(Facts->namesReducedPrecisionDtype());
  parse("auto o = torch::TensorOptions().dtype(torch::kFloat16);");
  EXPECT_TRUE(Facts->namesReducedPrecisionDtype());
  parse("auto o = torch::TensorOptions().dtype(torch::kFloat32);");
  EXPECT_FALSE(Facts->namesReducedPrecisionDtype());

  parse(R"cpp(
void setup() {
  at::globalContext().setBenchmarkCuDNN(false);
  at::Context &context = at::globalContext();
  context.setFloat32MatmulPrecision(at::Float32MatmulPrecision::HIGH);
}
)cpp");
  EXPECT_TRUE(Facts->callsContextMethod("setBenchmarkCuDNN"));
  EXPECT_TRUE(Facts->callsContextMethod("setFloat32MatmulPrecision"));
  EXPECT_FALSE(Facts->callsContextMethod("setAllowTF32CuBLAS"));
  EXPECT_FALSE(Facts->buildsConvolutionModules());

  parse("torch::nn::Conv2d conv{nullptr};");
  EXPECT_TRUE(Facts->buildsConvolutionModules());
  parse("auto o = torch::nn::ConvTranspose2dOptions(1, 2, 3);");
  EXPECT_TRUE(Facts->buildsConvolutionModules());
}

TEST(CudaTrainingFactsAutocastTest, BothAutocastApis) {
  for (const char *Major : {"1", "2"}) {
    std::string Call = std::string(Major) == "1"
                           ? "at::autocast::set_enabled(true);"
                           : "at::autocast::set_autocast_enabled(at::kCUDA, "
                             "true);";
    auto AST = libtorch_tidy::testing::parseWithMockTorch(
        std::string(Prelude) + "#include <ATen/autocast_mode.h>\nvoid f() { " +
            Call + " }",
        mockVersionArgs(Major));
    ASSERT_TRUE(AST);
    UserCodeParents Parents(AST->getASTContext());
    TrainingFacts Training(AST->getASTContext(), Parents, {});
    CudaTrainingFacts Facts(AST->getASTContext(), Training);
    EXPECT_TRUE(Facts.usesAutocast()) << Call;
  }
}

/// `main` after the fix-its of \p Slots are applied, each inserting
/// "setup<N>();" (or "setup();" for a single slot).
std::string applyFirstInMain(const std::string &Main,
                             std::vector<SetupSlot> Slots = {
                                 SetupSlot::AfterBrace}) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(
      "#include <torch/torch.h>\n" + Main);
  if (!AST)
    return "<parse error>";
  ASTContext &Context = AST->getASTContext();
  auto Found =
      match(functionDecl(isMain(), isDefinition()).bind("main"), Context);
  if (Found.empty())
    return "<no main>";
  const SourceManager &SM = AST->getSourceManager();
  tooling::Replacements Fixes;
  for (size_t I = 0; I < Slots.size(); ++I) {
    std::string Statement =
        Slots.size() == 1 ? "setup();" : "setup" + std::to_string(I) + "();";
    std::optional<FixItHint> Fix =
        insertFirstInMain(*Found[0].getNodeAs<FunctionDecl>("main"), Statement,
                          Slots[I], SM, Context.getLangOpts());
    if (!Fix)
      return "<none>";
    // As clang-tidy's --fix: two insertions at one offset conflict.
    if (llvm::Error Conflict = Fixes.add(tooling::Replacement(
            SM, Fix->RemoveRange, Fix->CodeToInsert, Context.getLangOpts()))) {
      llvm::consumeError(std::move(Conflict));
      return "<conflict>";
    }
  }
  llvm::Expected<std::string> Text = tooling::applyAllReplacements(
      SM.getBufferData(SM.getMainFileID()), Fixes);
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return "<not applicable>";
  }
  return Text->substr(Text->find("int main"));
}

TEST(InsertFirstInMainTest, IndentsLikeTheBody) {
  EXPECT_EQ(applyFirstInMain("int main() {\n    return 0;\n}\n"),
            "int main() {\n    setup();\n    return 0;\n}\n");
  EXPECT_EQ(applyFirstInMain("int main(int argc, char **argv) {}\n"),
            "int main(int argc, char **argv) {\n  setup();}\n");
  EXPECT_EQ(applyFirstInMain("int main() { return 0; }\n"),
            "int main() {\n  setup(); return 0; }\n");
}

TEST(InsertFirstInMainTest, TwoSlotsApplyTogether) {
  const std::vector<SetupSlot> Both = {SetupSlot::AfterBrace,
                                       SetupSlot::BeforeFirstStatement};
  EXPECT_EQ(applyFirstInMain("int main() {\n    return 0;\n}\n", Both),
            "int main() {\n    setup0();\n    setup1();\n    return 0;\n}\n");
  EXPECT_EQ(
      applyFirstInMain("int main() {\n  // why\n  return 0;\n}\n", Both),
      "int main() {\n  setup0();\n  // why\n  setup1();\n  return 0;\n}\n");
  // The first statement after a directive: the line after the brace's.
  EXPECT_EQ(applyFirstInMain("int main() {\n#ifdef X\n  return 1;\n#endif\n"
                             "  return 0;\n}\n",
                             Both),
            "int main() {\n  setup0();\n  setup1();\n#ifdef X\n  return 1;\n"
            "#endif\n  return 0;\n}\n");
  // All on the brace's line: both slots fall back to the brace and
  // conflict, which --fix reports (run it again).
  EXPECT_EQ(applyFirstInMain("int main() { return 0; }\n", Both), "<conflict>");
  // Not into a preprocessor branch: the setting would hold in one
  // configuration only.
  EXPECT_EQ(applyFirstInMain("int main() {\n#ifdef X\n  return 1;\n#endif\n"
                             "  return 0;\n}\n",
                             {SetupSlot::BeforeFirstStatement}),
            "int main() {\n  setup();\n#ifdef X\n  return 1;\n#endif\n"
            "  return 0;\n}\n");
  EXPECT_EQ(applyFirstInMain("int main() {\n    return 0;\n}\n",
                             {SetupSlot::BeforeFirstStatement}),
            "int main() {\n    setup();\n    return 0;\n}\n");
}

TEST(InsertFirstInMainTest, NotIntoTryBlocksOrMacros) {
  EXPECT_EQ(applyFirstInMain("int main() try { return 0; } catch (...) { "
                             "return 1; }\n"),
            "<none>");
  EXPECT_EQ(applyFirstInMain("#define BODY { return 0; }\nint main() BODY\n"),
            "<none>");
}

TEST(ProgramSetupTest, VersionAndGlobalContext) {
  for (const char *Major : {"1", "2"}) {
    auto AST = libtorch_tidy::testing::parseWithMockTorch(
        "#include <torch/torch.h>\n", mockVersionArgs(Major));
    ASSERT_TRUE(AST);
    std::optional<LibTorchVersion> Version =
        libTorchVersion(AST->getPreprocessor());
    ASSERT_TRUE(Version);
    EXPECT_EQ(Version->Major, std::string(Major) == "1" ? 1U : 2U);
    EXPECT_EQ(Version->Minor, std::string(Major) == "1" ? 13U : 15U);
    EXPECT_TRUE(declaresGlobalContext(AST->getASTContext()));
  }
  auto Plain = libtorch_tidy::testing::parseWithMockTorch("int x;");
  ASSERT_TRUE(Plain);
  EXPECT_FALSE(libTorchVersion(Plain->getPreprocessor()));
  EXPECT_FALSE(declaresGlobalContext(Plain->getASTContext()));
}

/// The bias state of the convolution built by the initializer of `conv`.
std::optional<ConvBias> biasOfConv(const std::string &Init) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(
      "#include <torch/torch.h>\nnamespace nn = torch::nn;\n"
      "void f(bool flag, nn::Conv2dOptions options) {\n  " +
      Init + "\n}\n");
  if (!AST)
    return std::nullopt;
  const Expr *Value = libtorch_tidy::testing::initializerOf(*AST, "conv");
  std::optional<ConvConstruction> Conv = convConstruction(Value);
  if (!Conv)
    return std::nullopt;
  return Conv->Bias;
}

TEST(ConvolutionModulesTest, BiasOfConstruction) {
  EXPECT_EQ(biasOfConv("nn::Conv2d conv(nn::Conv2dOptions(1, 2, 3));"),
            ConvBias::Default);
  EXPECT_EQ(
      biasOfConv(
          "auto conv = nn::Conv2d(nn::Conv2dOptions(1, 2, 3).stride(2));"),
      ConvBias::Default);
  EXPECT_EQ(biasOfConv("nn::Conv2d conv(1, 2, 3);"), ConvBias::Default);
  EXPECT_EQ(
      biasOfConv("nn::Conv2d conv(nn::Conv2dOptions(1, 2, 3).bias(true));"),
      ConvBias::ExplicitTrue);
  EXPECT_EQ(
      biasOfConv(
          "nn::Conv2d conv(nn::Conv2dOptions(1, 2, 3).bias(false).stride(1));"),
      ConvBias::Off);
  EXPECT_EQ(
      biasOfConv("nn::Conv2d conv(nn::Conv2dOptions(1, 2, 3).bias(flag));"),
      ConvBias::Unknown);
  EXPECT_EQ(biasOfConv("nn::Conv2d conv(options);"), ConvBias::Unknown);
  EXPECT_EQ(biasOfConv("nn::Linear conv(1, 2);"), std::nullopt);
}

} // namespace cuda_training_facts_test
