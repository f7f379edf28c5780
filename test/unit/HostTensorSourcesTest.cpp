//===--- HostTensorSourcesTest.cpp - host tensors made to be copied -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Element types of host tensors and widening before a copy (HostDtypes),
// constant host tables rebuilt as tensors (ConstantHostData), factories
// returned by helpers (DeviceFacts), and tensor members kept in host memory
// (HostStateMembers).
//
//===----------------------------------------------------------------------===//

#include "ASTTestSupport.h"
#include "analysis/devices/ConstantHostData.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/HostDtypes.h"
#include "analysis/devices/HostStateMembers.h"
#include "utils/SourceText.h"
#include "utils/UserCode.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::libtorch::analysis;
using clang::tidy::libtorch::utils::tokenRangeText;
using clang::tidy::libtorch::utils::UserCodeParents;
using libtorch_tidy::testing::initializerOf;
using libtorch_tidy::testing::parseWithMockTorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace host_tensor_sources_test {

/// The object of the copy that initializes \p Name (`x.to(device)`).
const Expr *copiedIn(ASTUnit &AST, llvm::StringRef Name) {
  const auto *Copy = dyn_cast_or_null<CXXMemberCallExpr>(
      initializerOf(AST, Name)->IgnoreImplicit());
  EXPECT_TRUE(Copy) << Name.str();
  return Copy ? Copy->getImplicitObjectArgument() : nullptr;
}

const char Dtypes[] = R"cpp(
#include <torch/torch.h>
#include <cstdint>
#include <vector>
void dtypes(torch::Device device, torch::Tensor param, std::vector<uint8_t> &raw) {
  auto byteOption = torch::TensorOptions().dtype(torch::kUInt8).device(device);
  auto viaDtype = torch::dtype(torch::kInt16);
  auto plain = torch::kHalf;
  auto noDtype = torch::TensorOptions().device(device);

  auto images = torch::from_blob(raw.data(), {2, 2}, torch::kUInt8);
  auto permuted = images.permute({1, 0}).contiguous();
  auto element = images[0];
  auto zerosShort = torch::zeros({2}, torch::TensorOptions(torch::kShort));
  auto defaultType = torch::zeros({2});
  auto reassigned = torch::zeros({2}, torch::kByte);
  reassigned = torch::zeros({2}, torch::kFloat);
  auto computed = images * 2;

  auto widened = images.to(torch::kFloat).to(device);
  auto widenedType = zerosShort.toType(torch::kDouble).cuda();
  auto scaled = (images.to(torch::kFloat) / 255).to(device);
  auto unknownSource = param.to(torch::kFloat).to(device);
  auto narrowing = torch::zeros({2}, torch::kDouble).to(torch::kFloat).to(device);
  auto sameSize = images.to(torch::kChar).to(device);
  auto deviceSource = torch::zeros({2}, byteOption).to(torch::kFloat).to(device);
  auto notAConversion = images.to(device);
  auto commented = images.to(torch::kFloat) /* host */ .to(device);
  auto toOptions = images.to(torch::kFloat).to(noDtype);
  auto toKind = images.to(torch::kFloat).to(torch::kCUDA);
  auto fromFactory = torch::from_blob(raw.data(), {2}, torch::kUInt8).to(torch::kFloat).to(device);
}
)cpp";

TEST(HostDtypesTest, NamesScalarTypes) {
  auto AST = parseWithMockTorch(Dtypes);
  auto Named = [&](llvm::StringRef Name) {
    return scalarTypeNamed(initializerOf(*AST, Name));
  };
  EXPECT_EQ(Named("byteOption"), std::optional<llvm::StringRef>("Byte"));
  EXPECT_EQ(Named("viaDtype"), std::optional<llvm::StringRef>("Short"));
  EXPECT_EQ(Named("plain"), std::optional<llvm::StringRef>("Half"));
  EXPECT_EQ(Named("noDtype"), std::nullopt);
  EXPECT_EQ(elementBytes("Byte"), 1U);
  EXPECT_EQ(elementBytes("Half"), 2U);
  EXPECT_EQ(elementBytes("Float"), 4U);
  EXPECT_EQ(elementBytes("Long"), 8U);
  EXPECT_EQ(elementBytes("Undefined"), 0U);
}

