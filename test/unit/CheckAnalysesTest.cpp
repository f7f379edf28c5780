//===--- CheckAnalysesTest.cpp - the analyses of single checks ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Loss scaling (zero-grad-accumulation), batch flow (input-not-on-device),
// evaluation facts (eval-without-no-grad), module call chains
// (conv-bias-before-batchnorm) and host-sync operations (host-sync-in-loop).
//
//===----------------------------------------------------------------------===//

#include "ASTTestSupport.h"
#include "analysis/devices/HostSyncOperations.h"
#include "analysis/devices/ModuleCallChains.h"
#include "analysis/gradients/LossScaling.h"
#include "analysis/steps/BatchFlow.h"
#include "analysis/steps/EvaluationFacts.h"
#include "analysis/steps/OuterWrites.h"
#include "analysis/steps/TrainingCode.h"
#include "analysis/vocabulary/GradModeFacts.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::analysis;
using clang::tidy::libtorch::utils::UserCodeParents;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace check_analyses_test {

/// A parsed snippet, its parents and the calls of `probe(N, x)` in it.
class Snippet {
public:
  explicit Snippet(const std::string &Code)
      : AST(parseWithMockTorch("#include <torch/torch.h>\n"
                               "void probe(int, const torch::Tensor &);\n" +
                               Code)) {
    Parents = std::make_unique<UserCodeParents>(AST->getASTContext());
  }
  ASTContext &context() { return AST->getASTContext(); }
  template <typename NodeT, typename MatcherT>
  const NodeT *first(const MatcherT &Matcher) {
    auto Found = match(Matcher.bind("n"), context());
    EXPECT_FALSE(Found.empty());
    return Found.empty() ? nullptr : Found[0].template getNodeAs<NodeT>("n");
  }
  const VarDecl *variable(llvm::StringRef Name) {
    return first<VarDecl>(varDecl(hasName(Name)));
  }
  const FunctionDecl *function(llvm::StringRef Name) {
    return first<FunctionDecl>(functionDecl(hasName(Name), isDefinition()));
  }
  const Expr *initializer(llvm::StringRef Name) {
    return variable(Name)->getInit();
  }
  const CallExpr *probe(int Id) {
    return first<CallExpr>(
        callExpr(callee(functionDecl(hasName("probe"))),
                 hasArgument(0, integerLiteral(equals(Id)))));
  }
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
};

TEST(LossScalingTest, ScaledAndUnscaled) {
  Snippet S(R"cpp(
void f(torch::Tensor a, int n, bool c) {
  auto divided = a.sum() / n;
  auto method = a.sum().div(n);
  auto plain = a.sum();
  plain.backward();
  auto reassigned = a.sum();
  reassigned = a.mean() * 0.5;
  auto inPlace = a.sum();
  inPlace.div_(n);
  auto escapes = a.sum();
  auto *p = &escapes;
  torch::Tensor empty;
  empty = a.sum();
}
)cpp");
  EXPECT_TRUE(isScaledLoss(S.initializer("divided")));
  EXPECT_TRUE(isScaledLoss(S.initializer("method")));
  EXPECT_FALSE(isScaledLoss(S.initializer("plain")));
  const FunctionDecl *F = S.function("f");
  auto Ref = [&](llvm::StringRef Name) {
    return S.first<DeclRefExpr>(declRefExpr(to(varDecl(hasName(Name)))));
  };
  EXPECT_TRUE(isProvablyUnscaledLoss(Ref("plain"), F));
  EXPECT_FALSE(isProvablyUnscaledLoss(Ref("reassigned"), F));
  EXPECT_FALSE(isProvablyUnscaledLoss(Ref("inPlace"), F));
  EXPECT_FALSE(isProvablyUnscaledLoss(Ref("escapes"), F));
  // Default-constructed, then given one unscaled value.
  EXPECT_TRUE(isProvablyUnscaledLoss(Ref("empty"), F));
  // A parameter gets values we cannot see.
  EXPECT_FALSE(isProvablyUnscaledLoss(Ref("a"), F));
  EXPECT_TRUE(isProvablyUnscaledLoss(S.initializer("plain"), F));
}

constexpr char Loaders[] = R"cpp(
struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};
struct Placed : torch::data::datasets::Dataset<Placed> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}).cuda(), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};
torch::Tensor model(const torch::Tensor &x);
template <typename Loader> void train(Loader &loader) {
  for (auto &batch : *loader) {
    auto flat = batch.data.view({-1});
    auto moved = batch.data.cuda();
    auto reassigned = batch.data;
    reassigned = torch::zeros({4});
    probe(1, flat.sum());
    model(flat);
    probe(2, moved);
    probe(3, reassigned);
  }
}
void run() {
  auto host = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()));
  auto device = torch::data::make_data_loader(
      Placed().map(torch::data::transforms::Stack<>()));
  train(host);
  train(device);
  std::vector<int> plain;
  for (auto &x : plain)
    (void)x;
}
)cpp";

