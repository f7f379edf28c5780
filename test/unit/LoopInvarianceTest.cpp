//===--- LoopInvarianceTest.cpp - loop-invariant values unit tests --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/LoopInvariance.h"
#include "ASTTestSupport.h"

using namespace clang;
using namespace clang::ast_matchers;
namespace analysis = clang::tidy::libtorch::analysis;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace loop_invariance_test {

// `use(x)` marks the value asked about; it only reads its argument.
const char Prelude[] = R"cpp(
#include <torch/torch.h>
#include <vector>
void use(const torch::Tensor &) {}
void use_number(int) {}
)cpp";

class LoopInvarianceTest : public ::testing::Test {
protected:
  void parse(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(Prelude + Code);
    ASSERT_TRUE(AST);
  }

  /// The argument of the one `use(...)` / `use_number(...)` call in
  /// \p Function.
  const CallExpr *useIn(llvm::StringRef Function) {
    auto Found =
        match(callExpr(callee(functionDecl(hasAnyName("use", "use_number"))),
                       hasAncestor(functionDecl(hasName(Function),
                                                isExpansionInMainFile())))
                  .bind("use"),
              AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Function.str();
    return Found.empty() ? nullptr : Found[0].getNodeAs<CallExpr>("use");
  }

  /// The innermost loop of \p Function around its `use(...)` call.
  const Stmt *loopAround(const CallExpr *Use) {
    auto Found =
        match(stmt(anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt()),
                   hasDescendant(callExpr(equalsNode(Use))))
                  .bind("loop"),
              AST->getASTContext());
    EXPECT_FALSE(Found.empty());
    // Matches come in traversal order: an inner loop after its outer one.
    return Found.empty() ? nullptr : Found.back().getNodeAs<Stmt>("loop");
  }

  /// The value `use(...)` reads in \p Function is the same on every
  /// iteration of the innermost loop around it.
  bool invariant(llvm::StringRef Function) {
    const CallExpr *Use = useIn(Function);
    if (!Use)
      return false;
    return analysis::isLoopInvariant(Use->getArg(0), loopAround(Use));
  }

  /// The variable \p Name declared in \p Function.
  const VarDecl *var(llvm::StringRef Function, llvm::StringRef Name) {
    // The test's own function, not one of LibTorch's of the same name.
    auto Found = match(
        varDecl(hasName(Name), hasAncestor(functionDecl(
                                   hasName(Function), isExpansionInMainFile())))
            .bind("v"),
        AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Function.str() << "::" << Name.str();
    return Found.empty() ? nullptr : Found[0].getNodeAs<VarDecl>("v");
  }

  /// The body of \p Function.
  const Stmt *body(llvm::StringRef Function) {
    auto Found = match(
        functionDecl(hasName(Function), isExpansionInMainFile(), isDefinition())
            .bind("f"),
        AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Function.str();
    return Found.empty() ? nullptr
                         : Found[0].getNodeAs<FunctionDecl>("f")->getBody();
  }

  bool written(llvm::StringRef Function, llvm::StringRef Name) {
    return analysis::isWrittenIn(var(Function, Name), body(Function));
  }

  std::unique_ptr<ASTUnit> AST;
};

TEST_F(LoopInvarianceTest, WritesOfTheVariableItself) {
  parse(R"cpp(
void assigned(torch::Tensor x, torch::Tensor y) { x = y; }
void compound(torch::Tensor x, torch::Tensor y) { x += y; }
void incremented(int n) { ++n; }
void in_place(torch::Tensor x) { x.add_(1); }
void element(torch::Tensor x) { x[0] = 1; }
void through_view(torch::Tensor x) { x.view({-1}).mul_(2); }
void gradient_on(torch::Tensor x) { x.requires_grad_(); }
void address(torch::Tensor x) { torch::Tensor *p = &x; }
void library_in_place(torch::Tensor x) { torch::relu_(x); }
void pushed(std::vector<torch::Tensor> v, torch::Tensor y) { v.push_back(y); }
void helper(torch::Tensor &t) {}
void by_reference(torch::Tensor x) { helper(x); }
void reads_only(torch::Tensor x, torch::Tensor y) {
  y = x * 2;
  auto s = x.sum();
  use(x);
  torch::Tensor z = x;
}
)cpp");
  EXPECT_TRUE(written("assigned", "x"));
  EXPECT_TRUE(written("compound", "x"));
  EXPECT_TRUE(written("incremented", "n"));
  EXPECT_TRUE(written("in_place", "x"));
  EXPECT_TRUE(written("element", "x"));
  EXPECT_TRUE(written("through_view", "x"));
  EXPECT_TRUE(written("gradient_on", "x"));
  EXPECT_TRUE(written("address", "x"));
  EXPECT_TRUE(written("library_in_place", "x"));
  EXPECT_TRUE(written("pushed", "v"));
  EXPECT_TRUE(written("by_reference", "x"));
  // Reading, copying (the copy's writes are isLoopInvariant's business)
  // and passing by const reference write nothing.
  EXPECT_FALSE(written("reads_only", "x"));
  EXPECT_FALSE(written("pushed", "y"));
}

TEST_F(LoopInvarianceTest, ValuesTheLoopDoesNotChange) {
  parse(R"cpp(
void local(torch::nn::Linear m) {
  auto style = torch::rand({2});
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int i = 0; i < 3; ++i) {
    use(style);
    opt.step();
  }
}
void parameter(torch::Tensor style, torch::nn::Linear m) {
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int i = 0; i < 3; ++i) {
    use(style);
    opt.step();
  }
}
torch::Tensor total(const torch::Tensor &t) { return t.sum(); }
void read_by_helper() {
  auto style = torch::rand({2});
  torch::Tensor acc = torch::zeros({1});
  for (int i = 0; i < 3; ++i) {
    use(style);
    acc += total(style);
  }
}
void epoch_and_step(torch::nn::Linear m) {
  auto style = torch::rand({2});
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int e = 0; e < 2; ++e) {
    style = torch::rand({2});
    for (int i = 0; i < 3; ++i) {
      use(style);
      opt.step();
    }
  }
}
void number(int n) {
  for (int i = 0; i < 3; ++i)
    use_number(n);
}
)cpp");
  EXPECT_TRUE(invariant("local"));
  EXPECT_TRUE(invariant("parameter"));
  EXPECT_TRUE(invariant("read_by_helper"));
  // Written once per epoch, outside the step loop asked about.
  EXPECT_TRUE(invariant("epoch_and_step"));
  EXPECT_TRUE(invariant("number"));
}

