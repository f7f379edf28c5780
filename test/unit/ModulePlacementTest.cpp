//===--- ModulePlacementTest.cpp - module placement unit tests -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/ModulePlacement.h"
#include "ASTTestSupport.h"
#include "analysis/devices/DeviceVariables.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::analysis;
using clang::tidy::libtorch::utils::UserCodeParents;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace module_placement_test {

const char Modules[] = R"cpp(
#include <torch/torch.h>
#include <memory>
struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};
TORCH_MODULE(Net);
struct SelfImpl : torch::nn::Module {
  explicit SelfImpl(torch::Device d) { to(d); }
  torch::Tensor forward(torch::Tensor x) { return x; }
};
TORCH_MODULE(Self);
struct HiddenImpl : torch::nn::Module {
  HiddenImpl();
  torch::Tensor forward(torch::Tensor x) { return x; }
};
TORCH_MODULE(Hidden);
void helper(Net &n, torch::Device d) { n->to(d); }
void deeper(Net n, torch::Device d) { helper(n, d); }
void looker(const Net &n) { n->parameters(); }
void external(Net &n);
Net factory();

struct Owner {
  Owner(torch::Device d) { owned->to(d); }
  Net owned;
};
struct Keeper {
  void fit() { kept->forward(torch::zeros({1})); }
  Net kept;
};

void f(torch::Device device, Net param) {
  Net unmoved;
  unmoved->forward(torch::zeros({1}));
  unmoved->train();
  Net direct;
  direct->to(device);
  Net toCpu;
  toCpu->to(torch::kCPU);
  Net dtypeOnly;
  dtypeOnly->to(torch::kHalf);
  Net viaHelper;
  helper(viaHelper, device);
  Net viaDeeper;
  deeper(viaDeeper, device);
  Net looked;
  looker(looked);
  Net escaped;
  external(escaped);
  Net fromFactory = factory();
  auto shared = std::make_shared<NetImpl>();
  shared->to(device);
  auto sharedUnmoved = std::make_shared<NetImpl>();
  sharedUnmoved->forward(torch::zeros({1}));
  Net viaGet;
  viaGet.get()->to(device);
  Self selfMoved(device);
  Hidden hidden;
  Net captured;
  auto move = [&] { captured->to(device); };
  move();
  torch::nn::Linear linear(2, 2);
  linear(torch::zeros({2}));
  torch::save(linear, "linear.pt");
  torch::nn::Sequential seqFresh(torch::nn::Linear(2, 2), torch::nn::ReLU());
  seqFresh->to(device);
  torch::nn::Sequential seqUnmoved(torch::nn::Linear(2, 2),
                                   std::make_shared<NetImpl>());
  seqUnmoved->forward(torch::zeros({2}));
  torch::nn::Linear inner(2, 2);
  torch::nn::Sequential seqOfVariable(inner);
  seqOfVariable->forward(torch::zeros({2}));
  torch::nn::Sequential seqOfAny{torch::nn::AnyModule(inner)};
  seqOfAny->forward(torch::zeros({2}));
  Net fromShared(shared);
  fromShared->forward(torch::zeros({1}));
  torch::Device cpu(torch::kCPU);
  torch::Device cuda(torch::kCUDA);
  int marker = 0;
}
)cpp";