TEST(BatchFlowTest, LoaderLoopsAndTheirDatasets) {
  Snippet S(Loaders);
  auto Batches =
      match(varDecl(hasName("batch"), isInstantiated()).bind("b"), S.context());
  ASSERT_EQ(Batches.size(), 2u);
  unsigned Placing = 0;
  for (const auto &Bound : Batches) {
    const auto *Batch = Bound.getNodeAs<VarDecl>("b");
    const CXXForRangeStmt *Loop = loaderLoopOf(Batch, *S.Parents);
    ASSERT_NE(Loop, nullptr);
    const CXXRecordDecl *Loader = Loop->getRangeInit()
                                      ->getType()
                                      .getNonReferenceType()
                                      ->getAsCXXRecordDecl();
    Placing += loaderMayPlaceOnDevice(Loader, S.context());
  }
  // Placed's get() calls cuda(); Points' makes host tensors.
  EXPECT_EQ(Placing, 1u);
  EXPECT_EQ(loaderLoopOf(S.variable("x"), *S.Parents), nullptr);
}

TEST(BatchFlowTest, UsesFollowPlacementKeepingMethods) {
  Snippet S(Loaders);
  auto Members =
      match(memberExpr(
                hasObjectExpression(declRefExpr(to(varDecl(hasName("batch"))))),
                hasAncestor(functionDecl(isTemplateInstantiation())),
                hasAncestor(varDecl(hasName("flat"))))
                .bind("m"),
            S.context());
  ASSERT_FALSE(Members.empty());
  std::vector<BatchUse> Uses =
      batchUses(Members[0].getNodeAs<Expr>("m"), *S.Parents);
  // batch.data -> view -> flat -> probe(1, flat.float_()) is not a
  // placement-keeping method, model(flat) is a call that takes it.
  ASSERT_FALSE(Uses.empty());
  bool ReachesModel = false;
  for (const BatchUse &Use : Uses)
    if (const FunctionDecl *Callee = Use.Call->getDirectCallee())
      ReachesModel |= Callee->getName() == "model";
  EXPECT_TRUE(ReachesModel);
  const FunctionDecl *Train = S.first<FunctionDecl>(
      functionDecl(hasName("train"), isTemplateInstantiation()));
  auto Reassigned =
      match(varDecl(hasName("reassigned"),
                    hasAncestor(functionDecl(isTemplateInstantiation())))
                .bind("v"),
            S.context());
  ASSERT_FALSE(Reassigned.empty());
  EXPECT_TRUE(mayHoldAnotherTensor(Reassigned[0].getNodeAs<VarDecl>("v"),
                                   Train->getBody()));
}

TEST(EvaluationFactsTest, BodiesAndLoops) {
  Snippet S(R"cpp(
struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};
TORCH_MODULE(Net);
void unseen();
void step(torch::optim::SGD &optimizer) { optimizer.step(); }
void trains(Net &model, torch::optim::SGD &optimizer, torch::Tensor x) {
  model->train();
  for (int i = 0; i < 3; ++i)
    step(optimizer);
}
void evaluates(Net &model, torch::Tensor x) {
  model->eval();
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j)
      probe(1, x);
    model(x);
  }
  unseen();
}
)cpp");
  TrainingLoopModel Loops(S.context(), *S.Parents);
  BodyFacts Trains = bodyFacts(S.function("trains")->getBody(), Loops);
  EXPECT_TRUE(Trains.Trains);
  EXPECT_FALSE(Trains.CallsUnseen);
  ASSERT_EQ(Trains.ModeCalls.size(), 1u);
  BodyFacts Evaluates = bodyFacts(S.function("evaluates")->getBody(), Loops);
  EXPECT_FALSE(Evaluates.Trains);
  EXPECT_TRUE(Evaluates.CallsUnseen);
  EXPECT_TRUE(Evaluates.HasNoGradName);
  EXPECT_EQ(Evaluates.ModeCalls.size(), 1u);

  const Stmt *Body = nullptr;
  bool InLambda = true;
  auto Around = enclosingLoops(S.probe(1), *S.Parents, Body, InLambda);
  ASSERT_EQ(Around.size(), 2u);
  EXPECT_EQ(Body, S.function("evaluates")->getBody());
  EXPECT_FALSE(InLambda);
  // The outer loop calls the model itself; the inner one does not.
  EXPECT_TRUE(runsModel(Around[1], *S.Parents));
  EXPECT_FALSE(runsModel(Around[0], *S.Parents));
}