TEST_F(LoopInvarianceTest, ValuesTheLoopChanges) {
  parse(R"cpp(
void declared_inside() {
  for (int i = 0; i < 3; ++i) {
    auto x = torch::rand({2});
    use(x);
  }
}
void reassigned(torch::Tensor x) {
  for (int i = 0; i < 3; ++i) {
    use(x);
    x = x * 2;
  }
}
void in_place(torch::Tensor x) {
  for (int i = 0; i < 3; ++i) {
    use(x);
    x.mul_(0.5);
  }
}
void counter() {
  int n = 0;
  for (int i = 0; i < 3; ++i) {
    use_number(n);
    ++n;
  }
}
void loop_variable() {
  for (int i = 0; i < 3; ++i)
    use_number(i);
}
void ranged(std::vector<torch::Tensor> batches) {
  for (const auto &batch : batches)
    use(batch);
}
)cpp");
  EXPECT_FALSE(invariant("declared_inside"));
  EXPECT_FALSE(invariant("reassigned"));
  EXPECT_FALSE(invariant("in_place"));
  EXPECT_FALSE(invariant("counter"));
  EXPECT_FALSE(invariant("loop_variable"));
  EXPECT_FALSE(invariant("ranged"));
}

TEST_F(LoopInvarianceTest, WritesThroughAliases) {
  parse(R"cpp(
void copy_written(torch::Tensor x) {
  torch::Tensor y = x;
  for (int i = 0; i < 3; ++i) {
    use(x);
    y.add_(1);
  }
}
void view_written(torch::Tensor x) {
  auto v = x.view({-1});
  for (int i = 0; i < 3; ++i) {
    use(x);
    v.zero_();
  }
}
void reference_written(torch::Tensor x) {
  torch::Tensor &r = x;
  for (int i = 0; i < 3; ++i) {
    use(x);
    r = torch::rand({2});
  }
}
void container_written(torch::Tensor x) {
  std::vector<torch::Tensor> list;
  list.push_back(x);
  for (int i = 0; i < 3; ++i) {
    use(x);
    list.back().fill_(0);
  }
}
void clone_written(torch::nn::Linear m, torch::Tensor x) {
  auto y = x.clone();
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int i = 0; i < 3; ++i) {
    use(x);
    y.add_(1);
    opt.step();
  }
}
)cpp");
  EXPECT_FALSE(invariant("copy_written"));
  EXPECT_FALSE(invariant("view_written"));
  EXPECT_FALSE(invariant("reference_written"));
  EXPECT_FALSE(invariant("container_written"));
  // A clone has storage of its own.
  EXPECT_TRUE(invariant("clone_written"));
}