TEST(HostDtypesTest, KnownElementTypes) {
  auto AST = parseWithMockTorch(Dtypes);
  auto Known = [&](llvm::StringRef Name) {
    return knownElementType(initializerOf(*AST, Name));
  };
  EXPECT_EQ(Known("images"), std::optional<llvm::StringRef>("Byte"));
  EXPECT_EQ(Known("permuted"), std::optional<llvm::StringRef>("Byte"))
      << "views keep the element type";
  EXPECT_EQ(Known("element"), std::optional<llvm::StringRef>("Byte"));
  EXPECT_EQ(Known("zerosShort"), std::optional<llvm::StringRef>("Short"));
  EXPECT_EQ(Known("defaultType"), std::nullopt) << "the default is not guessed";
  EXPECT_EQ(Known("computed"), std::nullopt) << "arithmetic may promote";
  auto Reassigned =
      match(declRefExpr(to(varDecl(hasName("reassigned")))).bind("r"),
            AST->getASTContext());
  ASSERT_FALSE(Reassigned.empty());
  EXPECT_EQ(knownElementType(Reassigned[0].getNodeAs<Expr>("r")), std::nullopt)
      << "given a float tensor later";
}

TEST(HostDtypesTest, WideningBeforeTheCopy) {
  auto AST = parseWithMockTorch(Dtypes);
  ASTContext &Context = AST->getASTContext();
  auto Widening = [&](llvm::StringRef Name) {
    return hostWideningBefore(copiedIn(*AST, Name), Context);
  };
  auto Widened = Widening("widened");
  ASSERT_TRUE(Widened);
  EXPECT_EQ(Widened->From, "Byte");
  EXPECT_EQ(Widened->To, "Float");
  EXPECT_EQ(Widened->Ratio, 4U);
  EXPECT_TRUE(Widened->Adjacent);
  auto WidenedType = Widening("widenedType");
  ASSERT_TRUE(WidenedType);
  EXPECT_EQ(WidenedType->Ratio, 4U);
  auto Scaled = Widening("scaled");
  ASSERT_TRUE(Scaled);
  EXPECT_FALSE(Scaled->Adjacent);
  EXPECT_FALSE(Widening("unknownSource"));
  EXPECT_FALSE(Widening("narrowing"));
  EXPECT_FALSE(Widening("sameSize"));
  EXPECT_FALSE(Widening("deviceSource")) << "not a host tensor";
  EXPECT_FALSE(Widening("notAConversion"));
}

const char Conversions[] = R"cpp(
#include <torch/torch.h>
#include <cstdint>
#include <vector>
void conversions(torch::Device device, torch::Tensor param, std::vector<uint8_t> &raw) {
  auto images = torch::from_blob(raw.data(), {2, 2}, torch::kUInt8);
  auto byteOption = torch::TensorOptions().dtype(torch::kUInt8).device(device);
  auto toLong = param.to(torch::kLong).to(device);
  auto typeLong = images.toType(torch::kLong).cuda();
  auto toFloat = param.to(torch::kFloat).to(device);
  auto alreadyLong = torch::zeros({2}, torch::kLong).to(torch::kLong).to(device);
  auto onDevice = torch::zeros({2}, byteOption).to(torch::kLong).to(device);
  auto notAConversion = images.to(device);
}
)cpp";

TEST(HostDtypesTest, WideConversionBeforeTheCopy) {
  auto AST = parseWithMockTorch(Conversions);
  ASTContext &Context = AST->getASTContext();
  auto Conversion = [&](llvm::StringRef Name) {
    return wideConversionBeforeCopy(copiedIn(*AST, Name), Context);
  };
  auto ToLong = Conversion("toLong");
  ASSERT_TRUE(ToLong);
  EXPECT_EQ(ToLong->To, "Long");
  EXPECT_TRUE(ToLong->From.empty()) << "a parameter: not known";
  auto TypeLong = Conversion("typeLong");
  ASSERT_TRUE(TypeLong);
  EXPECT_EQ(TypeLong->From, "Byte");
  EXPECT_FALSE(Conversion("toFloat")) << "4 bytes may narrow the copy";
  EXPECT_FALSE(Conversion("alreadyLong")) << "nothing to save";
  EXPECT_FALSE(Conversion("onDevice")) << "not on the host";
  EXPECT_FALSE(Conversion("notAConversion"));
}

