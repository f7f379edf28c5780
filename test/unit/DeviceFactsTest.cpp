//===--- DeviceFactsTest.cpp - device facts unit tests --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/DeviceFacts.h"
#include "ASTTestSupport.h"
#include "analysis/devices/DeviceScopeFacts.h"
#include "llvm/ADT/StringMap.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::analysis;
using libtorch_tidy::testing::initializerOf;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace device_facts_test {

const char Devices[] = R"cpp(
#include <torch/torch.h>
void devices(torch::Device given, torch::Tensor param) {
  auto cuda = torch::kCUDA;
  auto cpu = torch::kCPU;
  torch::Device fromString("cuda:0");
  auto cudaDevice = torch::Device(torch::kCUDA, 1);
  auto maybe = torch::Device(torch::cuda::is_available() ? torch::kCUDA
                                                         : torch::kCPU);
  auto fromParameter = given;
  torch::Device local(torch::kCUDA);
  auto fromLocal = local;
  torch::Device changed(torch::kCPU);
  changed = given;
  auto fromChanged = changed;
  auto dtypeOnly = torch::TensorOptions().dtype(torch::kFloat);
  auto cpuOptions = torch::TensorOptions().dtype(torch::kFloat).device(torch::kCPU);
  auto cudaOptions = torch::TensorOptions(torch::kCUDA);

  auto copied = param.cpu();
  auto moved = param.to(torch::kCPU);
  auto made = torch::zeros({2, 2});
  auto madeOnDevice = torch::zeros({2, 2}, local);
  auto madeWithDtype = torch::ones({2}, torch::TensorOptions().dtype(torch::kFloat));
  float buffer[4] = {};
  auto blob = torch::from_blob(buffer, {4});
  auto hostLocal = copied;
  auto converted = copied.to(torch::kFloat).detach();
  auto deviceParam = param;
  auto paramConverted = param.to(torch::kFloat);
  auto movedToCuda = param.cuda();
  auto fromMovedLocal = movedToCuda.detach();

  // Reassigned variables: followed to every value they are given.
  auto stepped = torch::randn({8});
  for (int i = 0; i < 3; ++i) {
    auto next = torch::randn({8});
    stepped = next;
  }
  auto readStepped = stepped.argmax();
  auto mixed = torch::randn({8});
  mixed = mixed.to(local);
  auto readMixed = mixed;
  auto deviceStepped = torch::zeros({2}, local);
  deviceStepped = movedToCuda;
  auto readDeviceStepped = deviceStepped;
  auto fromParamLater = torch::randn({8});
  fromParamLater = param;
  auto readFromParamLater = fromParamLater;
  auto swapped = torch::randn({8});
  swapped = torch::zeros({8});
  std::swap(swapped, movedToCuda);
  auto readSwapped = swapped;
  auto aliased = torch::randn({8});
  aliased = torch::zeros({8});
  torch::Tensor &alias = aliased;
  alias = movedToCuda;
  auto readAliased = aliased;
  auto accumulated = torch::randn({8});
  accumulated = torch::zeros({8});
  accumulated += movedToCuda;
  auto readAccumulated = accumulated;
  auto byLambda = torch::randn({8});
  auto place = [&] { byLambda = movedToCuda; };
  place();
  auto readByLambda = byLambda;
  auto pointed = torch::randn({8});
  pointed = torch::zeros({8});
  auto *pointer = &pointed;
  auto readPointed = pointed;

  // Results made where the tensors they come from live.
  auto likeDevice = torch::zeros_like(movedToCuda);
  auto likeHost = torch::ones_like(made);
  auto likeMovedByOptions =
      torch::zeros_like(made, torch::TensorOptions(torch::kCUDA));
  auto likeParam = torch::zeros_like(param);
  auto stackedDevice = torch::stack({movedToCuda, madeOnDevice});
  auto stackedHost = torch::stack({made, copied});
  auto stackedMixed = torch::stack({made, param});
  auto sumDevice = movedToCuda + made;
  auto productHost = made * copied;
  auto sumUnknown = param + made;
  auto reluDevice = torch::relu(movedToCuda);
  auto reluParam = torch::relu(param);
  auto methodsDevice = movedToCuda.mul(2).exp();
}
)cpp";