TEST_F(LoopInvarianceTest, CalleesAndLambdas) {
  parse(R"cpp(
void jitter(torch::Tensor t) { t.add_(0.1); }
void by_value_writer(torch::Tensor x) {
  for (int i = 0; i < 3; ++i) {
    use(x);
    jitter(x);
  }
}
void inspect(torch::Tensor &t) {}
void by_mutable_reference(torch::Tensor x) {
  for (int i = 0; i < 3; ++i) {
    use(x);
    inspect(x);
  }
}
void elsewhere(const torch::Tensor &t);
void unseen_callee(torch::Tensor x) {
  for (int i = 0; i < 3; ++i) {
    use(x);
    elsewhere(x);
  }
}
void library_in_place(torch::Tensor x) {
  for (int i = 0; i < 3; ++i) {
    use(x);
    torch::relu_(x);
  }
}
void lambda_outside(torch::Tensor x) {
  auto bump = [&] { x.add_(1); };
  for (int i = 0; i < 3; ++i) {
    use(x);
    bump();
  }
}
)cpp");
  EXPECT_FALSE(invariant("by_value_writer"));
  EXPECT_FALSE(invariant("by_mutable_reference"));
  EXPECT_FALSE(invariant("unseen_callee"));
  EXPECT_FALSE(invariant("library_in_place"));
  EXPECT_FALSE(invariant("lambda_outside"));
}

TEST_F(LoopInvarianceTest, OptimizersAndGradients) {
  parse(R"cpp(
void optimized(torch::Tensor x) {
  torch::optim::Adam opt({x});
  for (int i = 0; i < 3; ++i) {
    opt.zero_grad();
    use(x);
    opt.step();
  }
}
void optimized_copy(torch::Tensor x) {
  auto image = x;
  torch::optim::Adam opt({image});
  for (int i = 0; i < 3; ++i) {
    use(x);
    opt.step();
  }
}
void gradient_on(torch::nn::Linear m) {
  auto x = torch::rand({2}).requires_grad_(true);
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int i = 0; i < 3; ++i) {
    use(x);
    opt.step();
  }
}
void foreign_optimizer(torch::Tensor x, torch::optim::SGD &opt) {
  for (int i = 0; i < 3; ++i) {
    use(x);
    opt.step();
  }
}
void local_from_parameter(torch::Tensor x, torch::optim::SGD &opt) {
  auto y = x.to(torch::kFloat);
  for (int i = 0; i < 3; ++i) {
    use(y);
    opt.step();
  }
}
void local_with_foreign_optimizer(torch::optim::SGD &opt) {
  auto x = torch::rand({2});
  for (int i = 0; i < 3; ++i) {
    use(x);
    opt.step();
  }
}
)cpp");
  EXPECT_FALSE(invariant("optimized"));
  EXPECT_FALSE(invariant("optimized_copy"));
  EXPECT_FALSE(invariant("gradient_on"));
  // The caller may have given the parameter to the optimizer.
  EXPECT_FALSE(invariant("foreign_optimizer"));
  EXPECT_FALSE(invariant("local_from_parameter"));
  // A tensor made here cannot be in it.
  EXPECT_TRUE(invariant("local_with_foreign_optimizer"));
}

TEST_F(LoopInvarianceTest, MembersGlobalsAndModules) {
  parse(R"cpp(
torch::Tensor global_style;
struct Trainer {
  torch::Tensor style;
  torch::Tensor kept;
  void run() {
    for (int i = 0; i < 3; ++i)
      use(style);
  }
  void keep(torch::nn::Linear m) {
    auto x = torch::rand({2});
    kept = x;
    torch::optim::SGD opt(m->parameters(), 0.1);
    for (int i = 0; i < 3; ++i) {
      use(x);
      opt.step();
    }
  }
};
void global() {
  for (int i = 0; i < 3; ++i)
    use(global_style);
}
struct ReadImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
};
TORCH_MODULE(Read);
struct WriteImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x.relu_(); }
};
TORCH_MODULE(Write);
void reading_module(Read r, torch::nn::Linear m) {
  auto x = torch::rand({2});
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int i = 0; i < 3; ++i) {
    use(x);
    r(x);
    r->forward(x);
    opt.step();
  }
}
void writing_module(Write w) {
  auto x = torch::rand({2});
  for (int i = 0; i < 3; ++i) {
    use(x);
    w(x);
  }
}
)cpp");
  EXPECT_FALSE(invariant("run"));
  // Stored in a member, it may be written by any method.
  EXPECT_FALSE(invariant("keep"));
  EXPECT_FALSE(invariant("global"));
  EXPECT_TRUE(invariant("reading_module"));
  EXPECT_FALSE(invariant("writing_module"));
}

} // namespace loop_invariance_test
