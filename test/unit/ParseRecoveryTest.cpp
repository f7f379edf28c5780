//===--- ParseRecoveryTest.cpp - Findings in code that did not parse ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/ParseRecovery.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <map>
#include <memory>
#include <string>

using namespace clang;
using namespace libtorch_tidy::run;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace parse_recovery_test {

constexpr char File[] = "/recovery/input.cpp";
// A check of each kind of evidence (Catalog.def).
constexpr char CallsCheck[] = "libtorch-host-sync-in-loop";
constexpr char UnitCheck[] = "libtorch-module-not-on-device";

/// Parses \p Code as the CLI does (a missing header is no fatal error, the
/// errors are recorded under clang-tidy's consumer) and returns what its
/// errors may have changed.
class Parsed {
public:
  explicit Parsed(std::string Code,
                  std::vector<std::string> Args = {"-std=c++17"},
                  const std::map<std::string, std::string> &Headers = {})
      : Code(std::move(Code)) {
    tooling::FixedCompilationDatabase Database("/", Args);
    tooling::ClangTool Tool(Database, {File});
    Tool.mapVirtualFile(File, this->Code);
    for (const auto &[Path, Text] : Headers)
      Tool.mapVirtualFile(Path, Text);
    IgnoringDiagConsumer Quiet;
    Tool.setDiagnosticConsumer(&Quiet);
    Factory F(*this);
    Tool.run(&F);
  }

  /// Whether a finding of \p Check at the first \p Text of the code may be
  /// invented.
  bool invented(llvm::StringRef Check, llvm::StringRef Text) const {
    const size_t Offset = Code.find(Text.str());
    EXPECT_NE(Offset, std::string::npos) << Text.str();
    return Recovery.mayBeInvented(Check, File, Offset,
                                  [](llvm::StringRef F) { return F.str(); });
  }

  std::string Code;
  ParseRecovery Recovery;
  std::vector<SourceLocation> Errors;

private:
  class Action : public ASTFrontendAction {
  public:
    Action(Parsed &Result, ErrorRecorder *&Errors)
        : Result(Result), Errors(Errors) {}
    bool BeginSourceFileAction(CompilerInstance &Compiler) override {
      recoverFromMissingHeaders(Compiler.getDiagnostics());
      return true;
    }
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                   llvm::StringRef) override {
      return std::make_unique<ASTConsumer>();
    }
    void EndSourceFileAction() override {
      Result.Errors = Errors->CodeErrors;
      Result.Recovery =
          ParseRecovery::of(getCompilerInstance().getASTContext(), *Errors);
    }

  private:
    Parsed &Result;
    ErrorRecorder *&Errors;
  };
  class Factory : public tooling::FrontendActionFactory {
  public:
    explicit Factory(Parsed &Result) : Result(Result) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<Action>(Result, Errors);
    }
    bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                       FileManager *Files,
                       std::shared_ptr<PCHContainerOperations> PCH,
                       DiagnosticConsumer *Consumer) override {
      ErrorRecorder Recorder(*Consumer);
      Errors = &Recorder;
      return FrontendActionFactory::runInvocation(std::move(Invocation), Files,
                                                  std::move(PCH), &Recorder);
    }

  private:
    Parsed &Result;
    ErrorRecorder *Errors = nullptr;
  };
};

TEST(ParseRecoveryTest, NothingIsLeftOutOfCodeThatParses) {
  Parsed P("void step() {}\n"
           "void train() { for (int i = 0; i < 3; ++i) step(); }\n");
  EXPECT_FALSE(P.Recovery.anyCodeBroken());
  EXPECT_TRUE(P.Recovery.missingHeaders().empty());
  EXPECT_FALSE(P.invented(CallsCheck, "step();"));
  EXPECT_FALSE(P.invented(UnitCheck, "step();"));
}

