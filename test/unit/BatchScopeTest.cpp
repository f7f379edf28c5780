//===--- BatchScopeTest.cpp - per-step-or-batch scope unit tests ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/BatchScope.h"
#include "TrainingStepFixture.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::BatchScope;
using clang::tidy::libtorch::analysis::StepPath;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace batch_scope_test {

/// A dataset and its loader type beside the training step.
const char DatasetDeclarations[] = R"cpp(
#include <vector>
struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override;
  c10::optional<size_t> size() const override { return 64; }
};
using Loader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));
)cpp";

/// Parses the snippet and answers questions about `probe(N)` calls in it.
class BatchScopeTest : public libtorch_tidy::testing::TrainingStepFixture {
protected:
  void parse(const std::string &Code) {
    parseStep(libtorch_tidy::testing::trainingStepPrelude(DatasetDeclarations),
              Code);
    Scope = std::make_unique<BatchScope>(AST->getASTContext(), *Loops);
  }

  std::optional<StepPath> perBatch(int Id) {
    return Scope->perBatch(probe(Id));
  }
  bool isPerBatch(int Id) { return perBatch(Id).has_value(); }
  /// The loop around probe(Id) that is an evaluation loop, if any.
  bool inEvaluationBatch(int Id) {
    std::optional<StepPath> Path = perBatch(Id);
    return Path && Scope->isEvaluationLoop(Path->StepLoop);
  }

  std::unique_ptr<BatchScope> Scope;
};

TEST_F(BatchScopeTest, TrainingStepsAsTheModelSeesThem) {
  parse(R"cpp(
void train(Step &s) {
  probe(1);
  for (int epoch = 0; epoch < 3; ++epoch) {
    probe(2);
    if (epoch % 5 == 0)
      probe(3);
    for (int i = 0; i < 10; ++i) {
      probe(4);
      if (i % 100 == 0)
        probe(5);
      s.once();
    }
  }
  probe(6);
})cpp");
  EXPECT_FALSE(isPerBatch(1)) << "before training";
  EXPECT_FALSE(isPerBatch(2)) << "once per epoch";
  EXPECT_FALSE(isPerBatch(3)) << "every 5 epochs";
  EXPECT_TRUE(isPerBatch(4));
  EXPECT_FALSE(inEvaluationBatch(4)) << "a training step";
  EXPECT_FALSE(isPerBatch(5)) << "every 100 steps";
  EXPECT_FALSE(isPerBatch(6)) << "after training";
}

TEST_F(BatchScopeTest, EvaluationLoops) {
  parse(R"cpp(
void over_loader(Loader &loader, torch::nn::Linear model) {
  probe(1);
  for (auto &batch : *loader) {
    probe(2);
    model(batch.data);
  }
}
void under_guard(torch::nn::Linear model, std::vector<torch::Tensor> &xs) {
  torch::NoGradGuard no_grad;
  for (auto &x : xs) {
    probe(3);
    model(x);
  }
}
void after_eval(torch::nn::Linear model, std::vector<torch::Tensor> &xs) {
  model->eval();
  for (auto &x : xs) {
    probe(4);
    model->forward(x);
  }
}
void plain(torch::nn::Linear model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs) {
    probe(5);
    model(x);
  }
}
void no_model(Loader &loader) {
  for (auto &batch : *loader) {
    probe(6);
    batch.data.sum();
  }
}
void evaluate(torch::nn::Linear model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs) {
    probe(7);
    model(x);
  }
}
void caller(torch::nn::Linear model, std::vector<torch::Tensor> &xs) {
  torch::NoGradGuard no_grad;
  evaluate(model, xs);
})cpp");
  EXPECT_FALSE(isPerBatch(1));
  EXPECT_TRUE(inEvaluationBatch(2)) << "a data loader and a forward pass";
  EXPECT_TRUE(inEvaluationBatch(3)) << "under a no-grad guard";
  EXPECT_TRUE(inEvaluationBatch(4)) << "after model->eval()";
  EXPECT_FALSE(isPerBatch(5)) << "no evidence that it evaluates";
  EXPECT_FALSE(isPerBatch(6)) << "no forward pass";
  EXPECT_TRUE(inEvaluationBatch(7)) << "its caller holds a no-grad guard";
}

