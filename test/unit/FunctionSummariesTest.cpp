//===--- FunctionSummariesTest.cpp - summaries of other units' functions --===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ASTTestSupport.h"
#include "Summaries.h"
#include "analysis/program/FunctionSummarizer.h"
#include "analysis/summaries/CalledElsewhere.h"
#include "analysis/summaries/SummaryTable.h"
#include <algorithm>

using namespace clang;
using clang::tidy::libtorch::analysis::FunctionSummary;
using clang::tidy::libtorch::analysis::parseSummaryFile;
using clang::tidy::libtorch::analysis::SummarizedCall;
using clang::tidy::libtorch::analysis::SummarizedUnit;
using clang::tidy::libtorch::analysis::summarizeUnit;
using clang::tidy::libtorch::analysis::summaryFileText;
using clang::tidy::libtorch::analysis::SummaryLines;
using clang::tidy::libtorch::analysis::SummaryTable;
using clang::tidy::libtorch::analysis::SyncKind;

// Named, not anonymous: the unit tests compile in unity batches.
namespace function_summaries_test {

const FunctionSummary *named(const std::vector<FunctionSummary> &All,
                             llvm::StringRef Name) {
  for (const FunctionSummary &S : All)
    if (S.Name == Name)
      return &S;
  return nullptr;
}

TEST(FunctionSummariesTest, WaitsAndCallsOnEveryCall) {
  std::unique_ptr<ASTUnit> AST =
      libtorch_tidy::testing::parseWithMockTorch(R"cpp(
#include <torch/torch.h>
#include <iostream>
float waits(const torch::Tensor &t) {
  return t.sum().item<float>();
}
float calls(const torch::Tensor &t) { return waits(t) * 2; }
void prints(const torch::Tensor &t) { std::cout << t; }
void guarded(const torch::Tensor &t, bool verbose) {
  if (verbose)
    std::cout << t.item<float>();
  bool ok = verbose && waits(t) > 0;
  float v = verbose ? waits(t) : 0;
  (void)ok; (void)v;
}
float deferred(const torch::Tensor &t) {
  auto read = [&] { return t.item<float>(); };
  return sizeof(read);
}
float on_host() { return torch::ones({2}).sum().item<float>(); }
struct Sink {
  virtual void write(const torch::Tensor &t);
  void flush(const torch::Tensor &t);
};
void through_virtual(Sink &s, const torch::Tensor &t) { s.write(t); }
void through_member(Sink &s, const torch::Tensor &t) { s.flush(t); }
template <typename T> float generic(const T &t) { return t.template item<float>(); }
float use_generic(const torch::Tensor &t) { return generic(t); }
void quiet(torch::Tensor &sum, const torch::Tensor &t) { sum += t.detach(); }
void loops(const std::vector<torch::Tensor> &ts) {
  for (const auto &t : ts)
    waits(t);
}
)cpp");
  ASSERT_TRUE(AST);
  const std::vector<FunctionSummary> All = summarizeUnit(AST->getASTContext());

  const FunctionSummary *Waits = named(All, "waits");
  ASSERT_TRUE(Waits);
  ASSERT_EQ(Waits->Syncs.size(), 1u);
  EXPECT_EQ(Waits->Syncs[0].Operation, "item<float>()");
  EXPECT_EQ(Waits->Syncs[0].Kind, SyncKind::ReadScalar);
  EXPECT_EQ(Waits->Syncs[0].Place.Line, 5u);
  EXPECT_EQ(Waits->Syncs[0].Place.Spelling, "item");
  EXPECT_TRUE(Waits->Calls.empty());
  EXPECT_EQ(Waits->Usr,
            clang::tidy::libtorch::analysis::usrOf(
                AST->getASTContext()
                    .getTranslationUnitDecl()
                    ->lookup(&AST->getASTContext().Idents.get("waits"))
                    .front()));

  const FunctionSummary *Calls = named(All, "calls");
  ASSERT_TRUE(Calls);
  EXPECT_TRUE(Calls->Syncs.empty());
  ASSERT_EQ(Calls->Calls.size(), 1u);
  EXPECT_EQ(Calls->Calls[0].Usr, Waits->Usr);
  EXPECT_EQ(Calls->Calls[0].Place.Spelling, "waits");

  const FunctionSummary *Prints = named(All, "prints");
  ASSERT_TRUE(Prints);
  ASSERT_EQ(Prints->Syncs.size(), 1u);
  EXPECT_EQ(Prints->Syncs[0].Kind, SyncKind::Print);

  EXPECT_FALSE(named(All, "guarded")) << "if, &&, ?: are the caller's";
  EXPECT_FALSE(named(All, "deferred")) << "a lambda runs when it is called";
  EXPECT_FALSE(named(All, "on_host")) << "a host tensor waits for nothing";
  EXPECT_FALSE(named(All, "through_virtual")) << "another override may run";
  EXPECT_TRUE(named(All, "through_member"));
  EXPECT_FALSE(named(All, "generic")) << "a template is its instances'";
  EXPECT_FALSE(named(All, "quiet"));
  const FunctionSummary *Loops = named(All, "loops");
  ASSERT_TRUE(Loops) << "a loop's body runs on every call but an empty one";
  EXPECT_EQ(Loops->Calls.size(), 1u);
}

TEST(FunctionSummariesTest, WaitsOnlyOnPathsEveryCallTakes) {
  std::unique_ptr<ASTUnit> AST =
      libtorch_tidy::testing::parseWithMockTorch(R"cpp(
#include <torch/torch.h>
#include <iostream>
#include <stdexcept>
void launch(float *data, int64_t n);
void all_reduce(void *data, int64_t n);
enum class Backend { Gloo, Nccl };
void reduce(torch::Tensor &t) {
  if (t.is_cuda()) {
    all_reduce(t.data_ptr(), t.numel());
    return;
  }
  std::cout << t.sum().item<float>();
}
void reduce_with(torch::Tensor &t, Backend backend) {
  if (backend == Backend::Nccl)
    return;
  std::cout << t.sum().item<float>();
}
float after_empty(const torch::Tensor &t, int64_t n) {
  if (n == 0)
    return 0;
  return t.item<float>();
}
float after_check(const torch::Tensor &t) {
  if (!t.defined())
    throw std::runtime_error("undefined");
  return t.item<float>();
}
void hands_pointer(torch::Tensor &t) { launch(t.data_ptr<float>(), t.numel()); }
float reads_pointer(const torch::Tensor &t) { return *t.data_ptr<float>(); }
void writes(const torch::Tensor &t) { std::cout << t.cpu().size(0); }
void draws(const torch::Tensor &t, const torch::Tensor &boxes) {
  auto host = t.cpu();
  if (boxes.numel() > 0)
    std::cout << boxes[0].item<float>();
}
)cpp");
  ASSERT_TRUE(AST);
  const std::vector<FunctionSummary> All = summarizeUnit(AST->getASTContext());
  EXPECT_FALSE(named(All, "reduce"))
      << "after a device test's early return, only some calls read";
  EXPECT_FALSE(named(All, "reduce_with"))
      << "a backend flag's early return: only some calls read";
  const FunctionSummary *AfterEmpty = named(All, "after_empty");
  ASSERT_TRUE(AfterEmpty) << "an integer equality leaves out one case";
  EXPECT_EQ(AfterEmpty->Syncs.size(), 1u);
  const FunctionSummary *AfterCheck = named(All, "after_check");
  ASSERT_TRUE(AfterCheck) << "an error exit is no path of a working program";
  EXPECT_EQ(AfterCheck->Syncs.size(), 1u);
  const FunctionSummary *HandsPointer = named(All, "hands_pointer");
  ASSERT_TRUE(HandsPointer) << "it calls launch() on every call";
  EXPECT_TRUE(HandsPointer->Syncs.empty())
      << "a pointer handed to the device waits for nothing";
  const FunctionSummary *Writes = named(All, "writes");
  ASSERT_TRUE(Writes);
  EXPECT_FALSE(Writes->WaitsOtherwise) << "its one wait is the copy";
  const FunctionSummary *Draws = named(All, "draws");
  ASSERT_TRUE(Draws);
  EXPECT_TRUE(Draws->WaitsOtherwise)
      << "it reads a value on the calls that have boxes";
  const FunctionSummary *ReadsPointer = named(All, "reads_pointer");
  ASSERT_TRUE(ReadsPointer);
  ASSERT_EQ(ReadsPointer->Syncs.size(), 1u);
  EXPECT_EQ(ReadsPointer->Syncs[0].Kind, SyncKind::HostMemory);
}

FunctionSummary summary(const std::string &Usr, bool Waits,
                        const std::vector<std::string> &Callees) {
  FunctionSummary S;
  S.Usr = Usr;
  S.Name = "f_" + Usr;
  if (Waits)
    S.Syncs.push_back(
        {"item()", SyncKind::ReadScalar, {"/p/a.cpp", 3, 7, "item"}});
  for (const std::string &Callee : Callees)
    S.Calls.push_back(SummarizedCall{
        Callee, "f_" + Callee, {"/p/a.cpp", 4, 3, "f_" + Callee}});
  return S;
}

TEST(FunctionSummariesTest, NearestWaitThroughCalls) {
  // a -> b -> c (waits); a -> d -> a (a cycle); e waits itself; g -> h,
  // which no unit defines.
  SummaryTable Table({SummarizedUnit{
      "/p/a.cpp",
      {summary("a", false, {"d", "b"}), summary("b", false, {"c"}),
       summary("c", true, {}), summary("d", false, {"a"}),
       summary("e", true, {"c"}), summary("g", false, {"h"})}}});
  auto FromA = Table.syncReachedBy("a");
  ASSERT_TRUE(FromA);
  ASSERT_EQ(FromA->Calls.size(), 2u);
  EXPECT_EQ(FromA->Calls[0].Usr, "b");
  EXPECT_EQ(FromA->Calls[1].Usr, "c");
  auto FromE = Table.syncReachedBy("e");
  ASSERT_TRUE(FromE);
  EXPECT_TRUE(FromE->Calls.empty()) << "its own wait is the nearest";
  EXPECT_FALSE(Table.syncReachedBy("d") &&
               Table.syncReachedBy("d")->Calls.empty());
  EXPECT_FALSE(Table.syncReachedBy("g"));
  EXPECT_FALSE(Table.syncReachedBy("unknown"));
}

TEST(FunctionSummariesTest, DepthIsBounded) {
  std::vector<FunctionSummary> Chain;
  for (int I = 0; I < 20; ++I)
    Chain.push_back(summary("f" + std::to_string(I), I == 19,
                            {"f" + std::to_string(I + 1)}));
  SummaryTable Table({SummarizedUnit{"/p/a.cpp", Chain}});
  EXPECT_TRUE(Table.syncReachedBy("f15"));
  EXPECT_FALSE(Table.syncReachedBy("f0")) << "19 calls away";
}

TEST(FunctionSummariesTest, FileRoundTrip) {
  FunctionSummary Steps = summary("a", false, {"b"});
  Steps.Updates.Backward = 0;
  Steps.Updates.Step = 2;
  Steps.Updates.StepOutsideLoops = 2;
  Steps.HostCopies.push_back(
      {"torch::ones", "to(device)", {"/p/a.cpp", 5, 20, "to"}});
  Steps.HostCopies.push_back(
      {"torch::tensor", "to(device)", {"/p/a.cpp", 6, 30, "to"}, true});
  Steps.ReturnsDeviceTensor = true;
  Steps.Calls[0].Arguments = {SummarizedCall::HostArgument,
                              SummarizedCall::UnknownArgument, 0};
  FunctionSummary Reads = summary("b", true, {"a"});
  Reads.Syncs[0].Parameter = 3;
  std::vector<SummarizedUnit> Units = {{"/p/b.cpp", {Reads}},
                                       {"/p/a.cpp", {Steps}}};
  const std::string Text = summaryFileText(Units);
  auto Parsed = parseSummaryFile(Text);
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  ASSERT_EQ(Parsed->size(), 2u);
  EXPECT_EQ((*Parsed)[0].MainFile, "/p/a.cpp") << "sorted by file";
  EXPECT_EQ((*Parsed)[1].Functions[0].Syncs[0].Place.Column, 7u);
  EXPECT_EQ((*Parsed)[1].Functions[0].Calls[0].Usr, "a");
  EXPECT_TRUE((*Parsed)[0].Functions[0].Updates == Steps.Updates);
  EXPECT_TRUE((*Parsed)[0].Functions[0].ReturnsDeviceTensor);
  EXPECT_FALSE((*Parsed)[1].Functions[0].ReturnsDeviceTensor);
  ASSERT_EQ((*Parsed)[0].Functions[0].HostCopies.size(), 2u);
  EXPECT_EQ((*Parsed)[0].Functions[0].HostCopies[0].Copy, "to(device)");
  EXPECT_FALSE((*Parsed)[0].Functions[0].HostCopies[0].Constant);
  EXPECT_TRUE((*Parsed)[0].Functions[0].HostCopies[1].Constant);
  EXPECT_FALSE((*Parsed)[1].Functions[0].Updates.any());
  EXPECT_EQ((*Parsed)[1].Functions[0].Syncs[0].Parameter, 3u);
  EXPECT_EQ((*Parsed)[0].Functions[0].Calls[0].Arguments,
            Steps.Calls[0].Arguments);
  EXPECT_TRUE((*Parsed)[1].Functions[0].Calls[0].Arguments.empty());
  EXPECT_EQ(summaryFileText(*Parsed), Text) << "the same bytes again";
}

TEST(FunctionSummariesTest, FunctionsCalledElsewhere) {
  std::unique_ptr<ASTUnit> AST =
      libtorch_tidy::testing::parseWithMockTorch(R"cpp(
#include <torch/torch.h>
float elsewhere(const torch::Tensor &t);
float here(const torch::Tensor &t) { return 1; }
struct Sink {
  virtual void write(const torch::Tensor &t);
  void flush(const torch::Tensor &t);
};
template <typename T> float generic(const T &t) { return elsewhere(t); }
void step(Sink &s, const torch::Tensor &t, bool verbose) {
  here(t);
  s.write(t);
  if (verbose)
    s.flush(t);
  generic(t);
  t.sum();
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  const std::vector<std::string> Usrs =
      clang::tidy::libtorch::analysis::functionsCalledElsewhere(Context);
  // Sorted; under a condition too; not a body held here, a virtual call or
  // LibTorch's own functions.
  ASSERT_EQ(Usrs.size(), 2u);
  EXPECT_TRUE(std::is_sorted(Usrs.begin(), Usrs.end()));
  std::string Joined = Usrs[0] + " " + Usrs[1];
  EXPECT_NE(Joined.find("elsewhere"), std::string::npos);
  EXPECT_NE(Joined.find("flush"), std::string::npos);
}

TEST(FunctionSummariesTest, AnswerTextChangesWithWhatANoteShows) {
  SummaryTable Quiet({SummarizedUnit{
      "/p/a.cpp", {summary("a", false, {"b"}), summary("b", false, {})}}});
  EXPECT_EQ(Quiet.answerText("a"), "");
  EXPECT_EQ(Quiet.answerText("unknown"), "") << "no summary, no wait";
  SummaryTable Waits({SummarizedUnit{
      "/p/a.cpp", {summary("a", false, {"b"}), summary("b", true, {})}}});
  const std::string Text = Waits.answerText("a");
  EXPECT_NE(Text.find("call b f_b /p/a.cpp:4:3"), std::string::npos) << Text;
  EXPECT_NE(Text.find("wait b item() "), std::string::npos) << Text;
  // The wait moved a line: its note would point elsewhere.
  FunctionSummary Moved = summary("b", true, {});
  Moved.Syncs[0].Place.Line = 9;
  SummaryTable Later(
      {SummarizedUnit{"/p/a.cpp", {summary("a", false, {"b"}), Moved}}});
  EXPECT_NE(Later.answerText("a"), Text);
  // A function that starts to run a step: loops around its calls train.
  FunctionSummary Steps = summary("a", false, {"b"});
  Steps.Updates.Backward = Steps.Updates.BackwardOutsideLoops = 0;
  SummaryTable Trains(
      {SummarizedUnit{"/p/a.cpp", {Steps, summary("b", true, {})}}});
  EXPECT_NE(Trains.answerText("a"), Text);
  EXPECT_NE(Trains.answerText("a").find("updates backward=0 "),
            std::string::npos);
  // A function that starts to copy a host tensor.
  FunctionSummary Copies = summary("b", true, {});
  Copies.HostCopies.push_back(
      {"torch::ones", "to(device)", {"/p/a.cpp", 5, 20, "to"}});
  SummaryTable Copying(
      {SummarizedUnit{"/p/a.cpp", {summary("a", false, {"b"}), Copies}}});
  EXPECT_NE(Copying.answerText("a").find(
                "copy torch::ones to(device) 0 /p/a.cpp:5:20 to"),
            std::string::npos)
      << Copying.answerText("a");
  EXPECT_EQ(Copying.hostCopyReachedBy("a")->Calls.size(), 1u);
  // The same copy, now of constant data: the message changes.
  Copies.HostCopies[0].Constant = true;
  SummaryTable Constant(
      {SummarizedUnit{"/p/a.cpp", {summary("a", false, {"b"}), Copies}}});
  EXPECT_NE(Constant.answerText("a"), Copying.answerText("a"));
}

TEST(FunctionSummariesTest, ParametersTheWaitsRead) {
  std::unique_ptr<ASTUnit> AST =
      libtorch_tidy::testing::parseWithMockTorch(R"cpp(
#include <torch/torch.h>
int64_t longest(const torch::Tensor &lengths) {
  return lengths.max().item<int64_t>();
}
int64_t both(const torch::Tensor &a, const torch::Tensor &b) {
  return (a + b).sum().item<int64_t>();
}
int64_t hands_on(int64_t n, const torch::Tensor &x, const torch::Tensor &y) {
  return longest(y) + longest(x.cpu()) + longest(x + y) + n;
}
)cpp");
  ASSERT_TRUE(AST);
  const std::vector<FunctionSummary> All = summarizeUnit(AST->getASTContext());
  const FunctionSummary *Longest = named(All, "longest");
  ASSERT_TRUE(Longest);
  ASSERT_EQ(Longest->Syncs.size(), 1u);
  EXPECT_EQ(Longest->Syncs[0].Parameter, 0u);
  const FunctionSummary *Both = named(All, "both");
  ASSERT_TRUE(Both);
  ASSERT_EQ(Both->Syncs.size(), 1u);
  EXPECT_FALSE(Both->Syncs[0].Parameter) << "computed from two tensors";
  const FunctionSummary *HandsOn = named(All, "hands_on");
  ASSERT_TRUE(HandsOn);
  ASSERT_EQ(HandsOn->Calls.size(), 3u);
  EXPECT_EQ(HandsOn->Calls[0].Arguments, std::vector<int>{2});
  EXPECT_EQ(HandsOn->Calls[1].Arguments,
            std::vector<int>{SummarizedCall::HostArgument});
  EXPECT_TRUE(HandsOn->Calls[2].Arguments.empty()) << "unknown, left out";
}

TEST(FunctionSummariesTest, HostTensorsGivenWaitForNothing) {
  // a(x, y) -> b(y) -> c(z), which reads z; c also reads a tensor it
  // computes from its other parameters in another place.
  FunctionSummary A = summary("a", false, {"b"});
  A.Calls[0].Arguments = {1};
  FunctionSummary B = summary("b", false, {"c"});
  B.Calls[0].Arguments = {SummarizedCall::UnknownArgument, 0};
  FunctionSummary C = summary("c", true, {});
  C.Syncs[0].Parameter = 1;
  SummaryTable Table({SummarizedUnit{"/p/a.cpp", {A, B, C}}});
  const auto Host = [](std::initializer_list<unsigned> Set) {
    llvm::SmallBitVector Bits(4);
    for (unsigned I : Set)
      Bits.set(I);
    return Bits;
  };
  EXPECT_TRUE(Table.syncReachedBy("a"));
  EXPECT_TRUE(Table.syncReachedBy("a", Host({0})));
  EXPECT_FALSE(Table.syncReachedBy("a", Host({1})))
      << "y is handed on to the tensor c reads";
  EXPECT_FALSE(Table.syncReachedBy("c", Host({1})));
  EXPECT_TRUE(Table.syncReachedBy("c", Host({0})));
  // Another wait in c, on a tensor of its own: found, and it is the note.
  FunctionSummary Reads = C;
  Reads.Syncs.push_back(
      {"item()", SyncKind::ReadScalar, {"/p/a.cpp", 9, 7, "item"}});
  SummaryTable Both({SummarizedUnit{"/p/a.cpp", {A, B, Reads}}});
  auto Found = Both.syncReachedBy("a", Host({1}));
  ASSERT_TRUE(Found);
  EXPECT_EQ(Found->What.Place.Line, 9u);
  EXPECT_EQ(Found->Calls.size(), 2u);
  // The parameter a wait reads is part of the answer a cached result
  // depends on, and so is what a call hands on.
  FunctionSummary Other = C;
  Other.Syncs[0].Parameter = 0;
  SummaryTable Changed({SummarizedUnit{"/p/a.cpp", {A, B, Other}}});
  EXPECT_NE(Changed.answerText("a"), Table.answerText("a"));
  FunctionSummary Unknown = B;
  Unknown.Calls[0].Arguments.clear();
  SummaryTable Lost({SummarizedUnit{"/p/a.cpp", {A, Unknown, C}}});
  EXPECT_NE(Lost.answerText("a"), Table.answerText("a"));
}

TEST(FunctionSummariesTest, HostCopiesOnEveryCall) {
  std::unique_ptr<ASTUnit> AST =
      libtorch_tidy::testing::parseWithMockTorch(R"cpp(
#include <torch/torch.h>
torch::Tensor copies(const torch::Tensor &p, torch::Device d) {
  return p - torch::ones({2}).to(d);
}
torch::Tensor guarded(const torch::Tensor &p, torch::Device d, bool b) {
  if (b)
    return p - torch::ones({2}).to(d);
  return p;
}
torch::Tensor to_host(const torch::Tensor &p) {
  return p - torch::ones({2}).to(torch::kCPU);
}
torch::Tensor on_device(const torch::Tensor &p, torch::Device d) {
  return p - torch::ones({2}, d);
}
torch::Tensor moved(const torch::Tensor &p, torch::Device d) {
  return p.to(d);
}
torch::Tensor weighted(const torch::Tensor &p) {
  return p * torch::tensor({0.25, 0.75}).to(p.device());
}
torch::Tensor from_values(const std::vector<double> &v, torch::Device d) {
  return torch::tensor(v).to(d);
}
)cpp");
  ASSERT_TRUE(AST);
  const std::vector<FunctionSummary> All = summarizeUnit(AST->getASTContext());
  const FunctionSummary *Copies = named(All, "copies");
  ASSERT_TRUE(Copies);
  ASSERT_EQ(Copies->HostCopies.size(), 1u);
  EXPECT_EQ(Copies->HostCopies[0].Factory, "torch::ones");
  EXPECT_EQ(Copies->HostCopies[0].Copy, "to(d)");
  EXPECT_EQ(Copies->HostCopies[0].Place.Line, 4u);
  EXPECT_EQ(Copies->HostCopies[0].Place.Spelling, "to");
  EXPECT_FALSE(named(All, "guarded")) << "the caller cannot see the condition";
  EXPECT_FALSE(named(All, "to_host")) << "no transfer to the GPU";
  // Summarized for what they return, with no host copy.
  ASSERT_TRUE(named(All, "on_device"));
  EXPECT_TRUE(named(All, "on_device")->HostCopies.empty());
  ASSERT_TRUE(named(All, "moved"));
  EXPECT_TRUE(named(All, "moved")->HostCopies.empty())
      << "not a tensor made here";
  const FunctionSummary *Weighted = named(All, "weighted");
  ASSERT_TRUE(Weighted);
  ASSERT_EQ(Weighted->HostCopies.size(), 1u);
  EXPECT_TRUE(Weighted->HostCopies[0].Constant) << "constants in the call";
  EXPECT_EQ(Weighted->HostCopies[0].Factory, "torch::tensor");
  ASSERT_TRUE(named(All, "from_values")) << "it returns a device tensor";
  EXPECT_TRUE(named(All, "from_values")->HostCopies.empty())
      << "a parameter's values may change from one call to the next";
}

TEST(FunctionSummariesTest, TensorsReturnedOnTheDevice) {
  std::unique_ptr<ASTUnit> AST =
      libtorch_tidy::testing::parseWithMockTorch(R"cpp(
#include <torch/torch.h>
torch::Tensor stacked(const std::vector<torch::Tensor> &ts, torch::Device d) {
  return torch::stack(ts).to(d);
}
torch::Tensor made(torch::Device d) { return torch::zeros({2}, d); }
torch::Tensor either(const torch::Tensor &t, torch::Device d, bool b) {
  if (b)
    return t;
  return t.to(d);
}
const torch::Tensor &kept(const torch::Tensor &t) { return t; }
)cpp");
  ASSERT_TRUE(AST);
  const std::vector<FunctionSummary> All = summarizeUnit(AST->getASTContext());
  const FunctionSummary *Stacked = named(All, "stacked");
  ASSERT_TRUE(Stacked);
  EXPECT_TRUE(Stacked->ReturnsDeviceTensor);
  ASSERT_TRUE(named(All, "made"));
  EXPECT_TRUE(named(All, "made")->ReturnsDeviceTensor);
  EXPECT_FALSE(named(All, "either")) << "one return may be on the host";
  EXPECT_FALSE(named(All, "kept")) << "a reference, not a tensor made here";
  SummaryTable Table({SummarizedUnit{"/p/a.cpp", All}});
  EXPECT_NE(Table.answerText(Stacked->Usr).find("returns-device-tensor"),
            std::string::npos);
}

TEST(FunctionSummariesTest, UpdatesAsTheUnitsModelMeasuresThem) {
  std::unique_ptr<ASTUnit> AST =
      libtorch_tidy::testing::parseWithMockTorch(R"cpp(
#include <torch/torch.h>
struct Trainer {
  torch::nn::Linear model{4, 1};
  torch::optim::SGD optimizer{model->parameters(), 0.1};
  void apply() { optimizer.step(); }
  void step(const torch::Tensor &x) {
    model(x).sum().backward();
    apply();
  }
  void epoch(const std::vector<torch::Tensor> &xs) {
    for (const auto &x : xs)
      step(x);
  }
  void maybe_backward(const torch::Tensor &x, bool train) {
    if (train)
      model(x).sum().backward();
  }
  torch::Tensor evaluate(const torch::Tensor &x) { return model(x); }
};
)cpp");
  ASSERT_TRUE(AST);
  const std::vector<FunctionSummary> All = summarizeUnit(AST->getASTContext());
  const FunctionSummary *Step = named(All, "Trainer::step");
  ASSERT_TRUE(Step);
  EXPECT_EQ(Step->Updates.Backward, 0u);
  EXPECT_EQ(Step->Updates.BackwardOutsideLoops, 0u);
  EXPECT_EQ(Step->Updates.Step, 1u) << "through apply()";
  EXPECT_EQ(Step->Updates.StepOutsideLoops, 1u);
  const FunctionSummary *Epoch = named(All, "Trainer::epoch");
  ASSERT_TRUE(Epoch);
  EXPECT_EQ(Epoch->Updates.Step, 2u);
  EXPECT_FALSE(Epoch->Updates.StepOutsideLoops) << "its own step loop";
  EXPECT_FALSE(Epoch->Updates.BackwardOutsideLoops);
  const FunctionSummary *Maybe = named(All, "Trainer::maybe_backward");
  ASSERT_TRUE(Maybe) << "an update under a condition counts, as in the model";
  EXPECT_EQ(Maybe->Updates.BackwardOutsideLoops, 0u);
  EXPECT_FALSE(Maybe->Updates.Step);
  EXPECT_FALSE(named(All, "Trainer::evaluate")) << "no fact at all";
}

TEST(FunctionSummariesTest, BadFilesSayWhy) {
  const auto Why = [](llvm::StringRef Text) {
    auto Parsed = parseSummaryFile(Text);
    return Parsed ? std::string("parsed") : llvm::toString(Parsed.takeError());
  };
  const std::string Header =
      "{\"format\":\"libtorch-tidy-summaries\",\"version\":4}\n";
  // A file of one unit with one function, \p Function.
  const auto WithFunction = [&](llvm::StringRef Function) {
    return Header + "{\"usr\":\"\",\"mainFile\":\"/a.cpp\"}\n" +
           "{\"usr\":\"c:@F@f\",\"mainFile\":\"/a.cpp\",\"function\":" +
           Function.str() + "}\n";
  };
  EXPECT_NE(Why("{").find("not a summary file"), std::string::npos);
  // Nesting without end is refused before the parser recurses into it
  // (200,000 levels overflow its stack); brackets in strings do not count.
  EXPECT_NE(Why(std::string(200000, '[')).find("nested deeper than 64"),
            std::string::npos);
  EXPECT_NE(Why(std::string(65, '{')).find("nested deeper than 64"),
            std::string::npos);
  EXPECT_NE(Why(Header + "{\"usr\":\"\",\"mainFile\":\"/a.cpp\",\"x\":" +
                std::string(100, '[') + "}\n")
                .find("nested deeper than 64"),
            std::string::npos);
  EXPECT_EQ(Why(Header + "{\"usr\":\"\",\"mainFile\":\"/a.cpp\",\"note\":\"" +
                std::string(100, '[') + "\"}\n"),
            "parsed");
  EXPECT_NE(Why("[]").find("\"format\""), std::string::npos);
  EXPECT_NE(Why("{\"format\":\"libtorch-tidy-summaries\",\"version\":3}\n")
                .find("version is not 4"),
            std::string::npos);
  // The form and order of the lines, checked before any is parsed.
  EXPECT_NE(Why(Header + "{\"mainFile\":\"/a.cpp\",\"usr\":\"\"}\n")
                .find("a line is not a summary's"),
            std::string::npos);
  EXPECT_NE(Why(Header + "{\"usr\":\"b\",\"mainFile\":\"/a.cpp\"}\n" +
                "{\"usr\":\"a\",\"mainFile\":\"/a.cpp\"}\n")
                .find("not sorted by USR"),
            std::string::npos);
  EXPECT_NE(
      Why(Header + "{\"usr\":\"\",\"mainFile\":\"/a.cpp\"}").find("cut short"),
      std::string::npos);
  EXPECT_NE(
      Why(WithFunction(
              R"json({"usr": "c:@F@f", "name": "f", "updates": {}, "returnsDeviceTensor": false, "hostCopies": [], "calls": [], "syncs": [{"operation": "item()", "kind": "teleport", "at": {"file": "/a.cpp", "line": 1, "column": 1, "spelling": "item"}}]})json"))
          .find("wait is malformed in /a.cpp"),
      std::string::npos);
  EXPECT_NE(
      Why(WithFunction(
              R"json({"usr": "c:@F@f", "name": "f", "updates": {}, "returnsDeviceTensor": false, "hostCopies": [], "syncs": [], "calls": [{"usr": "", "name": "g", "at": {"file": "/a.cpp", "line": 0, "column": 1, "spelling": "g"}}]})json"))
          .find("call is malformed"),
      std::string::npos);
  EXPECT_NE(
      Why(WithFunction(
              R"json({"usr": "c:@F@f", "name": "f", "syncs": [], "calls": [], "updates": {}, "returnsDeviceTensor": false, "hostCopies": [{"factory": "", "copy": "to(d)", "at": {"file": "/a.cpp", "line": 1, "column": 1, "spelling": "to"}}]})json"))
          .find("host copy is malformed"),
      std::string::npos);
  // A parameter no function has, a source that is none.
  EXPECT_NE(
      Why(WithFunction(
              R"json({"usr": "c:@F@f", "name": "f", "updates": {}, "returnsDeviceTensor": false, "hostCopies": [], "calls": [], "syncs": [{"operation": "item()", "kind": "read-scalar", "parameter": -1, "at": {"file": "/a.cpp", "line": 1, "column": 1, "spelling": "item"}}]})json"))
          .find("wait is malformed in /a.cpp"),
      std::string::npos);
  EXPECT_NE(
      Why(WithFunction(
              R"json({"usr": "c:@F@f", "name": "f", "updates": {}, "returnsDeviceTensor": false, "hostCopies": [], "syncs": [], "calls": [{"usr": "c:@F@g", "name": "g", "arguments": [0, -3], "at": {"file": "/a.cpp", "line": 1, "column": 1, "spelling": "g"}}]})json"))
          .find("call is malformed"),
      std::string::npos);
  EXPECT_NE(
      Why(WithFunction(
              R"json({"usr": "c:@F@f", "name": "f", "updates": {}, "returnsDeviceTensor": false, "hostCopies": [], "syncs": [], "calls": [{"usr": "c:@F@g", "name": "g", "arguments": "all", "at": {"file": "/a.cpp", "line": 1, "column": 1, "spelling": "g"}}]})json"))
          .find("call is malformed"),
      std::string::npos);
  // A distance past the walk's bound, or outside the loops but not in all
  // of the body, is no distance the model measures.
  EXPECT_NE(
      Why(WithFunction(
              R"json({"usr": "c:@F@f", "name": "f", "syncs": [], "calls": [], "hostCopies": [], "updates": {"backward": 99}})json"))
          .find("updates is malformed"),
      std::string::npos);
  EXPECT_NE(
      Why(WithFunction(
              R"json({"usr": "c:@F@f", "name": "f", "syncs": [], "calls": [], "hostCopies": [], "updates": {"stepOutsideLoops": 0}})json"))
          .find("updates is malformed"),
      std::string::npos);
  // A line's USR must be its function's: the search trusts it.
  EXPECT_NE(
      Why(WithFunction(
              R"json({"usr": "c:@F@g", "name": "g", "syncs": [], "calls": [], "hostCopies": [], "updates": {}, "returnsDeviceTensor": false})json"))
          .find("is not its function's"),
      std::string::npos);
  EXPECT_EQ(Why(Header), "parsed");
}

// The checks' table finds a function's line by a binary search over the
// file's bytes and parses only what its questions reach.
TEST(FunctionSummariesTest, LinesAreFoundByUsrWithoutParsingTheRest) {
  std::vector<SummarizedUnit> Units(2);
  Units[0].MainFile = "/b.cpp";
  Units[1].MainFile = "/a.cpp";
  for (const char *Usr : {"c:@F@m", "c:@F@a", "c:@F@z", "c:@F@q\"uote"}) {
    FunctionSummary F;
    F.Usr = Usr;
    F.Name = std::string("name of ") + Usr;
    Units[0].Functions.push_back(F);
  }
  // Defined in both units: the first main file's line answers.
  FunctionSummary Shared;
  Shared.Usr = "c:@F@m";
  Shared.Name = "from a.cpp";
  Units[1].Functions.push_back(Shared);
  std::string Text = summaryFileText(Units);
  // A damaged line that nobody asks for is never parsed.
  const size_t Z = Text.find("{\"usr\":\"c:@F@z\"");
  ASSERT_NE(Z, std::string::npos);
  Text.insert(Text.find("\"function\":", Z) + 11, "BROKEN");
  llvm::Expected<SummaryLines> Lines = SummaryLines::of(Text);
  ASSERT_TRUE(bool(Lines)) << llvm::toString(Lines.takeError());
  EXPECT_EQ(Lines->find("c:@F@a")->Name, "name of c:@F@a");
  EXPECT_EQ(Lines->find("c:@F@m")->Name, "from a.cpp");
  EXPECT_EQ(Lines->find("c:@F@q\"uote")->Name, "name of c:@F@q\"uote");
  EXPECT_FALSE(Lines->find("c:@F@z")) << "its line does not parse";
  EXPECT_FALSE(Lines->find("c:@F@b"));
  EXPECT_FALSE(Lines->find("c:@F@zz"));
  EXPECT_FALSE(Lines->find("")) << "a unit's own line is no function";
  EXPECT_FALSE(
      SummaryLines::of(Text.substr(0, Text.find('\n') + 1))->find("c:@F@a"));
}

} // namespace function_summaries_test

namespace function_summaries_test {

// What a host gets through checks/Summaries.h: a unit's summaries as text,
// which read back to what the summarizer made, and the functions the unit
// calls elsewhere.
TEST(FunctionSummariesTest, HostReadsBackTheTextOfAUnit) {
  std::unique_ptr<ASTUnit> AST =
      libtorch_tidy::testing::parseWithMockTorch(R"cpp(
#include <torch/torch.h>
float elsewhere(const torch::Tensor &t);
float waits(const torch::Tensor &t) { return t.sum().item<float>(); }
float calls(const torch::Tensor &t) { return elsewhere(t) + waits(t); }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  const clang::tidy::libtorch::summaries::UnitSummaries Unit =
      clang::tidy::libtorch::summaries::summarizeUnit(Context);
  ASSERT_EQ(Unit.CalledElsewhere.size(), 1u);
  EXPECT_NE(Unit.CalledElsewhere[0].find("elsewhere"), std::string::npos);
  ASSERT_FALSE(Unit.Text.empty());
  llvm::Expected<std::vector<FunctionSummary>> Read =
      clang::tidy::libtorch::summaries::readUnitSummaries(Unit.Text);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  const std::vector<FunctionSummary> Made = summarizeUnit(Context);
  ASSERT_EQ(Read->size(), Made.size());
  const FunctionSummary *Waits = named(*Read, "waits");
  ASSERT_TRUE(Waits);
  ASSERT_EQ(Waits->Syncs.size(), 1u);
  EXPECT_EQ(Waits->Syncs[0].Operation, "item<float>()");

  // A unit with nothing to summarize hands on no text; a text that is not
  // a list of summaries reads as an error, not as none.
  std::unique_ptr<ASTUnit> Empty =
      libtorch_tidy::testing::parseWithMockTorch("int answer() { return 42; }");
  ASSERT_TRUE(Empty);
  EXPECT_TRUE(
      clang::tidy::libtorch::summaries::summarizeUnit(Empty->getASTContext())
          .Text.empty());
  for (llvm::StringRef Bad : {"{}", "[", "[{\"usr\": 3}]"}) {
    llvm::Expected<std::vector<FunctionSummary>> Error =
        clang::tidy::libtorch::summaries::readUnitSummaries(Bad);
    EXPECT_FALSE(bool(Error)) << Bad.str();
    if (!Error)
      llvm::consumeError(Error.takeError());
  }
}

} // namespace function_summaries_test