// The parse goes on past the #include: the error after it is seen. A header
// that nothing uses changes no code.
TEST(ParseRecoveryTest, TheParseGoesOnPastAMissingHeader) {
  Parsed P("#include \"generated/not_built.h\"\n"
           "#include <also_missing.hpp>\n"
           "void train() { int n = 0; ++n; }\n");
  EXPECT_EQ(
      P.Recovery.missingHeaders(),
      (std::vector<std::string>{"generated/not_built.h", "also_missing.hpp"}));
  EXPECT_FALSE(P.Recovery.anyCodeBroken());
  EXPECT_FALSE(P.invented(CallsCheck, "++n"));
  EXPECT_FALSE(P.invented(UnitCheck, "++n"));

  Parsed Used("#include <opencv2/highgui.hpp>\n"
              "void show() { cv::imshow(\"x\"); }\n");
  EXPECT_EQ(Used.Errors.size(), 1u) << "the use of the missing header";
  EXPECT_TRUE(Used.Recovery.anyCodeBroken());
}

// A missing header may declare an overload that wins an unqualified call
// of a library function (the project's own make_data_loader): such a call
// after the #include counts as code that did not parse. A qualified call, a
// call before the #include and a call of a user function stay.
TEST(ParseRecoveryTest, UnqualifiedLibraryCallsAfterAMissingHeaderAreOpen) {
  const std::map<std::string, std::string> Library = {
      {"/library/torch.h", "namespace torch::data {\n"
                           "int make_data_loader(int batch_size);\n"
                           "}\n"}};
  const std::vector<std::string> Args = {"-std=c++17", "-isystem", "/library"};
  Parsed P("#include <torch.h>\n"
           "using namespace torch::data;\n"
           "void before() { make_data_loader(1); }\n"
           "#include <project/loaders.h>\n"
           "int mine(int n) { return n; }\n"
           "void train() { int loader = make_data_loader(2); ++loader; }\n"
           "void evaluate() {\n"
           "  int loader = torch::data::make_data_loader(3); ++loader;\n"
           "  mine(loader);\n"
           "}\n",
           Args, Library);
  EXPECT_TRUE(P.Errors.empty()) << "only the missing header's";
  EXPECT_TRUE(P.invented(CallsCheck, "make_data_loader(2)"));
  EXPECT_TRUE(P.invented(CallsCheck, "++loader; }"));
  EXPECT_FALSE(P.invented(CallsCheck, "make_data_loader(1)"));
  EXPECT_FALSE(P.invented(CallsCheck, "torch::data::make_data_loader(3)"));
  EXPECT_FALSE(P.invented(CallsCheck, "mine(loader)"));
  EXPECT_TRUE(P.invented(UnitCheck, "mine(loader)"));

  // A library call that involves no LibTorch object (C's string functions
  // on a file name) tells the checks nothing, whichever function of its
  // name it is; one that takes a LibTorch object is open.
  const std::map<std::string, std::string> CLibrary = {
      {"/library/torch.h", "namespace torch::data {\n"
                           "struct Loader {};\n"
                           "int make_data_loader(int batch_size);\n"
                           "}\n"},
      {"/library/string.h", "char *strstr(const char *, const char *);\n"
                            "namespace torch::data { struct Loader; }\n"
                            "void hold(torch::data::Loader &);\n"}};
  const std::string Start = "#include <torch.h>\n"
                            "#include <string.h>\n"
                            "#include <io.h>\n";
  Parsed Strings(Start + "bool image(const char *name) {\n"
                         "  return strstr(name, \".jpg\"); }\n",
                 Args, CLibrary);
  EXPECT_TRUE(Strings.Errors.empty()) << "only the missing header's";
  EXPECT_FALSE(Strings.Recovery.anyCodeBroken());
  EXPECT_FALSE(Strings.invented(CallsCheck, "strstr(name"));
  Parsed Loaders(Start + "void keep(torch::data::Loader &l) { hold(l); }\n",
                 Args, CLibrary);
  EXPECT_TRUE(Loaders.invented(CallsCheck, "hold(l)"));

  // Without the missing header, the same calls are complete.
  Parsed Whole("#include <torch.h>\n"
               "using namespace torch::data;\n"
               "void train() { int loader = make_data_loader(2); ++loader; }\n",
               Args, Library);
  EXPECT_FALSE(Whole.Recovery.anyCodeBroken());
  EXPECT_FALSE(Whole.invented(CallsCheck, "make_data_loader(2)"));
}

