//===--- HostSyncArgumentsTest.cpp - hidden syncs, waits with a purpose --===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/HostSyncOperations.h"
#include "ASTTestSupport.h"
#include "analysis/devices/DeviceTests.h"
#include "analysis/devices/HostPointerReads.h"
#include "analysis/steps/SyncPurpose.h"
#include "utils/UserCode.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::endsLoopEarly;
using clang::tidy::libtorch::analysis::functionSync;
using clang::tidy::libtorch::analysis::HostSync;
using clang::tidy::libtorch::analysis::isBooleanMask;
using clang::tidy::libtorch::analysis::isWaitWithPurpose;
using clang::tidy::libtorch::analysis::listedFunctionSync;
using clang::tidy::libtorch::analysis::measuresLatency;
using clang::tidy::libtorch::analysis::StepPath;
using clang::tidy::libtorch::analysis::SyncKind;
using clang::tidy::libtorch::analysis::tensorMethodSync;
using clang::tidy::libtorch::analysis::tensorPrintSync;
using clang::tidy::libtorch::analysis::waitsAsCalled;
using clang::tidy::libtorch::utils::UserCodeParents;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace host_sync_operations_test {

const char Prelude[] = R"cpp(
#include <torch/torch.h>
#include <chrono>
using torch::indexing::Slice;
template <typename T> void probe(int id, const T &value);
)cpp";

class HostSyncArgumentsTest : public ::testing::Test {
protected:
  void parse(const std::string &Code) {
    AST = libtorch_tidy::testing::parseWithMockTorch(Prelude + Code);
    ASSERT_TRUE(AST);
    Parents = std::make_unique<UserCodeParents>(AST->getASTContext());
  }