TEST(HostDtypesTest, SwappingTheConversionAndTheCopy) {
  auto AST = parseWithMockTorch(Dtypes);
  ASTContext &Context = AST->getASTContext();
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LangOpts = Context.getLangOpts();
  auto Swappable = [&](llvm::StringRef Name) {
    const auto *Copy =
        cast<CXXMemberCallExpr>(initializerOf(*AST, Name)->IgnoreImplicit());
    std::optional<HostWidening> Widening =
        hostWideningBefore(Copy->getImplicitObjectArgument(), Context);
    EXPECT_TRUE(Widening) << Name.str();
    return Widening && isWideningSwappable(*Widening, *Copy, SM, LangOpts);
  };
  EXPECT_TRUE(Swappable("widened"));
  EXPECT_TRUE(Swappable("widenedType")) << "toType(...).cuda()";
  EXPECT_TRUE(Swappable("toKind")) << "a DeviceType names a device";
  EXPECT_FALSE(Swappable("scaled")) << "arithmetic in between";
  EXPECT_FALSE(Swappable("commented")) << "a comment in between";
  EXPECT_FALSE(Swappable("toOptions")) << "options may hold a dtype";
  EXPECT_FALSE(Swappable("fromFactory")) << "would leave the factory copied";

  EXPECT_EQ(dtypeDisplayName("Byte"), "uint8");
  EXPECT_EQ(dtypeDisplayName("Float"), "float32");
  EXPECT_EQ(dtypeDisplayName("BFloat16"), "bfloat16");
  EXPECT_EQ(dtypeDisplayName("ComplexFloat"), "ComplexFloat");

  const auto *Copy = cast<CXXMemberCallExpr>(
      initializerOf(*AST, "commented")->IgnoreImplicit());
  const auto *Member = cast<MemberExpr>(Copy->getCallee());
  EXPECT_EQ(tokenRangeText(Member->getMemberLoc(), Copy->getRParenLoc(), SM,
                           LangOpts),
            "to(device)");
}

const char Tables[] = R"cpp(
#include <torch/torch.h>
#include <cstdint>
#include <vector>
static const float kTable[2] = {1, 2};
constexpr float kScale = 2;
std::vector<float> mutableGlobal = {1, 2};
void consume(std::vector<float> &);
void tables(torch::Device device, const std::vector<float> &given) {
  std::vector<float> unchanged = {1, 2};
  std::vector<float> changed = {1, 2};
  std::vector<float> passedMutably = {1, 2};
  std::vector<float> aliased = {1, 2};
  float *alias = aliased.data();
  float array[2] = {1, 2};
  for (int step = 0; step < 10; ++step) {
    float read = unchanged[0] + array[1];
    changed.push_back(read);
    consume(passedMutably);
    alias[0] = read;
    std::vector<float> inLoop = {read};
    auto fromUnchanged = torch::tensor(unchanged).to(device);
    auto fromBlob = torch::from_blob(unchanged.data(), {2}).clone().to(device);
    auto fromArray = torch::from_blob(array, {2}).to(device);
    auto fromConstant = torch::from_blob(const_cast<float *>(kTable), {2}).to(device);
    auto fromChanged = torch::tensor(changed).to(device);
    auto fromPassed = torch::tensor(passedMutably).to(device);
    auto fromAliased = torch::tensor(aliased).to(device);
    auto fromInLoop = torch::tensor(inLoop).to(device);
    auto fromGiven = torch::tensor(given).to(device);
    auto fromGlobal = torch::tensor(mutableGlobal).to(device);
    auto braced = torch::tensor({1.0f, 2.0f}).to(device);
    auto nested = torch::tensor({{1.0f, -2.0f}, {kScale * 2, 0.0f}}).to(device);
    auto withRead = torch::tensor({read, 1.0f}).to(device);
    auto nestedRead = torch::tensor({{1.0f}, {read}}).to(device);
    auto scalar = torch::tensor(2.0f).to(device);
  }
}
torch::Tensor returnsFactory(int64_t n) { return torch::zeros({n}); }
torch::Tensor returnsOnDevice(int64_t n, torch::Device d) { return torch::zeros({n}, d); }
torch::Tensor returnsFilled(int64_t n) { auto t = torch::zeros({n}); t[0] = 1; return t; }
)cpp";