// A qualified name is open too where a declaration of the missing header
// would win its lookup: `::f` (anybody may declare in the global
// namespace), and `ns::f` where `ns` is the project's and `f` is not
// declared in it but brought in by a using-directive or using-declaration
// (a declaration in `ns` hides them). A name of the namespace that declares
// the function, directly, by an alias or through an inline namespace, is
// not; nor is a library's namespace that brings in another's function
// (`std::printf`).
TEST(ParseRecoveryTest, QualifiedCallsThatADeclarationCouldWinAreOpen) {
  const std::map<std::string, std::string> Library = {
      {"/library/torch.h",
       "namespace torch::data {\n"
       "inline namespace v2 {\n"
       "int make_data_loader(int batch_size);\n"
       "}\n"
       "}\n"
       "namespace std { using torch::data::make_data_loader; }\n"}};
  const std::vector<std::string> Args = {"-std=c++17", "-isystem", "/library"};
  Parsed P("#include <torch.h>\n"
           "using namespace torch::data;\n"
           "namespace project { using namespace torch::data; }\n"
           "namespace wrappers { using torch::data::make_data_loader; }\n"
           "namespace td = torch::data;\n"
           "#include <project/loaders.h>\n"
           "void global() { int l = ::make_data_loader(1); ++l; }\n"
           "void directive() { int l = project::make_data_loader(2); ++l; }\n"
           "void declaration() {\n"
           "  int l = wrappers::make_data_loader(3); ++l;\n"
           "}\n"
           "void own() { int l = torch::data::make_data_loader(4); ++l; }\n"
           "void alias() { int l = td::make_data_loader(5); ++l; }\n"
           "void inner() { int l = torch::data::v2::make_data_loader(6); }\n"
           "void library() { int l = std::make_data_loader(7); }\n",
           Args, Library);
  EXPECT_TRUE(P.Errors.empty()) << "only the missing header's";
  EXPECT_TRUE(P.invented(CallsCheck, "::make_data_loader(1)"));
  EXPECT_TRUE(P.invented(CallsCheck, "project::make_data_loader(2)"));
  EXPECT_TRUE(P.invented(CallsCheck, "wrappers::make_data_loader(3)"));
  EXPECT_FALSE(P.invented(CallsCheck, "torch::data::make_data_loader(4)"));
  EXPECT_FALSE(P.invented(CallsCheck, "td::make_data_loader(5)"));
  EXPECT_FALSE(P.invented(CallsCheck, "v2::make_data_loader(6)"));
  EXPECT_FALSE(P.invented(CallsCheck, "std::make_data_loader(7)"));
}

constexpr char Program[] = R"cpp(#include <opencv2/highgui.hpp>
void draw() { int shown = 1; ++shown; }
void show(int step) {
  if (cv::waitKey(step) == 'q')
    draw();
}
void log_loss() { int logged = 0; ++logged; }
void train() {
  for (int step = 0; step < 10; ++step) {
    log_loss();
    show(step);
  }
}
void evaluate() { int correct = 0; ++correct; }
int main() {
  train();
  evaluate();
  auto inline_show = [] { cv::imshow("x"); };
  inline_show();
}
)cpp";