  /// The argument of `probe(Id, <expr>)`, implicit nodes stripped.
  const Expr *probed(int Id) {
    auto Found = match(callExpr(callee(functionDecl(hasName("probe"))),
                                hasArgument(0, integerLiteral(equals(Id))))
                           .bind("probe"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << "probe(" << Id << ")";
    if (Found.empty())
      return nullptr;
    return Found[0].getNodeAs<CallExpr>("probe")->getArg(1)->IgnoreImplicit();
  }
  const CallExpr *probedCall(int Id) {
    return dyn_cast_or_null<CallExpr>(probed(Id));
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UserCodeParents> Parents;
};

TEST_F(HostSyncArgumentsTest, WaitsAsCalled) {
  parse(R"cpp(
void f(torch::Tensor x, torch::Tensor labels, torch::Tensor counts) {
  auto valid = labels != -1;
  probe(1, labels.bincount());
  probe(2, torch::bincount(labels, {}, 10));
  probe(3, x.histc(20));
  probe(4, x.histc(20, 0, 1));
  probe(5, x.repeat_interleave(counts));
  probe(6, x.repeat_interleave(counts, 0, 64));
  probe(7, x.repeat_interleave(2));
  probe(8, torch::repeat_interleave(counts));
  probe(9, x.index({valid}));
  probe(10, x.index({Slice(), labels}));
  probe(11, x.nonzero());
})cpp");
  EXPECT_TRUE(waitsAsCalled(probedCall(1))) << "bincount always reads max";
  EXPECT_TRUE(waitsAsCalled(probedCall(2))) << "minlength does not help";
  EXPECT_TRUE(waitsAsCalled(probedCall(3))) << "histc without a range";
  EXPECT_FALSE(waitsAsCalled(probedCall(4))) << "histc with min and max";
  EXPECT_TRUE(waitsAsCalled(probedCall(5))) << "tensor repeats, no size";
  EXPECT_FALSE(waitsAsCalled(probedCall(6))) << "output_size given";
  EXPECT_FALSE(waitsAsCalled(probedCall(7))) << "an integer count";
  EXPECT_TRUE(waitsAsCalled(probedCall(8)));
  EXPECT_TRUE(waitsAsCalled(probedCall(9))) << "a boolean mask";
  EXPECT_FALSE(waitsAsCalled(probedCall(10))) << "integer indices";
  EXPECT_TRUE(waitsAsCalled(probedCall(11))) << "unconditional ops";
}

TEST_F(HostSyncArgumentsTest, BooleanMasks) {
  parse(R"cpp(
void f(torch::Tensor x, torch::Tensor y) {
  auto mask = x > 0;
  auto both = mask & y.eq(1);
  auto maybe = x.argmax(1);
  torch::Tensor changed = x > 0;
  changed = x.abs();
  probe(1, x < y);
  probe(2, ~x.gt(0));
  probe(3, mask);
  probe(4, both);
  probe(5, maybe);
  probe(6, x + y);
  probe(7, changed);
  probe(8, x & y);
})cpp");
  EXPECT_TRUE(isBooleanMask(probed(1)));
  EXPECT_TRUE(isBooleanMask(probed(2)));
  EXPECT_TRUE(isBooleanMask(probed(3))) << "a local set to a comparison";
  EXPECT_TRUE(isBooleanMask(probed(4)));
  EXPECT_FALSE(isBooleanMask(probed(5))) << "indices";
  EXPECT_FALSE(isBooleanMask(probed(6)));
  EXPECT_FALSE(isBooleanMask(probed(7))) << "reassigned to a float tensor";
  EXPECT_FALSE(isBooleanMask(probed(8))) << "bitwise and of unknown tensors";
}

TEST_F(HostSyncArgumentsTest, WaitsWithAPurpose) {
  parse(R"cpp(
void timed(torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    auto start = std::chrono::steady_clock::now();
    probe(1, x.sum());
    torch::cuda::synchronize();
    auto end = std::chrono::steady_clock::now();
  }
  for (int i = 0; i < 10; ++i) {
    auto start = std::chrono::steady_clock::now();
    torch::cuda::synchronize();
  }
}
void decode(torch::Tensor x) {
  for (int t = 0; t < 10; ++t) {
    if (x.item<int>() == 2)
      break;
    if (x.item<int>() == 3) {
      x = x + 1;
      return;
    }
    if (x.item<int>() == 4)
      x = x + 1;
    for (int j = 0; j < 2; ++j)
      if (x.item<int>() == 5)
        break;
  }
  while (x.item<int>() < 6)
    x = x + 1;
  for (int t = 0; t < 10; ++t) {
    const int id = x.item<int>();
    if (id == 7)
      break;
    const int other = x.item<int>();
    x = x + other;
  }
})cpp");
  auto Syncs = match(callExpr(callee(functionDecl(hasName("synchronize"))),
                              isExpansionInMainFile())
                         .bind("s"),
                     AST->getASTContext());
  ASSERT_EQ(Syncs.size(), 2u);
  EXPECT_TRUE(measuresLatency(Syncs[0].getNodeAs<CallExpr>("s"), *Parents));
  EXPECT_FALSE(measuresLatency(Syncs[1].getNodeAs<CallExpr>("s"), *Parents))
      << "the clock is read before the sync only";

  // By place: the two timed loops, decode's loop, its inner loop, the loop
  // that tests a local; and the while loop.
  auto Fors = match(forStmt(isExpansionInMainFile()).bind("loop"),
                    AST->getASTContext());
  ASSERT_EQ(Fors.size(), 5u);
  std::vector<const Stmt *> Loops;
  for (const auto &Found : Fors)
    Loops.push_back(Found.getNodeAs<Stmt>("loop"));
  const SourceManager &SM = AST->getSourceManager();
  llvm::sort(Loops, [&SM](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  auto Whiles = match(whileStmt(isExpansionInMainFile()).bind("loop"),
                      AST->getASTContext());
  ASSERT_EQ(Whiles.size(), 1u);
  const Stmt *Decode = Loops[2], *Last = Loops[4];
  const Stmt *While = Whiles[0].getNodeAs<Stmt>("loop");
  auto Items = match(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("item"))),
                                       isExpansionInMainFile())
                         .bind("item"),
                     AST->getASTContext());
  ASSERT_EQ(Items.size(), 7u);
  std::vector<const Expr *> Reads;
  for (const auto &Found : Items)
    Reads.push_back(Found.getNodeAs<Expr>("item"));
  llvm::sort(Reads, [&SM](const Expr *A, const Expr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  auto item = [&](unsigned I) { return Reads[I]; };
  EXPECT_TRUE(endsLoopEarly(item(0), Decode, *Parents)) << "if (...) break;";
  EXPECT_TRUE(endsLoopEarly(item(1), Decode, *Parents)) << "a block returns";
  EXPECT_FALSE(endsLoopEarly(item(2), Decode, *Parents)) << "goes on";
  EXPECT_FALSE(endsLoopEarly(item(3), Decode, *Parents))
      << "the break leaves the inner loop";
  EXPECT_TRUE(endsLoopEarly(item(4), While, *Parents)) << "loop condition";
  EXPECT_TRUE(endsLoopEarly(item(5), Last, *Parents)) << "through a local";
  EXPECT_FALSE(endsLoopEarly(item(6), Last, *Parents)) << "a local not tested";
}

TEST_F(HostSyncArgumentsTest, SyncsAsFindingsNameThem) {
  parse(R"cpp(
int opaque_wait(torch::Tensor t);
int visible_wait(torch::Tensor t) { return 0; }
void f(torch::Tensor x, torch::Device device) {
  probe(1, x.item<float>());
  probe(2, x.to(torch::kCPU));
  probe(3, x.to(device));
  probe(4, x.histc(20, 0, 1));
  probe(5, torch::nonzero(x));
  probe(7, opaque_wait(x));
  probe(8, visible_wait(x));
  torch::cuda::synchronize();
  std::cout << x;
})cpp");
  ASTContext &Context = AST->getASTContext();
  const LangOptions &LangOpts = Context.getLangOpts();
  const PrintingPolicy &Policy = Context.getPrintingPolicy();
  auto method = [&](int Id) {
    return tensorMethodSync(*cast<CXXMemberCallExpr>(probedCall(Id)), Context,
                            LangOpts);
  };

  std::optional<HostSync> Item = method(1);
  ASSERT_TRUE(Item);
  EXPECT_EQ(Item->Kind, SyncKind::ReadScalar);
  EXPECT_EQ(Item->Name, "item<float>()");
  EXPECT_EQ(Item->Operation, probedCall(1));
  EXPECT_EQ(
      Item->Tensor,
      cast<CXXMemberCallExpr>(probedCall(1))->getImplicitObjectArgument());
  EXPECT_EQ(Item->Loc,
            cast<MemberExpr>(probedCall(1)->getCallee())->getMemberLoc());

  std::optional<HostSync> ToHost = method(2);
  ASSERT_TRUE(ToHost);
  EXPECT_EQ(ToHost->Kind, SyncKind::CopyToHost);
  EXPECT_EQ(ToHost->Name, "to(torch::kCPU)") << "the destination as written";
  EXPECT_FALSE(method(3)) << "a copy to a device that may be the GPU";
  EXPECT_FALSE(method(4)) << "histc given its range";

  std::optional<HostSync> Nonzero = functionSync(*probedCall(5), Policy);
  ASSERT_TRUE(Nonzero);
  EXPECT_EQ(Nonzero->Kind, SyncKind::DynamicShape);
  EXPECT_EQ(Nonzero->Tensor, probedCall(5)->getArg(0));
  EXPECT_EQ(Nonzero->Loc, probedCall(5)->getBeginLoc());

  auto Syncs = match(callExpr(callee(functionDecl(hasName("synchronize"))),
                              isExpansionInMainFile())
                         .bind("s"),
                     Context);
  ASSERT_EQ(Syncs.size(), 1u);
  const auto *SyncCall = Syncs[0].getNodeAs<CallExpr>("s");
  std::optional<HostSync> Synchronize = functionSync(*SyncCall, Policy);
  ASSERT_TRUE(Synchronize);
  EXPECT_EQ(Synchronize->Kind, SyncKind::Synchronize);
  EXPECT_EQ(Synchronize->Tensor, nullptr) << "waits for no tensor";
  EXPECT_EQ(Synchronize->Name, "torch::cuda::synchronize()");

  std::optional<HostSync> Listed = listedFunctionSync(*probedCall(7), Policy);
  ASSERT_TRUE(Listed);
  EXPECT_EQ(Listed->Kind, SyncKind::Listed);
  EXPECT_EQ(Listed->Name, "opaque_wait()");
  EXPECT_FALSE(listedFunctionSync(*probedCall(8), Policy))
      << "a body this unit holds is followed instead";
  EXPECT_FALSE(listedFunctionSync(*SyncCall, Policy))
      << "a known sync is reported as one";

  auto Prints = match(cxxOperatorCallExpr(hasOverloadedOperatorName("<<"),
                                          isExpansionInMainFile())
                          .bind("print"),
                      Context);
  ASSERT_EQ(Prints.size(), 1u);
  const auto *Print = Prints[0].getNodeAs<CXXOperatorCallExpr>("print");
  HostSync Printed = tensorPrintSync(*Print);
  EXPECT_EQ(Printed.Kind, SyncKind::Print);
  EXPECT_EQ(Printed.Tensor, Print->getArg(1));
  EXPECT_EQ(Printed.Loc, Print->getOperatorLoc());
  EXPECT_TRUE(Printed.Name.empty());
}

TEST_F(HostSyncArgumentsTest, WaitWithPurposeByKind) {
  parse(R"cpp(
void evaluate(torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    torch::cuda::synchronize();
    auto end = std::chrono::steady_clock::now();
    if (x.item<int>() == 2)
      break;
    probe(3, x.cpu());
    auto host = x.cpu();
    probe(4, host.sum());
    if (x.item<int>() == 3)
      x = x + 1;
  }
})cpp");
  ASTContext &Context = AST->getASTContext();
  const SourceManager &SM = AST->getSourceManager();
  auto Loops = match(forStmt(isExpansionInMainFile()).bind("loop"), Context);
  ASSERT_EQ(Loops.size(), 1u);
  StepPath Path;
  Path.StepLoop = Loops[0].getNodeAs<Stmt>("loop");
  auto Syncs = match(callExpr(callee(functionDecl(hasName("synchronize"))),
                              isExpansionInMainFile())
                         .bind("s"),
                     Context);
  auto Items = match(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("item"))),
                                       isExpansionInMainFile())
                         .bind("s"),
                     Context);
  ASSERT_EQ(Syncs.size(), 1u);
  ASSERT_EQ(Items.size(), 2u);
  std::vector<const Expr *> Reads = {Items[0].getNodeAs<Expr>("s"),
                                     Items[1].getNodeAs<Expr>("s")};
  llvm::sort(Reads, [&SM](const Expr *A, const Expr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  auto sync = [](const Expr *Operation, SyncKind Kind) {
    HostSync Sync;
    Sync.Operation = Operation;
    Sync.Kind = Kind;
    return Sync;
  };
  const HostSync Latency =
      sync(Syncs[0].getNodeAs<Expr>("s"), SyncKind::Synchronize);
  const HostSync Exit = sync(Reads[0], SyncKind::ReadScalar);
  EXPECT_TRUE(isWaitWithPurpose(Latency, Path, *Parents)) << "a latency";
  EXPECT_TRUE(isWaitWithPurpose(Exit, Path, *Parents)) << "an early exit";
  EXPECT_FALSE(
      isWaitWithPurpose(sync(Reads[1], SyncKind::ReadScalar), Path, *Parents))
      << "goes on";
  EXPECT_TRUE(isWaitWithPurpose(sync(probedCall(3), SyncKind::CopyToHost), Path,
                                *Parents))
      << "a copy handed as it is to code outside LibTorch is the output";
  auto Copies = match(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("cpu"))),
                                        isExpansionInMainFile())
                          .bind("c"),
                      Context);
  ASSERT_EQ(Copies.size(), 2u);
  const Expr *Reduced = Copies[0].getNodeAs<Expr>("c") == probedCall(3)
                            ? Copies[1].getNodeAs<Expr>("c")
                            : Copies[0].getNodeAs<Expr>("c");
  EXPECT_FALSE(
      isWaitWithPurpose(sync(Reduced, SyncKind::CopyToHost), Path, *Parents))
      << "a copy reduced on the host could have been reduced on the device";
  StepPath ThroughCall = Path;
  ThroughCall.Calls.push_back(probedCall(3));
  EXPECT_FALSE(isWaitWithPurpose(Exit, ThroughCall, *Parents))
      << "an exit in a called function leaves that function only";
}