TEST(ConstantHostDataTest, ConstantTables) {
  auto AST = parseWithMockTorch(Tables);
  ASTContext &Context = AST->getASTContext();
  UserCodeParents Parents(Context);
  auto Loops =
      match(forStmt(hasAncestor(functionDecl(hasName("tables")))).bind("loop"),
            Context);
  ASSERT_EQ(Loops.size(), 1U);
  const auto *Loop = Loops[0].getNodeAs<Stmt>("loop");
  auto Table = [&](llvm::StringRef Name, const Stmt *In) -> std::string {
    auto Found =
        constantHostTableCopied(copiedIn(*AST, Name), In, Context, Parents);
    if (!Found)
      return "";
    if (Found->Table)
      return Found->Table->getName().str();
    return tokenRangeText(Found->Values->getBeginLoc(),
                          Found->Values->getEndLoc(),
                          Context.getSourceManager(), Context.getLangOpts());
  };
  EXPECT_EQ(Table("fromUnchanged", Loop), "unchanged");
  EXPECT_EQ(Table("fromBlob", Loop), "unchanged");
  EXPECT_EQ(Table("fromArray", Loop), "array");
  EXPECT_EQ(Table("fromConstant", Loop), "kTable");
  EXPECT_EQ(Table("fromConstant", nullptr), "kTable")
      << "a constant is constant through calls too";
  EXPECT_EQ(Table("fromUnchanged", nullptr), "")
      << "a local counts only in the loop's own function";
  EXPECT_EQ(Table("fromChanged", Loop), "");
  EXPECT_EQ(Table("fromPassed", Loop), "");
  EXPECT_EQ(Table("fromAliased", Loop), "");
  EXPECT_EQ(Table("fromInLoop", Loop), "");
  EXPECT_EQ(Table("fromGiven", Loop), "");
  EXPECT_EQ(Table("fromGlobal", Loop), "");
  EXPECT_EQ(Table("braced", Loop), "{1.0f, 2.0f}");
  EXPECT_EQ(Table("braced", nullptr), "{1.0f, 2.0f}")
      << "values written in the call are constant through calls too";
  EXPECT_EQ(Table("nested", nullptr), "{{1.0f, -2.0f}, {kScale * 2, 0.0f}}");
  EXPECT_EQ(Table("withRead", Loop), "");
  EXPECT_EQ(Table("nestedRead", Loop), "");
  EXPECT_EQ(Table("scalar", Loop), "") << "one number is no table";
}

TEST(HelperFactoriesTest, FactoriesReturnedByHelpers) {
  auto AST = parseWithMockTorch(Tables);
  ASTContext &Context = AST->getASTContext();
  auto Returned = [&](llvm::StringRef Name) {
    auto Found =
        match(functionDecl(hasName(Name), isDefinition()).bind("f"), Context);
    EXPECT_FALSE(Found.empty());
    return hostFactoryReturnedBy(Found[0].getNodeAs<FunctionDecl>("f"),
                                 Context);
  };
  EXPECT_TRUE(Returned("returnsFactory"));
  EXPECT_FALSE(Returned("returnsOnDevice"));
  EXPECT_FALSE(Returned("returnsFilled"));
}

const char Members[] = R"cpp(
#include <torch/torch.h>
torch::Tensor makeState(int64_t n) { return torch::rand({n}); }
void bindMutably(torch::Tensor &t);
struct State {
  State() : fromHelper(makeState(4)) { assignedInBody = torch::ones({2}); }
  torch::Tensor defaulted = torch::zeros({2});
  torch::Tensor fromHelper;
  torch::Tensor assignedInBody;
  torch::Tensor neverMade;
  torch::Tensor replaced = torch::zeros({2});
  torch::Tensor boundMutably = torch::zeros({2});
  torch::Tensor updatedInPlace = torch::zeros({2});
  torch::Tensor onDevice = torch::zeros({2}, torch::kCUDA);
  torch::Tensor movedToGpu = torch::zeros({2});
  torch::Tensor movedToCpu = torch::zeros({2});
  void toDevice(torch::Device d) {
    movedToGpu = movedToGpu.to(d);
    movedToCpu = movedToCpu.to(torch::kCPU);
  }
  void replace(torch::Tensor t) { replaced = t; }
  void update() { updatedInPlace.mul_(2); updatedInPlace += 1; }
  torch::Tensor copies(torch::Device d) {
    return defaulted.to(d) + fromHelper.to(d) + assignedInBody.to(d) +
           neverMade.to(d) + replaced.to(d) + boundMutably.to(d) +
           updatedInPlace.to(d) + onDevice.to(d) + movedToGpu.to(d, true) +
           movedToCpu.to(d, true);
  }
};
void user(State &s) { bindMutably(s.boundMutably); }
struct OwnImpl : torch::nn::Module {
  OwnImpl() {
    registered = register_buffer("registered", torch::zeros({2}));
    register_parameter("passed", passed);
  }
  torch::Tensor registered;
  torch::Tensor passed = torch::zeros({2});
  torch::Tensor plain = torch::zeros({2});
  torch::Tensor copies(torch::Device d) {
    return registered.to(d) + passed.to(d) + plain.to(d);
  }
};
)cpp";

