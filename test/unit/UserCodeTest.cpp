//===--- UserCodeTest.cpp - user code and its parents unit tests ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/UserCode.h"
#include "ASTTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::utils;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace user_code_test {

/// User code with what makes parents tricky: templates and their
/// instantiations, lambdas, in-class methods, range-for (implicit
/// variables), a macro-made module class, a user namespace.
constexpr char Code[] = R"cpp(
#include <torch/torch.h>
#define LOG_EVERY(n, i, x) if ((i) % (n) == 0) { (void)(x); }
namespace app {
struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);
} // namespace app
template <typename T> T twice(T v) { return v + v; }
int main() {
  app::Net model;
  torch::Device device(torch::kCUDA);
  model->to(device);
  std::vector<torch::Tensor> batches{torch::ones({2, 4})};
  auto step = [&](const torch::Tensor &x) { return model->forward(x.to(device)); };
  int i = 0;
  for (auto &x : batches) {
    auto y = step(x);
    LOG_EVERY(10, i, y);
    i = twice(i);
  }
}
)cpp";

/// Every declaration and statement of user code, as clang's parent map
/// sees them (instantiations and implicit code included).
struct Collector : RecursiveASTVisitor<Collector> {
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDecl(Decl *D) {
    Nodes.push_back(DynTypedNode::create(*D));
    return true;
  }
  bool VisitStmt(Stmt *S) {
    Nodes.push_back(DynTypedNode::create(*S));
    return true;
  }
  std::vector<DynTypedNode> Nodes;
};

std::vector<DynTypedNode> parentsOf(DynTypedNodeList List) {
  return std::vector<DynTypedNode>(List.begin(), List.end());
}

TEST(UserCodeParentsTest, SameParentsAsClangInUserCode) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(Code);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  UserCodeParents Parents(Context);
  Collector Collect;
  std::vector<Decl *> TopLevel = userTopLevelDecls(Context);
  for (Decl *D : TopLevel)
    Collect.TraverseDecl(D);
  ASSERT_GT(Collect.Nodes.size(), 200u);
  const SourceManager &SM = Context.getSourceManager();
  for (const DynTypedNode &Node : Collect.Nodes) {
    std::vector<DynTypedNode> Ours = parentsOf(Parents.get(Node));
    std::vector<DynTypedNode> Clangs = parentsOf(Context.getParents(Node));
    // A node of a system header that user code reaches (the default
    // argument of a LibTorch function): its parents in user code only.
    if (SM.isInSystemHeader(
            SM.getExpansionLoc(Node.getSourceRange().getBegin()))) {
      for (const DynTypedNode &Parent : Ours)
        EXPECT_TRUE(llvm::is_contained(Clangs, Parent));
      continue;
    }
    // Clang's map starts at the TranslationUnitDecl, ours below it.
    if (const auto *D = Node.get<Decl>();
        D && llvm::is_contained(TopLevel, D)) {
      EXPECT_TRUE(Ours.empty());
      continue;
    }
    ASSERT_EQ(Ours.size(), Clangs.size())
        << Node.getNodeKind().asStringRef().str() << " at "
        << Node.getSourceRange().getBegin().printToString(
               Context.getSourceManager());
    for (size_t I = 0; I < Ours.size(); ++I)
      EXPECT_TRUE(Ours[I] == Clangs[I])
          << Node.getNodeKind().asStringRef().str() << ": parent "
          << Ours[I].getNodeKind().asStringRef().str() << " vs "
          << Clangs[I].getNodeKind().asStringRef().str();
  }
}

TEST(UserCodeParentsTest, NodesOfSystemHeadersHaveNoParents) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(Code);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  UserCodeParents Parents(Context);
  auto Found = match(
      functionDecl(isExpansionInSystemHeader(), hasBody(stmt().bind("body")))
          .bind("function"),
      Context);
  ASSERT_FALSE(Found.empty());
  const auto *Function = Found[0].getNodeAs<FunctionDecl>("function");
  const auto *Body = Found[0].getNodeAs<Stmt>("body");
  EXPECT_FALSE(Context.getParents(*Function).empty());
  EXPECT_TRUE(Parents.get(*Function).empty());
  EXPECT_TRUE(Parents.get(*Body).empty());
}

TEST(UserCodeTest, UserCodeIsWhatIsOutsideSystemHeaders) {
  auto AST = libtorch_tidy::testing::parseWithMockTorch(Code);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  const SourceManager &SM = Context.getSourceManager();
  auto named = [&](StringRef Name) -> const Decl * {
    auto Found = match(namedDecl(hasName(Name)).bind("d"), Context);
    return Found.empty() ? nullptr : Found[0].getNodeAs<Decl>("d");
  };
  EXPECT_TRUE(isUserCode(named("::main"), SM));
  // Declared by a macro of a system header, written in user code.
  EXPECT_TRUE(isUserCode(named("::app::Net"), SM));
  EXPECT_FALSE(isUserCode(named("::torch::Tensor"), SM));
  EXPECT_FALSE(isUserCode(nullptr, SM));

  std::vector<std::string> Names;
  for (const Decl *D : userTopLevelDecls(Context))
    if (const auto *Named = dyn_cast<NamedDecl>(D))
      Names.push_back(Named->getNameAsString());
  EXPECT_EQ(Names, (std::vector<std::string>{"app", "twice", "main"}));
}

} // namespace user_code_test