TEST_F(BatchScopeTest, InferenceHelpersAndScriptedModels) {
  parse(R"cpp(
std::vector<int> infer(torch::nn::Linear model, torch::Tensor x) {
  torch::NoGradGuard no_grad;
  model(x);
  return {};
}
void save(torch::Tensor x) {
  torch::NoGradGuard no_grad;
  x.sum();
}
void files(torch::nn::Linear model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs) {
    probe(1);
    infer(model, x);
  }
  for (auto &x : xs) {
    probe(2);
    save(x);
  }
}
void scripted(torch::jit::Module &model, std::vector<torch::Tensor> &xs) {
  model.eval();
  for (auto &x : xs) {
    probe(3);
    model.forward({x});
  }
}
void methods(torch::jit::Module &model, torch::Tensor memory) {
  torch::NoGradGuard no_grad;
  for (int t = 0; t < 8; ++t) {
    probe(4);
    model.run_method("decode", memory);
  }
  for (int t = 0; t < 8; ++t) {
    probe(5);
    model.get_method("decode")({memory});
  }
  for (int t = 0; t < 8; ++t) {
    probe(6);
    model.hasattr("decode");
  }
})cpp");
  EXPECT_TRUE(inEvaluationBatch(1))
      << "it calls a helper that runs the forward pass under its own guard";
  EXPECT_FALSE(isPerBatch(2)) << "the helper's guard covers no forward pass";
  EXPECT_TRUE(inEvaluationBatch(3)) << "after a TorchScript module's eval()";
  EXPECT_TRUE(inEvaluationBatch(4)) << "run_method runs a compiled method";
  EXPECT_TRUE(inEvaluationBatch(5)) << "so does a Method got by name";
  EXPECT_FALSE(isPerBatch(6)) << "an attribute look-up computes nothing";
}

TEST_F(BatchScopeTest, HelpersAndLambdasCalledPerBatch) {
  parse(R"cpp(
torch::Tensor mask() { probe(1); return torch::ones({4}); }
torch::Tensor setup() { probe(2); return torch::ones({4}); }
struct Net : torch::nn::Module {
  Net() { probe(3); }
  torch::Tensor forward(torch::Tensor x) {
    for (int i = 0; i < 2; ++i)
      probe(4);
    return x;
  }
};
void train(Step &s, Loader &loader, Net &net) {
  auto h = setup();
  auto labels = [&] { probe(5); return torch::zeros({4}); };
  for (int i = 0; i < 10; ++i) {
    auto m = mask();
    auto y = labels();
    s.once();
  }
  torch::NoGradGuard no_grad;
  for (auto &batch : *loader)
    net.forward(batch.data);
})cpp");
  std::optional<StepPath> Helper = perBatch(1);
  ASSERT_TRUE(Helper.has_value());
  EXPECT_EQ(Helper->Calls.size(), 1u);
  EXPECT_FALSE(isPerBatch(2)) << "called once, before the loop";
  EXPECT_FALSE(isPerBatch(3)) << "a constructor";
  EXPECT_TRUE(inEvaluationBatch(4))
      << "a module's own loop runs in its caller's evaluation batch";
  EXPECT_TRUE(isPerBatch(5)) << "a lambda called in the step";
}

TEST_F(BatchScopeTest, DataPipeline) {
  parse(R"cpp(
torch::Tensor noise() { probe(1); return torch::rand({4}); }
torch::data::Example<> Points::get(size_t index) {
  probe(2);
  return {torch::zeros({4}) + noise(), torch::zeros({1})};
}
struct Jitter : torch::data::transforms::Transform<torch::data::Example<>,
                                                   torch::data::Example<>> {
  torch::data::Example<> apply(torch::data::Example<> e) override {
    probe(3);
    return e;
  }
};
struct Shift : torch::data::transforms::TensorTransform<> {
  torch::Tensor operator()(torch::Tensor input) override {
    probe(4);
    return input;
  }
};
void train(Step &s) {
  Points points;
  auto lambda = torch::data::transforms::Lambda<torch::data::Example<>>(
      [](torch::data::Example<> e) { probe(5); return e; });
  for (int i = 0; i < 10; ++i) {
    auto sample = points.get(i);
    probe(6);
    s.once();
  }
})cpp");
  EXPECT_TRUE(Scope->isInDataPipeline(probe(1))) << "called from get()";
  EXPECT_FALSE(isPerBatch(1)) << "reached from the step, but through get()";
  EXPECT_FALSE(isPerBatch(2)) << "get() called from the step";
  EXPECT_TRUE(Scope->isInDataPipeline(probe(3)));
  EXPECT_TRUE(Scope->isInDataPipeline(probe(4)));
  EXPECT_TRUE(Scope->isInDataPipeline(probe(5))) << "a lambda transform";
  EXPECT_FALSE(Scope->isInDataPipeline(probe(6)));
  EXPECT_TRUE(isPerBatch(6));
}

} // namespace batch_scope_test