TEST(HostStateMembersTest, MembersKeptInHostMemory) {
  auto AST = parseWithMockTorch(Members);
  ASTContext &Context = AST->getASTContext();
  UserCodeParents Parents(Context);
  auto Source = [&](llvm::StringRef Name) -> const Expr * {
    auto Found = match(
        cxxMemberCallExpr(callee(cxxMethodDecl(hasName("to"))),
                          on(memberExpr(member(hasName(Name))).bind("source")),
                          hasAncestor(cxxMethodDecl(hasName("copies")))),
        Context);
    EXPECT_EQ(Found.size(), 1U) << Name.str();
    return Found.empty() ? nullptr : Found[0].getNodeAs<Expr>("source");
  };
  using Verdict = CopiedMember::Verdict;
  auto VerdictOf = [&](llvm::StringRef Name) {
    return copiedMember(Source(Name), Context, Parents).What;
  };
  auto MadeBy = [&](llvm::StringRef Name) -> std::string {
    CopiedMember State = copiedMember(Source(Name), Context, Parents);
    if (State.What != Verdict::KeptInHostMemory)
      return "";
    return tokenRangeText(State.MadeBy->getBeginLoc(),
                          State.MadeBy->getEndLoc(), Context.getSourceManager(),
                          Context.getLangOpts());
  };
  EXPECT_EQ(MadeBy("defaulted"), "torch::zeros({2})");
  EXPECT_EQ(MadeBy("fromHelper"), "makeState(4)");
  EXPECT_EQ(MadeBy("assignedInBody"), "torch::ones({2})");
  EXPECT_EQ(MadeBy("updatedInPlace"), "torch::zeros({2})")
      << "changed in place, it stays in host memory";
  EXPECT_EQ(MadeBy("plain"), "torch::zeros({2})");
  EXPECT_EQ(MadeBy("neverMade"), "");
  EXPECT_EQ(MadeBy("replaced"), "") << "assigned outside the constructors";
  EXPECT_EQ(MadeBy("boundMutably"), "") << "a callee may replace it";
  EXPECT_EQ(MadeBy("onDevice"), "");
  EXPECT_EQ(MadeBy("registered"), "");
  EXPECT_EQ(MadeBy("passed"), "");
  EXPECT_EQ(MadeBy("movedToGpu"), "") << "its class moves it to the device";
  EXPECT_EQ(MadeBy("movedToCpu"), "") << "replaced outside the constructors";

  EXPECT_EQ(VerdictOf("registered"), Verdict::ModuleOwn);
  EXPECT_EQ(VerdictOf("passed"), Verdict::ModuleOwn);
  EXPECT_EQ(VerdictOf("plain"), Verdict::KeptInHostMemory)
      << "a module's member, never registered";
  EXPECT_EQ(VerdictOf("defaulted"), Verdict::KeptInHostMemory)
      << "not a module's member";

  EXPECT_EQ(VerdictOf("movedToGpu"), Verdict::MovedByItsClass);
  EXPECT_EQ(VerdictOf("movedToCpu"), Verdict::Unknown);
  EXPECT_EQ(VerdictOf("replaced"), Verdict::Unknown);
  EXPECT_EQ(VerdictOf("onDevice"), Verdict::Unknown);
}

} // namespace host_tensor_sources_test