class DeviceFactsTest : public ::testing::Test {
protected:
  void SetUp() override { AST = parseWithMockTorch(Devices); }
  DeviceKind device(llvm::StringRef Name) {
    return classifyDevice(initializerOf(*AST, Name), AST->getASTContext());
  }
  bool host(llvm::StringRef Name) {
    return isProvablyHostTensor(initializerOf(*AST, Name),
                                AST->getASTContext());
  }
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(DeviceFactsTest, ClassifiesDevices) {
  EXPECT_EQ(device("cuda"), DeviceKind::Cuda);
  EXPECT_EQ(device("cpu"), DeviceKind::Cpu);
  EXPECT_EQ(device("fromString"), DeviceKind::Cuda);
  EXPECT_EQ(device("cudaDevice"), DeviceKind::Cuda);
  EXPECT_EQ(device("maybe"), DeviceKind::MaybeCuda);
  EXPECT_EQ(device("fromParameter"), DeviceKind::MaybeCuda);
  EXPECT_EQ(device("fromLocal"), DeviceKind::Cuda);
  EXPECT_EQ(device("fromChanged"), DeviceKind::MaybeCuda)
      << "reassigned: its initializer no longer tells";
}

TEST_F(DeviceFactsTest, ClassifiesTensorOptions) {
  EXPECT_EQ(device("dtypeOnly"), DeviceKind::NoDevice);
  EXPECT_EQ(device("cpuOptions"), DeviceKind::Cpu);
  EXPECT_EQ(device("cudaOptions"), DeviceKind::Cuda);
}

TEST_F(DeviceFactsTest, ProvablyHostTensors) {
  EXPECT_TRUE(host("copied"));
  EXPECT_TRUE(host("moved"));
  EXPECT_TRUE(host("made"));
  EXPECT_FALSE(host("madeOnDevice"));
  EXPECT_TRUE(host("madeWithDtype"));
  EXPECT_TRUE(host("blob"));
  EXPECT_TRUE(host("hostLocal"));
  EXPECT_TRUE(host("converted"));
  EXPECT_FALSE(host("deviceParam"));
  EXPECT_FALSE(host("paramConverted"));
}

TEST_F(DeviceFactsTest, ReassignedVariables) {
  auto onDevice = [&](llvm::StringRef Name) {
    return isProvablyOnDevice(initializerOf(*AST, Name), AST->getASTContext());
  };
  EXPECT_TRUE(host("readStepped")) << "every value it is given is on the host";
  EXPECT_FALSE(host("readMixed"));
  EXPECT_FALSE(onDevice("readMixed"));
  EXPECT_TRUE(onDevice("readDeviceStepped"));
  EXPECT_FALSE(host("readFromParamLater"));
  EXPECT_FALSE(host("readSwapped")) << "std::swap takes a mutable reference";
  EXPECT_FALSE(host("readAliased")) << "changed through a reference";
  EXPECT_FALSE(host("readAccumulated")) << "a compound assignment";
  EXPECT_FALSE(host("readByLambda")) << "assigned in a lambda";
  EXPECT_FALSE(host("readPointed")) << "its address is taken";
}

TEST_F(DeviceFactsTest, ProvablyOnDeviceTensors) {
  auto onDevice = [&](llvm::StringRef Name) {
    return isProvablyOnDevice(initializerOf(*AST, Name), AST->getASTContext());
  };
  EXPECT_TRUE(onDevice("madeOnDevice"));
  EXPECT_TRUE(onDevice("movedToCuda"));
  EXPECT_TRUE(onDevice("fromMovedLocal"));
  EXPECT_FALSE(onDevice("copied"));
  EXPECT_FALSE(onDevice("made"));
  EXPECT_FALSE(onDevice("deviceParam")) << "a parameter may live anywhere";
}

// `*_like` factories, stack/cat, arithmetic and LibTorch's operations make
// their tensor where the tensors they come from live: a `.to(device)` of
// one copies nothing from the host when those are on the device.
TEST_F(DeviceFactsTest, ResultsLiveWhereTheirInputsLive) {
  auto onDevice = [&](llvm::StringRef Name) {
    return isProvablyOnDevice(initializerOf(*AST, Name), AST->getASTContext());
  };
  EXPECT_TRUE(onDevice("likeDevice"));
  EXPECT_TRUE(host("likeHost"));
  EXPECT_TRUE(onDevice("likeMovedByOptions")) << "its options name the device";
  EXPECT_FALSE(onDevice("likeParam"));
  EXPECT_FALSE(host("likeParam"));
  EXPECT_TRUE(onDevice("stackedDevice"));
  EXPECT_TRUE(host("stackedHost"));
  EXPECT_FALSE(onDevice("stackedMixed"));
  EXPECT_FALSE(host("stackedMixed")) << "a parameter may live anywhere";
  EXPECT_TRUE(onDevice("sumDevice"))
      << "a CUDA tensor meets a host one only as a scalar: the sum is CUDA";
  EXPECT_TRUE(host("productHost"));
  EXPECT_FALSE(onDevice("sumUnknown"));
  EXPECT_FALSE(host("sumUnknown"));
  EXPECT_TRUE(onDevice("reluDevice"));
  EXPECT_FALSE(onDevice("reluParam"));
  EXPECT_TRUE(onDevice("methodsDevice"));
}

const char CallsOnTheWay[] = R"cpp(
#include <torch/torch.h>
#include <vector>
struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};
TORCH_MODULE(Net);
torch::Tensor helper(const torch::Tensor &x,
                     const std::vector<torch::Tensor> &list,
                     torch::Tensor changed) {
  changed = changed.cpu();
  auto viaParam = x.mul(2);
  auto viaList = torch::stack(list);
  auto viaChanged = changed;
  return viaParam;
}
torch::Tensor movedHelper(const torch::Tensor &x, torch::Device d) {
  return x.to(d);
}
torch::Tensor sometimesMoved(const torch::Tensor &x, torch::Device d, bool b) {
  if (b)
    return x;
  return x.to(d);
}
void step(Net net, torch::Tensor unknown, torch::Device device) {
  auto fromHelper = movedHelper(unknown, device);
  auto fromSometimes = sometimesMoved(unknown, device, true);
  auto onDevice = unknown.to(device);
  auto moduleOut = net(onDevice);
  auto forwarded = net->forward(onDevice).detach();
  auto outUnknown = net(unknown);
  auto outHost = net(unknown.cpu());
  std::vector<torch::Tensor> filled;
  filled.push_back(onDevice);
  filled.push_back(moduleOut);
  auto stackedFilled = torch::stack(filled);
  std::vector<torch::Tensor> unknowns;
  unknowns.push_back(unknown);
  auto stackedUnknowns = torch::cat(unknowns);
  helper(onDevice, filled, onDevice);
  helper(unknown, unknowns, onDevice);
}
)cpp";

