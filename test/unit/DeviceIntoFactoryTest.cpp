//===--- DeviceIntoFactoryTest.cpp - a copy's device given to its factory -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Which copies go to a GPU (DeviceFacts), and how the device of
// `factory(...).to(device)` moves into the factory (DeviceIntoFactory).
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/DeviceIntoFactory.h"
#include "ASTTestSupport.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceVariables.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::analysis;
using libtorch_tidy::testing::initializerOf;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace device_into_factory_test {

const char Copies[] = R"cpp(
#include <torch/torch.h>
void copies(torch::Device device, torch::Tensor x, at::Generator generator) {
  auto cpu = torch::Device(torch::kCPU);
  auto options = torch::TensorOptions().dtype(torch::kFloat);
  auto toCuda = torch::randn({2}).cuda();
  auto toDevice = torch::randn({2}).to(device);
  auto toKind = torch::randn({2}).to(torch::kCUDA);
  auto toCpu = torch::randn({2}).to(cpu);
  auto toDtype = torch::randn({2}).to(torch::kHalf);
  auto toOther = torch::randn({2}).to(x);
  auto withOptions = torch::zeros({2}, options).to(device);
  auto withDtype = torch::zeros({2}, torch::kFloat).to(device);
  auto withGrad = torch::zeros({2}, torch::TensorOptions().requires_grad(true)).to(device);
  auto converting = torch::randn({2}).to(device, torch::kHalf);
  auto forced = torch::randn({2}).to(torch::TensorOptions().device(device), false, true);
  auto drawn = torch::randn({2}, generator).to(device);
}
)cpp";

/// The copy that initializes \p Name, and the factory it copies.
struct CopyOfFactory {
  const CXXMemberCallExpr *Copy = nullptr;
  const CallExpr *Factory = nullptr;
};

CopyOfFactory copyIn(ASTUnit &AST, llvm::StringRef Name) {
  CopyOfFactory Found;
  Found.Copy = dyn_cast_or_null<CXXMemberCallExpr>(
      initializerOf(AST, Name)->IgnoreImplicit());
  EXPECT_TRUE(Found.Copy) << Name.str();
  if (Found.Copy)
    Found.Factory = dyn_cast<CallExpr>(
        Found.Copy->getImplicitObjectArgument()->IgnoreImplicit());
  EXPECT_TRUE(Found.Factory) << Name.str();
  return Found;
}

TEST(DeviceIntoFactoryTest, CopiesToTheGpu) {
  auto AST = parseWithMockTorch(Copies);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  auto Gpu = [&](llvm::StringRef Name) {
    return copiesToGpu(*copyIn(*AST, Name).Copy, Context);
  };
  EXPECT_TRUE(Gpu("toCuda"));
  EXPECT_TRUE(Gpu("toDevice")) << "a device we cannot see may be the GPU";
  EXPECT_TRUE(Gpu("toKind"));
  EXPECT_FALSE(Gpu("toCpu"));
  EXPECT_FALSE(Gpu("toDtype"));
  EXPECT_FALSE(Gpu("toOther"));
  EXPECT_TRUE(isDeviceTypeEnum(
      asWritten(copyIn(*AST, "toKind").Copy->getArg(0))->getType()));
  EXPECT_FALSE(isDeviceTypeEnum(
      asWritten(copyIn(*AST, "toDevice").Copy->getArg(0))->getType()));
}

TEST(DeviceIntoFactoryTest, Generators) {
  auto AST = parseWithMockTorch(Copies);
  ASSERT_TRUE(AST);
  auto Takes = [&](llvm::StringRef Name) {
    const CallExpr *Factory = copyIn(*AST, Name).Factory;
    return takesGenerator(*Factory, *Factory->getDirectCallee());
  };
  EXPECT_TRUE(Takes("drawn"));
  EXPECT_FALSE(Takes("toDevice"));
}

TEST(DeviceIntoFactoryTest, TheEditThatAddsTheDevice) {
  auto AST = parseWithMockTorch(Copies);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  const LangOptions &LangOpts = Context.getLangOpts();
  auto Into = [&](llvm::StringRef Name) {
    CopyOfFactory Found = copyIn(*AST, Name);
    return deviceIntoFactory(*Found.Factory, *Found.Copy, Context, LangOpts);
  };
  // The factory call as the edit leaves it.
  auto Edited = [&](llvm::StringRef Name) -> std::string {
    CopyOfFactory Found = copyIn(*AST, Name);
    FactoryDevice Device =
        deviceIntoFactory(*Found.Factory, *Found.Copy, Context, LangOpts);
    if (!Device.AddDevice)
      return "";
    const SourceManager &SM = Context.getSourceManager();
    const FixItHint &Hint = *Device.AddDevice;
    std::string Call =
        Lexer::getSourceText(
            CharSourceRange::getTokenRange(Found.Factory->getSourceRange()), SM,
            LangOpts)
            .str();
    unsigned Begin = SM.getFileOffset(Found.Factory->getBeginLoc());
    unsigned From = SM.getFileOffset(Hint.RemoveRange.getBegin()) - Begin;
    unsigned To = SM.getFileOffset(Hint.RemoveRange.getEnd()) - Begin;
    if (Hint.RemoveRange.isTokenRange())
      To += Lexer::MeasureTokenLength(Hint.RemoveRange.getEnd(), SM, LangOpts);
    return Call.replace(From, To - From, Hint.CodeToInsert);
  };

  EXPECT_EQ(Into("toCuda").DeviceText, "torch::kCUDA");
  EXPECT_EQ(Into("toDevice").DeviceText, "device");
  EXPECT_EQ(Edited("toCuda"), "torch::randn({2}, torch::kCUDA)")
      << "after the size";
  EXPECT_EQ(Edited("toDevice"), "torch::randn({2}, device)");
  EXPECT_EQ(Edited("withOptions"), "torch::zeros({2}, options.device(device))");
  EXPECT_EQ(Edited("withDtype"),
            "torch::zeros({2}, torch::TensorOptions(torch::kFloat).device("
            "device))");
  EXPECT_FALSE(Into("withGrad").AddDevice) << "a leaf tensor";
  EXPECT_FALSE(Into("converting").AddDevice) << "the copy converts as well";
  EXPECT_FALSE(Into("forced").AddDevice)
      << "options as the destination, a forced copy";
  EXPECT_EQ(Into("converting").DeviceText, "device") << "named all the same";
}

} // namespace device_into_factory_test