// show() does not parse: its condition is a RecoveryExpr, so what draw()
// does looks unconditional. The functions show() calls, and the calls that
// reach show(), are left out; the rest of train() and its other callees
// stay.
TEST(ParseRecoveryTest, BrokenFunctionsTheirCalleesAndTheCallsReachingThem) {
  Parsed P(Program);
  EXPECT_TRUE(P.Recovery.anyCodeBroken());
  EXPECT_TRUE(P.invented(CallsCheck, "draw();"));
  EXPECT_TRUE(P.invented(CallsCheck, "++shown"));
  EXPECT_TRUE(P.invented(CallsCheck, "show(step);"));
  EXPECT_TRUE(P.invented(CallsCheck, "train();"));
  EXPECT_FALSE(P.invented(CallsCheck, "log_loss();"));
  EXPECT_FALSE(P.invented(CallsCheck, "++logged"));
  EXPECT_FALSE(P.invented(CallsCheck, "for (int step"));
  EXPECT_FALSE(P.invented(CallsCheck, "++correct"));
  EXPECT_FALSE(P.invented(CallsCheck, "evaluate();"));
  // A lambda is a function of its own that its definer calls.
  EXPECT_TRUE(P.invented(CallsCheck, "[] { cv::imshow"));
  // The checks that look anywhere for their evidence report nothing.
  EXPECT_TRUE(P.invented(UnitCheck, "++logged"));
  EXPECT_TRUE(P.invented(UnitCheck, "evaluate();"));
  // Another clang-tidy check counts as one of the call graph.
  EXPECT_FALSE(P.invented("bugprone-branch-clone", "++correct"));
}

// An error in a class outside its functions (a member of a type not
// declared) breaks every function of the class, and every function after
// it: their uses of the member vanish without errors of their own. What
// comes before cannot use it.
TEST(ParseRecoveryTest, AnErrorInAClassBreaksItsFunctionsAndWhatFollows) {
  Parsed P(R"cpp(struct Trainer {
  void step() { int stepped = 0; ++stepped; }
};
struct Viewer {
  void grab() { int grabbed = 0; ++grabbed; }
  cv::Mat frame;
};
void show(Viewer &v) { int shown = 0; ++shown; }
)cpp");
  EXPECT_FALSE(P.invented(CallsCheck, "++stepped"));
  EXPECT_TRUE(P.invented(CallsCheck, "++grabbed"));
  EXPECT_TRUE(P.invented(CallsCheck, "++shown"));
}

// The same for a global of a type not declared.
TEST(ParseRecoveryTest, ABrokenGlobalBreaksWhatFollowsIt) {
  Parsed P("void before() { int b = 0; ++b; }\n"
           "cxxopts::Options options;\n"
           "void train() { int n = 0; ++n; }\n");
  EXPECT_FALSE(P.invented(CallsCheck, "++b"));
  EXPECT_TRUE(P.invented(CallsCheck, "++n"));
  EXPECT_TRUE(P.invented(UnitCheck, "++b"));
}

// An error limit reached leaves everything out: what came after it was not
// reported.
TEST(ParseRecoveryTest, TheErrorLimitLeavesEverythingOut) {
  std::string Code = "void train() { int n = 0; ++n; }\n";
  for (int I = 0; I < 30; ++I)
    Code += "void f" + std::to_string(I) + "() { undeclared_" +
            std::to_string(I) + "(); }\n";
  Parsed P(Code, {"-std=c++17", "-ferror-limit=10"});
  EXPECT_TRUE(P.invented(CallsCheck, "++n"));
  EXPECT_FALSE(Parsed(Code, {"-std=c++17", "-ferror-limit=0"})
                   .invented(CallsCheck, "++n"));
}

// The errors of a class template's member are its pattern's, whether it is
// instantiated or not.
TEST(ParseRecoveryTest, TemplatePatternsHoldTheirInstantiationsErrors) {
  Parsed P(R"cpp(template <typename T> struct Fit {
  void epoch() { T value{}; value.render(); }
  void step() { int stepped = 0; ++stepped; }
};
void run() { Fit<int> fit; fit.epoch(); fit.step(); }
)cpp");
  EXPECT_TRUE(P.Recovery.anyCodeBroken());
  EXPECT_TRUE(P.invented(CallsCheck, "value.render"));
  EXPECT_TRUE(P.invented(CallsCheck, "fit.epoch()"));
  EXPECT_FALSE(P.invented(CallsCheck, "++stepped"));
  EXPECT_FALSE(P.invented(CallsCheck, "fit.step()"));
}

} // namespace parse_recovery_test