// A module computes where its inputs are; stack/cat of a local vector is
// where the tensors put into it are; a parameter is what the call on the
// way gave it, when the function never gives it another value.
TEST(DeviceFactsOnTheWayTest, ModulesVectorsAndParameters) {
  auto AST = parseWithMockTorch(CallsOnTheWay);
  ASTContext &Context = AST->getASTContext();
  auto Calls = match(
      callExpr(callee(functionDecl(hasName("helper")))).bind("c"), Context);
  ASSERT_EQ(Calls.size(), 2u);
  const auto *DeviceCall = Calls[0].getNodeAs<CallExpr>("c");
  const auto *UnknownCall = Calls[1].getNodeAs<CallExpr>("c");
  auto onDevice = [&](llvm::StringRef Name,
                      llvm::ArrayRef<const CallExpr *> Way = {}) {
    return isProvablyOnDevice(initializerOf(*AST, Name), Context, Way);
  };
  EXPECT_TRUE(onDevice("moduleOut"));
  EXPECT_TRUE(onDevice("forwarded"));
  EXPECT_FALSE(onDevice("outUnknown"));
  EXPECT_FALSE(onDevice("outHost")) << "its forward may move its input";
  EXPECT_FALSE(isProvablyHostTensor(initializerOf(*AST, "outHost"), Context));
  EXPECT_TRUE(onDevice("fromHelper")) << "every return is on the device";
  EXPECT_FALSE(onDevice("fromSometimes")) << "one return may be anywhere";
  EXPECT_TRUE(onDevice("stackedFilled"));
  EXPECT_FALSE(onDevice("stackedUnknowns"));

  EXPECT_FALSE(onDevice("viaParam")) << "no call on the way";
  EXPECT_TRUE(onDevice("viaParam", {DeviceCall}));
  EXPECT_FALSE(onDevice("viaParam", {UnknownCall}));
  EXPECT_TRUE(onDevice("viaList", {DeviceCall}));
  EXPECT_FALSE(onDevice("viaList", {UnknownCall}));
  EXPECT_FALSE(onDevice("viaChanged", {DeviceCall}))
      << "the helper gives the parameter another value";
}

