// The fix-its go into the header: each surface fixes a copy of its own.
// RUN: rm -rf %t.plugin %t.cli && mkdir -p %t.plugin %t.cli
// RUN: cp %S/Inputs/eval-trainer.h %t.plugin/ && cp %S/Inputs/eval-trainer.h %t.cli/
// RUN: %check_libtorch_tidy --no-other-majors --variants plugin-mock %s libtorch-eval-without-no-grad %t -- --header-filter=eval-trainer -- -I%t.plugin
// RUN: %check_libtorch_tidy --variants cli-mock %s libtorch-eval-without-no-grad %t -- --header-filter=eval-trainer -- -I%t.cli
// RUN: %FileCheck --check-prefix=HEADER --input-file=%t.plugin/eval-trainer.h %s
// RUN: %FileCheck --check-prefix=HEADER --input-file=%t.cli/eval-trainer.h %s
//
// HEADER: {{^}}  float validate() {{[{]}}{{$}}
// HEADER-NEXT: {{^}}    torch::NoGradGuard no_grad;{{$}}
// HEADER: {{^}}  float validate_quietly() {{[{]}}{{$}}
// HEADER-NEXT: {{^}}    model_->eval();{{$}}
// HEADER: {{^}}inline float Scorer::score(const std::vector<torch::Tensor> &batches) {{[{]}}{{$}}
// HEADER-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}

// The evaluation of a trainer class defined in a header is reported in the
// header, with a note at the call in this program's epoch loop.
//
// CHECK-MESSAGES: eval-trainer.h:26:5: warning: evaluation loop runs the model with autograd on: {{.*}} [libtorch-eval-without-no-grad]
// CHECK-MESSAGES: eval-trainer.h:24:13: note: 'eval()' switches dropout and batch norm to inference behaviour; it does not turn autograd off
// CHECK-MESSAGES: .cpp:53:25: note: the evaluation runs from this call in a training loop
// CHECK-MESSAGES: eval-trainer.h:60:3: warning: evaluation loop runs the model with autograd on: {{.*}} [libtorch-eval-without-no-grad]
// CHECK-MESSAGES: eval-trainer.h:58:11: note: 'eval()' switches dropout and batch norm to inference behaviour
// CHECK-MESSAGES: .cpp:58:5: note: the evaluation runs from this call in a training loop

#include <torch/torch.h>

#include "eval-trainer.h"

#include <cstddef>
#include <cstdio>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({2})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

int main() {
  auto train = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  auto test = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  torch::nn::Sequential model(torch::nn::Linear(4, 2));
  Trainer<decltype(train)> trainer(model, train, test);
  Scorer scorer(model);
  std::vector<torch::Tensor> held_out;
  for (int epoch = 0; epoch < 3; ++epoch) {
    trainer.train_epoch();
    std::printf("%f\n", trainer.validate());
    {
      torch::NoGradGuard no_grad;
      std::printf("%f\n", trainer.validate_quietly());
    }
    scorer.score(held_out);
  }
}

// --no-other-majors (first RUN line): the plugins of other LLVM majors would
// fix the same header copy again, so this test runs the build's plugin only.