TEST(EvaluationFactsTest, ModeCallsAndPeriodicPasses) {
  Snippet S(R"cpp(
struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};
TORCH_MODULE(Net);
void train(Net &model, Net &gen, torch::optim::SGD &opt, torch::Tensor x) {
  torch::Tensor kept;
  for (int step = 0; step < 100; ++step) {
    model->train();
    opt.zero_grad();
    model(x).sum().backward();
    opt.step();
    if (step % 10 == 0) {
      auto samples = gen->forward(x);
      probe(1, samples);
    }
    if (step % 20 == 0) {
      kept = gen->forward(x);
    }
    if (step % 30 == 0) {
      gen->forward(x).sum().backward();
    }
    if (step % 40 == 0) {
      for (int i = 0; i < 2; ++i)
        gen->forward(x);
    }
    auto every_step = gen->forward(x);
    model->eval();
    probe(2, x);
  }
}
)cpp");
  TrainingLoopModel Loops(S.context(), *S.Parents);
  const FunctionDecl *Train = S.function("train");
  BodyFacts Facts = bodyFacts(Train->getBody(), Loops);
  const SourceManager &SM = S.context().getSourceManager();
  EXPECT_FALSE(isEvalCall(lastModeCallBefore(Facts, S.probe(1), SM)));
  EXPECT_TRUE(isEvalCall(lastModeCallBefore(Facts, S.probe(2), SM)));
  EXPECT_EQ(lastModeCallBefore(Facts, Train->getBody(), SM), nullptr);

  const Stmt *Body = nullptr;
  bool InLambda = false;
  auto Around = enclosingLoops(S.probe(1), *S.Parents, Body, InLambda);
  ASSERT_EQ(Around.size(), 1u);
  // Only the first block: the second keeps its samples, the third trains,
  // the fourth runs the model in a loop of its own, and the last forward
  // runs every step.
  auto Passes = periodicPasses(Around[0], Loops);
  ASSERT_EQ(Passes.size(), 1u);
  EXPECT_EQ(Passes[0].Block,
            S.first<IfStmt>(ifStmt(isExpansionInMainFile()))->getThen());
  EXPECT_TRUE(isModuleForwardCall(Passes[0].Forward));
}

TEST(OuterWritesTest, TypesThatHoldTensors) {
  Snippet S(R"cpp(
#include <map>
#include <string>
#include <utility>
#include <vector>
#include <iostream>
struct Metrics { double loss; float acc; std::string name; };
struct Outputs { std::vector<torch::Tensor> logits; };
torch::Tensor a;
std::vector<torch::Tensor> b;
std::pair<double, double> c;
Metrics d;
Outputs e;
std::map<std::string, torch::Tensor> f;
std::map<std::string, float> g;
torch::nn::Linear h(1, 1);
std::ostream *i = nullptr;
void *j = nullptr;
int k[3];
torch::Tensor *l = nullptr;
)cpp");
  auto Holds = [&](llvm::StringRef Name) {
    return mayHoldTensors(
        S.first<VarDecl>(varDecl(hasName(Name), isExpansionInMainFile()))
            ->getType());
  };
  EXPECT_TRUE(Holds("a"));
  EXPECT_TRUE(Holds("b"));
  EXPECT_FALSE(Holds("c"));
  EXPECT_FALSE(Holds("d"));
  EXPECT_TRUE(Holds("e"));
  EXPECT_TRUE(Holds("f")); // a template argument, not a field
  // Conservative: the tree's internals nest deeper than the walk looks.
  EXPECT_TRUE(Holds("g"));
  EXPECT_TRUE(Holds("h"));
  EXPECT_FALSE(Holds("i"));
  EXPECT_TRUE(Holds("j")); // type-erased
  EXPECT_FALSE(Holds("k"));
  EXPECT_TRUE(Holds("l"));
}