TEST_F(HostSyncArgumentsTest, PointersReadOnTheHost) {
  parse(R"cpp(
#include <cstring>
#include <numeric>
#include <vector>
void launch(float *data, long n);
void f(torch::Tensor t, float *out) {
  float a = *t.data_ptr<float>();                       // 1: read
  float b = t.data_ptr<float>()[2];                     // 2: read
  const float *p = t.data_ptr<float>();                 // 3: read below
  std::vector<float> v(p, p + t.numel());
  std::memcpy(out, t.data_ptr<float>(), 4);             // 4: read
  std::memcpy(t.data_ptr<float>(), out, 4);             // 5: written
  launch(t.data_ptr<float>(), t.numel());               // 6: handed on
  float *q = t.data_ptr<float>();                       // 7: handed on
  launch(q, 1);
  float *w = t.data_ptr<float>();                       // 8: written
  w[0] = 1;
  float s = std::accumulate(static_cast<float *>(t.data_ptr()),
                            static_cast<float *>(t.data_ptr()) + 4, 0.f);
  float *r = t.data_ptr<float>();                       // 11: reassigned
  r = out;
  float c = r[0];
  (void)a, (void)b, (void)v, (void)s, (void)c;
}
)cpp");
  auto Found = match(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName("data_ptr")))).bind("p"),
      AST->getASTContext());
  std::vector<const CXXMemberCallExpr *> Calls;
  for (const auto &Node : Found)
    Calls.push_back(Node.getNodeAs<CXXMemberCallExpr>("p"));
  const SourceManager &SM = AST->getSourceManager();
  llvm::sort(Calls, [&](const Expr *A, const Expr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  ASSERT_EQ(Calls.size(), 11u);
  const bool Expected[] = {true,  true,  true, true, false, false,
                           false, false, true, true, false};
  for (size_t I = 0; I < Calls.size(); ++I)
    EXPECT_EQ(clang::tidy::libtorch::analysis::isReadOnHost(Calls[I], *Parents),
              Expected[I])
        << "data_ptr call " << I + 1;
}

TEST_F(HostSyncArgumentsTest, DeviceTestsKeepTensorsOnTheHost) {
  parse(R"cpp(
void f(torch::Tensor t, torch::Tensor u, bool flag) {
  if (t.is_cuda())
    probe(1, t);
  else
    probe(2, t.sum());
  if (!t.is_cpu())
    probe(3, t);
  if (t.device().is_cpu() && flag)
    probe(4, t.detach());
  if (t.is_cuda() || flag)
    probe(5, t);
  for (int i = 0; i < 3; ++i) {
    if (u.is_cuda())
      continue;
    probe(6, u);
  }
  probe(7, u);
  auto run = [&] {
    if (t.is_cpu())
      probe(8, t);
  };
  (void)run;
  auto v = t;
  if (v.is_cuda())
    return;
  probe(9, t);
  v = u;
  probe(10, v);
}
)cpp");
  using clang::tidy::libtorch::analysis::isOnHostByDeviceTest;
  const bool Expected[] = {false, true,  false, true,  false,
                           true,  false, true,  false, false};
  for (int Id = 1; Id <= 10; ++Id) {
    const Expr *Tensor = probed(Id);
    ASSERT_TRUE(Tensor);
    EXPECT_EQ(isOnHostByDeviceTest(Tensor, Tensor, *Parents), Expected[Id - 1])
        << "probe " << Id;
  }
}

} // namespace host_sync_operations_test