const char *const HostRequired = R"cpp(
#include <torch/torch.h>
namespace rnn = torch::nn::utils::rnn;
void pack(const std::vector<torch::Tensor> &batch, torch::Tensor x) {
  auto packedLengths = batch[0].sub(1);
  auto packed = rnn::pack_padded_sequence(x, packedLengths, true);
  auto packedLater = batch[1].sub(1);
  auto readFirst = packedLater.max();
  auto packed2 = rnn::pack_padded_sequence(x, packedLater);
  auto asInput = batch[2].sub(1);
  auto packed3 = rnn::pack_padded_sequence(asInput, packedLengths);
  auto changed = batch[3].sub(1);
  changed = x;
  auto packed4 = rnn::pack_padded_sequence(x, changed);
  auto lengthsCopy = packedLengths;
}
)cpp";

// A variable that packing requires in host memory lives there in a program
// that runs, wherever the code gives it its value.
TEST(DeviceFactsHostRequiredTest, PackedLengthsLiveOnTheHost) {
  auto AST = parseWithMockTorch(HostRequired);
  ASTContext &Context = AST->getASTContext();
  auto host = [&](llvm::StringRef Name) {
    return isProvablyHostTensor(initializerOf(*AST, Name), Context);
  };
  auto Refs =
      match(declRefExpr(to(varDecl(hasAnyName("packedLengths", "packedLater",
                                              "asInput", "changed"))))
                .bind("r"),
            Context);
  llvm::StringMap<bool> Host;
  for (const auto &Found : Refs) {
    const auto *Ref = Found.getNodeAs<DeclRefExpr>("r");
    Host[Ref->getDecl()->getName()] = isProvablyHostTensor(Ref, Context);
  }
  EXPECT_TRUE(Host["packedLengths"]);
  EXPECT_TRUE(Host["packedLater"]) << "given to packing after it is read";
  EXPECT_FALSE(Host["asInput"]) << "the input may be on any device";
  EXPECT_FALSE(Host["changed"]) << "reassigned: which value is packed?";
  EXPECT_TRUE(host("lengthsCopy"));
}