TEST(OuterWritesTest, WritesOutOfARegion) {
  Snippet S(R"cpp(
#include <vector>
struct Holder { torch::Tensor t; int n = 0; void keep(torch::Tensor x); };
void keep_ref(std::vector<torch::Tensor> &out, const torch::Tensor &x);
void read_ref(const std::vector<torch::Tensor> &in, const torch::Tensor &x);
void f(torch::Tensor x, std::vector<torch::Tensor> &outs, Holder &h,
       double &sum) {
  { auto y = x * 2; auto z = y + 1; sum += z.sum().item<double>(); }
  { auto y = x * 2; outs.push_back(y); }
  { h.t = x; }
  { h.n++; }
  { x.add_(1); }
  { auto y = x * 2; x.add_(y); }
  { auto &r = outs; r.push_back(x); }
  { auto local = x; local.mul_(x); }
  { std::vector<torch::Tensor> mine; mine.push_back(x); read_ref(outs, x); }
  { keep_ref(outs, x); }
  { auto it = outs.begin(); *it = x; }
  { h.keep(x); }
  { for (const auto &o : outs) sum += o.sum().item<double>(); }
}
)cpp");
  const auto *Body = cast<CompoundStmt>(S.function("f")->getBody());
  std::vector<bool> Writes;
  for (const Stmt *Block : Body->body())
    Writes.push_back(findOuterTensorWrite(Block) != nullptr);
  EXPECT_EQ(Writes,
            (std::vector<bool>{false, true, true, false, false, true, true,
                               true, false, true, true, true, false}));
}

TEST(ModuleCallChainsTest, ConvIntoBatchNorm) {
  Snippet S(R"cpp(
struct BlockImpl : torch::nn::Module {
  torch::nn::Conv2d conv{torch::nn::Conv2dOptions(3, 8, 3)};
  torch::nn::BatchNorm2d bn{8};
  torch::Tensor forward(torch::Tensor x) {
    auto y = conv(x);
    auto z = bn(y);
    return z;
  }
  torch::Tensor direct(torch::Tensor x) { return bn(conv(x)); }
  torch::Tensor residual(torch::Tensor x) {
    auto y = conv(x);
    auto z = bn(y);
    return z + y;
  }
};
)cpp");
  auto Calls = match(
      cxxOperatorCallExpr(
          hasArgument(0, ignoringImplicit(memberExpr(member(hasName("conv"))))))
          .bind("c"),
      S.context());
  ASSERT_EQ(Calls.size(), 3u);
  unsigned Consumed = 0;
  for (const auto &Bound : Calls)
    Consumed +=
        consumingBatchNorm(Bound.getNodeAs<Expr>("c"), *S.Parents) != nullptr;
  // forward and direct; the residual reads y after the batch norm.
  EXPECT_EQ(Consumed, 2u);
  const auto *First = Calls[0].getNodeAs<CXXOperatorCallExpr>("c");
  const ValueDecl *Holder = holderDecl(First->getArg(0));
  ASSERT_NE(Holder, nullptr);
  EXPECT_EQ(Holder->getName(), "conv");
  auto All = callsOfHolder(Holder, First, *S.Parents);
  ASSERT_TRUE(All);
  EXPECT_EQ(All->size(), 3u);
}

