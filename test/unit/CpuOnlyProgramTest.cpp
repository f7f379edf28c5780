//===--- CpuOnlyProgramTest.cpp - a program held to the CPU ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/program/CpuOnlyProgram.h"
#include "ASTTestSupport.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::analysis;
using clang::tidy::libtorch::utils::UserCodeParents;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace cpu_only_program_test {

const char Training[] = R"cpp(
#include <torch/torch.h>
void train(torch::nn::Linear model, torch::optim::SGD &optimizer) {
  torch::Device placesBoth(torch::kCPU);
  torch::Device placesModule = torch::kCPU;
  torch::Device placesTensors("cpu");
  auto unused = torch::Device(torch::kCPU);
  torch::Device indexed(torch::kCPU, 0);
  model->to(placesBoth);
  model->to(placesModule);
  auto x = torch::zeros({2, 4}, placesBoth);
  auto y = torch::zeros({2, 4}).to(placesTensors);
  for (int i = 0; i < 3; ++i) {
    optimizer.zero_grad();
    model(x).sum().backward();
    optimizer.step();
  }
}
)cpp";

const VarDecl *variable(ASTUnit &AST, llvm::StringRef Name) {
  auto Found = match(varDecl(hasName(Name)).bind("v"), AST.getASTContext());
  EXPECT_EQ(Found.size(), 1u) << Name.str();
  return Found.empty() ? nullptr : Found[0].getNodeAs<VarDecl>("v");
}

TEST(CpuOnlyProgramTest, WhatADeviceVariablePlaces) {
  auto AST = parseWithMockTorch(Training);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  UserCodeParents Parents(Context);
  auto Uses = [&](llvm::StringRef Name) {
    DeviceUses Found = usesOfDevice(variable(*AST, Name), Context, Parents);
    return std::make_pair(Found.PlacesModule, Found.PlacesTensors);
  };
  EXPECT_EQ(Uses("placesBoth"), std::make_pair(true, true));
  EXPECT_EQ(Uses("placesModule"), std::make_pair(true, false));
  EXPECT_EQ(Uses("placesTensors"), std::make_pair(false, true));
  EXPECT_EQ(Uses("unused"), std::make_pair(false, false));

  auto Calls = match(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("to"))),
                                       isExpansionInMainFile())
                         .bind("to"),
                     Context);
  int ModuleTo = 0;
  for (const BoundNodes &Call : Calls)
    ModuleTo += isModuleToCall(Call.getNodeAs<CXXMemberCallExpr>("to"));
  EXPECT_EQ(Calls.size(), 3u);
  EXPECT_EQ(ModuleTo, 2) << "a tensor's to() is not a module's";
}

TEST(CpuOnlyProgramTest, TheCpuAsWritten) {
  auto AST = parseWithMockTorch(Training);
  ASSERT_TRUE(AST);
  const SourceManager &SM = AST->getSourceManager();
  auto Token = [&](llvm::StringRef Name) -> std::string {
    const Expr *Found = cpuToken(variable(*AST, Name)->getInit());
    if (!Found)
      return "";
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(Found->getSourceRange()), SM,
               AST->getASTContext().getLangOpts())
        .str();
  };
  EXPECT_EQ(Token("placesBoth"), "torch::kCPU");
  EXPECT_EQ(Token("placesModule"), "torch::kCPU");
  EXPECT_EQ(Token("placesTensors"), "\"cpu\"");
  EXPECT_EQ(Token("unused"), "torch::kCPU");
  EXPECT_EQ(Token("indexed"), "") << "an explicit index is kept";
}

TEST(CpuOnlyProgramTest, WholeUnitQuestions) {
  auto Trains = parseWithMockTorch(Training);
  auto Reads = parseWithMockTorch(R"cpp(
#include <torch/torch.h>
float first(torch::Tensor x) { return *x.data_ptr<float>(); }
)cpp");
  ASSERT_TRUE(Trains && Reads);
  UserCodeParents TrainsParents(Trains->getASTContext());
  TrainingLoopModel TrainsLoops(Trains->getASTContext(), TrainsParents);
  UserCodeParents ReadsParents(Reads->getASTContext());
  TrainingLoopModel ReadsLoops(Reads->getASTContext(), ReadsParents);
  EXPECT_TRUE(unitHoldsTrainingLoop(Trains->getASTContext(), TrainsLoops));
  EXPECT_FALSE(unitHoldsTrainingLoop(Reads->getASTContext(), ReadsLoops));
  EXPECT_FALSE(readsTensorMemoryDirectly(Trains->getASTContext()));
  EXPECT_TRUE(readsTensorMemoryDirectly(Reads->getASTContext()));
}

} // namespace cpu_only_program_test