class ModulePlacementTest : public ::testing::Test {
protected:
  void SetUp() override { AST = parseWithMockTorch(Modules); }
  const ValueDecl *named(StringRef Name) {
    auto Found =
        match(valueDecl(hasName(Name)).bind("d"), AST->getASTContext());
    EXPECT_FALSE(Found.empty()) << Name.str();
    return Found.empty() ? nullptr : Found[0].getNodeAs<ValueDecl>("d");
  }
  ModuleMoves moves(StringRef Name) {
    UserCodeParents Parents(AST->getASTContext());
    ModulePlacement Placement(AST->getASTContext(), Parents);
    return Placement.movesOf(named(Name));
  }
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(ModulePlacementTest, HandleTypes) {
  EXPECT_TRUE(isModuleHandleType(named("unmoved")->getType()));
  EXPECT_TRUE(isModuleHandleType(named("shared")->getType()));
  EXPECT_TRUE(isModuleHandleType(named("linear")->getType()));
  EXPECT_FALSE(isModuleHandleType(named("device")->getType()));
  EXPECT_EQ(moduleClassOf(named("unmoved")->getType())->getName(), "NetImpl");
  EXPECT_EQ(moduleClassOf(named("shared")->getType())->getName(), "NetImpl");
}

TEST_F(ModulePlacementTest, DirectMoves) {
  EXPECT_FALSE(moves("unmoved").MaybeMoved);
  EXPECT_TRUE(moves("direct").MaybeMoved);
  EXPECT_TRUE(moves("direct").MovedToDevice);
  EXPECT_TRUE(moves("toCpu").MaybeMoved);
  EXPECT_FALSE(moves("toCpu").MovedToDevice);
  EXPECT_FALSE(moves("dtypeOnly").MaybeMoved);
  EXPECT_TRUE(moves("shared").MovedToDevice);
  EXPECT_FALSE(moves("sharedUnmoved").MaybeMoved);
  EXPECT_TRUE(moves("viaGet").MovedToDevice);
  EXPECT_TRUE(moves("captured").MovedToDevice);
  EXPECT_FALSE(moves("linear").MaybeMoved);
}

TEST_F(ModulePlacementTest, HelpersAndEscapes) {
  EXPECT_TRUE(moves("viaHelper").MovedToDevice);
  EXPECT_TRUE(moves("viaDeeper").MovedToDevice);
  EXPECT_FALSE(moves("looked").MaybeMoved);
  EXPECT_TRUE(moves("escaped").MaybeMoved);
  EXPECT_FALSE(moves("escaped").MovedToDevice);
  EXPECT_TRUE(moves("fromFactory").MaybeMoved);
  EXPECT_TRUE(moves("param").MaybeMoved);
}

// A handle built from submodules made in place is fresh; one built from a
// handle or module made elsewhere shares a module that may have been moved.
TEST_F(ModulePlacementTest, BuiltFromSubmodules) {
  EXPECT_TRUE(moves("seqFresh").MovedToDevice);
  EXPECT_FALSE(moves("seqUnmoved").MaybeMoved);
  EXPECT_TRUE(moves("seqOfVariable").MaybeMoved);
  EXPECT_TRUE(moves("seqOfAny").MaybeMoved);
  EXPECT_TRUE(moves("fromShared").MaybeMoved);
  EXPECT_TRUE(moves("inner").MaybeMoved); // it went into the Sequential
}

TEST_F(ModulePlacementTest, ConstructorsAndOwners) {
  EXPECT_TRUE(moves("selfMoved").MaybeMoved);
  EXPECT_TRUE(moves("hidden").MaybeMoved); // constructor in another TU
  EXPECT_TRUE(moves("owned").MovedToDevice);
  EXPECT_FALSE(moves("kept").MaybeMoved);
}

TEST_F(ModulePlacementTest, DeviceVariablesInScope) {
  auto Found =
      match(varDecl(hasName("marker")).bind("v"), AST->getASTContext());
  ASSERT_FALSE(Found.empty());
  const auto *Marker = Found[0].getNodeAs<VarDecl>("v");
  UserCodeParents Parents(AST->getASTContext());
  auto Declaration = Parents.get(*Marker);
  ASSERT_EQ(Declaration.size(), 1u);
  const auto *Statement = Declaration[0].get<DeclStmt>();
  ASSERT_TRUE(Statement);
  auto Devices =
      cudaDeviceVariablesAt(Statement, AST->getASTContext(), Parents);
  std::vector<std::string> Names;
  for (const ValueDecl *D : Devices)
    Names.push_back(D->getName().str());
  // Innermost first; the CPU device is not listed.
  EXPECT_EQ(Names, (std::vector<std::string>{"cuda", "device"}));
}

TEST(DeviceVariablesTest, CommandLineAndEnvironment) {
  auto AST = parseWithMockTorch(R"cpp(
#include <torch/torch.h>
#include <cstdlib>
#include <string>
int main(int argc, char **argv) {
  std::string name = argc > 1 ? argv[1] : "cpu";
  torch::Device fromArgs(name);
  torch::Device fromEnv(std::getenv("DEV") ? torch::kCUDA : torch::kCPU);
  torch::Device fixed(torch::kCPU);
}
)cpp");
  auto init = [&](StringRef Name) {
    return libtorch_tidy::testing::initializerOf(*AST, Name);
  };
  ASTContext &Context = AST->getASTContext();
  EXPECT_TRUE(readsCommandLineOrEnvironment(init("fromArgs"), Context));
  EXPECT_TRUE(readsCommandLineOrEnvironment(init("fromEnv"), Context));
  EXPECT_FALSE(readsCommandLineOrEnvironment(init("fixed"), Context));
}

} // namespace module_placement_test