TEST(HostSyncOperationsTest, Kinds) {
  EXPECT_EQ(syncKindOfMethod("item"), SyncKind::ReadScalar);
  EXPECT_EQ(syncKindOfMethod("to"), SyncKind::CopyToHost);
  EXPECT_EQ(syncKindOfMethod("unique_consecutive"), SyncKind::DynamicShape);
  EXPECT_EQ(syncKindOfMethod("allclose"), SyncKind::HostBool);
  EXPECT_EQ(syncKindOfMethod("data_ptr"), SyncKind::HostMemory);
  EXPECT_EQ(syncKindOfFunction("at::print"), SyncKind::Print);
  EXPECT_EQ(syncKindOfFunction("at::_unique2"), SyncKind::DynamicShape);
  EXPECT_EQ(syncKindOfFunction("at::_local_scalar_dense"),
            SyncKind::ReadScalar);
  EXPECT_EQ(syncKindOfFunction("torch::cuda::synchronize"),
            SyncKind::Synchronize);
  EXPECT_TRUE(llvm::is_contained(syncTensorMethods(), "item"));
  EXPECT_TRUE(
      llvm::is_contained(syncFunctions(), "::torch::cuda::synchronize"));
  for (llvm::StringRef Name : syncFunctions())
    EXPECT_TRUE(Name.starts_with("::")) << Name.str();
}

TEST(ModuleCallChainsTest, ForwardOnlyInALoop) {
  Snippet S(R"cpp(
struct Teacher {
  torch::nn::Linear net{4, 2};
  void update();
  void run(torch::Tensor x) {
    for (int i = 0; i < 3; ++i) {
      auto y = net(x);
      update();
    }
  }
};
void f(torch::nn::Linear frozen, torch::nn::Linear moved, torch::Tensor x,
       torch::Device d) {
  for (int i = 0; i < 3; ++i) {
    auto a = frozen(x);
    moved->to(d);
    auto b = moved(x);
    auto c = moved->forward(x);
  }
})cpp");
  const Stmt *InF =
      S.first<Stmt>(forStmt(hasAncestor(functionDecl(hasName("f")))));
  const Stmt *InRun =
      S.first<Stmt>(forStmt(hasAncestor(functionDecl(hasName("run")))));
  auto Param = [&](llvm::StringRef Name) {
    return S.first<ParmVarDecl>(parmVarDecl(hasName(Name)));
  };
  EXPECT_TRUE(onlyRunsForwardIn(Param("frozen"), InF));
  EXPECT_FALSE(onlyRunsForwardIn(Param("moved"), InF)) << "moved in the loop";
  EXPECT_FALSE(
      onlyRunsForwardIn(S.first<FieldDecl>(fieldDecl(hasName("net"))), InRun))
      << "a method of the class may update the member";
  auto Init = [&](llvm::StringRef Name) {
    return cast<CallExpr>(S.initializer(Name)->IgnoreImplicit());
  };
  ASSERT_EQ(forwardInputs(Init("a")).size(), 1u) << "the holder is not one";
  EXPECT_EQ(forwardInputs(Init("a"))[0], Init("a")->getArg(1));
  ASSERT_EQ(forwardInputs(Init("c")).size(), 1u);
  EXPECT_EQ(forwardInputs(Init("c"))[0], Init("c")->getArg(0));
}

TEST(TrainingCodeTest, FunctionsThatTrain) {
  Snippet S(R"cpp(
void train_epochs(torch::nn::Linear &model, torch::optim::SGD &opt,
          const torch::Tensor &x) {
  for (int i = 0; i < 3; ++i) {
    opt.zero_grad();
    model(x).sum().backward();
    opt.step();
  }
}
void one_step(torch::nn::Linear &model, torch::optim::SGD &opt,
          const torch::Tensor &x) {
  model(x).sum().backward();
  opt.step();
}
void loop_of_steps(torch::nn::Linear &model, torch::optim::SGD &opt,
          const torch::Tensor &x) {
  for (int i = 0; i < 3; ++i)
    one_step(model, opt, x);
}
void run_training(torch::nn::Linear &model, torch::optim::SGD &opt,
          const torch::Tensor &x) {
  train_epochs(model, opt, x);
}
void check_gradients(torch::nn::Linear &model, const torch::Tensor &x) {
  model(x).sum().backward();
})cpp");
  TrainingLoopModel Loops(S.context(), *S.Parents);
  auto Trains = [&](llvm::StringRef Name) {
    return isTrainingCode(S.function(Name), S.context(), Loops);
  };
  EXPECT_TRUE(Trains("train_epochs")) << "holds a training loop";
  EXPECT_TRUE(Trains("one_step")) << "called in one";
  EXPECT_TRUE(Trains("loop_of_steps"));
  EXPECT_TRUE(Trains("run_training")) << "calls a function that holds one";
  EXPECT_FALSE(Trains("check_gradients"))
      << "one backward pass, never in a loop";
}

} // namespace check_analyses_test