const char *const ParametersRead = R"cpp(
#include <torch/torch.h>
void reads(const torch::Tensor &lengths, torch::Tensor scores, int n) {
  auto direct = lengths;
  auto element = lengths[0];
  auto reduced = (lengths > n).sum();
  auto narrowed = lengths.to(torch::kLong);
  auto local = element.max();
  auto mixed = lengths + scores;
  auto withTensor = lengths.add(scores);
  auto moved = lengths.to(torch::kCUDA);
  auto indexedBy = scores[lengths];
}
void reassigns(torch::Tensor lengths) {
  lengths = lengths.cpu();
  auto after = lengths[0];
}
)cpp";

TEST(DeviceFactsParameterTest, TensorsComputedFromAParameterAlone) {
  auto AST = parseWithMockTorch(ParametersRead);
  auto parameter = [&](llvm::StringRef Name) -> std::string {
    const ParmVarDecl *P = parameterPlacingTensor(initializerOf(*AST, Name));
    return P ? P->getName().str() : "";
  };
  EXPECT_EQ(parameter("direct"), "lengths");
  EXPECT_EQ(parameter("element"), "lengths");
  EXPECT_EQ(parameter("reduced"), "lengths");
  EXPECT_EQ(parameter("narrowed"), "lengths") << "a dtype stays where it is";
  EXPECT_EQ(parameter("local"), "lengths");
  EXPECT_EQ(parameter("mixed"), "") << "two tensors";
  EXPECT_EQ(parameter("withTensor"), "") << "a tensor argument";
  EXPECT_EQ(parameter("moved"), "") << "copied to another device";
  EXPECT_EQ(parameter("indexedBy"), "") << "the tensor indexed is another";
  EXPECT_EQ(parameter("after"), "") << "the parameter is given another value";
}

const FunctionDecl *function(ASTUnit &AST, llvm::StringRef Name) {
  auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                     AST.getASTContext());
  EXPECT_FALSE(Found.empty()) << Name.str();
  return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
}

TEST(DeviceScopeFactsTest, CpuOnlyFunctions) {
  auto AST = parseWithMockTorch(R"cpp(
#include <torch/torch.h>
void cpuOnly(torch::Tensor x) {
  torch::Device device(torch::kCPU);
  x.to(device);
}
void copiesBack(torch::Tensor x) { x.to(torch::kCPU); }
void picksCuda(torch::Tensor x) {
  torch::Device device(torch::kCPU);
  x.cuda();
}
void asks() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
}
void takesDevice(torch::Device device) { torch::Device cpu(torch::kCPU); }
)cpp");
  DeviceScopeFacts Facts(AST->getASTContext());
  EXPECT_TRUE(Facts.isCpuOnlyFunction(function(*AST, "cpuOnly")));
  EXPECT_FALSE(Facts.isCpuOnlyFunction(function(*AST, "copiesBack")))
      << "to(kCPU) copies back: it chooses no device";
  EXPECT_FALSE(Facts.isCpuOnlyFunction(function(*AST, "picksCuda")));
  EXPECT_FALSE(Facts.isCpuOnlyFunction(function(*AST, "asks")));
  EXPECT_FALSE(Facts.isCpuOnlyFunction(function(*AST, "takesDevice")));
  EXPECT_FALSE(Facts.isGpuFreeProgram()) << "no main";
}

TEST(DeviceScopeFactsTest, GpuFreePrograms) {
  auto GpuFree = parseWithMockTorch(R"cpp(
#include <torch/torch.h>
int main() { auto x = torch::zeros({2}); x.sum(); }
)cpp");
  EXPECT_TRUE(DeviceScopeFacts(GpuFree->getASTContext()).isGpuFreeProgram());
  auto AsksForCuda = parseWithMockTorch(R"cpp(
#include <torch/torch.h>
int main() { return torch::cuda::is_available() ? 0 : 1; }
)cpp");
  EXPECT_FALSE(
      DeviceScopeFacts(AsksForCuda->getASTContext()).isGpuFreeProgram());
}

} // namespace device_facts_test
