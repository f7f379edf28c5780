//===--- ChecksFuzzer.cpp - libFuzzer target for the libtorch checks ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes, as the main file of a C++17 translation unit that
// sees the mock LibTorch headers, through every `libtorch-*` check exactly as
// clang-tidy runs them (ClangTidyASTConsumerFactory, the same diagnostic
// consumer), then applies every fix-it of the main file to the buffer. Any
// crash, sanitizer report or fix-it that cannot be applied to the text it was
// computed on is a finding. Build with -DLIBTORCH_TIDY_FUZZ=ON (README,
// "Fuzzing"); scripts/fuzz runs it.
//
//===----------------------------------------------------------------------===//

#include "clang-compat/ClangCompat.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace clang::tidy {
// Pulls in the `libtorch` module, which registers itself statically.
extern volatile int LibTorchTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED LibTorchTidyModuleAnchorDestination =
    LibTorchTidyModuleAnchorSource;
} // namespace clang::tidy

namespace {

using namespace clang;
using namespace clang::tidy;

constexpr llvm::StringLiteral MainFile = "/fuzz/input.cpp";

/// The frontend action clang-tidy itself uses: the consumer comes from the
/// factory, which creates the enabled checks for this translation unit.
class ChecksAction : public ASTFrontendAction {
public:
  explicit ChecksAction(ClangTidyASTConsumerFactory &Factory)
      : Factory(Factory) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                 StringRef File) override {
    return Factory.createASTConsumer(Compiler, File);
  }

private:
  ClangTidyASTConsumerFactory &Factory;
};

/// A fix-it that does not apply to the very text it was computed on would
/// corrupt a user's file under --fix: report it as loudly as a crash.
void applyMainFileFixes(const std::vector<ClangTidyError> &Errors,
                        StringRef Code) {
  for (const ClangTidyError &Error : Errors) {
    auto Apply = [&](const llvm::StringMap<tooling::Replacements> &Fix) {
      auto It = Fix.find(MainFile);
      if (It == Fix.end())
        return;
      llvm::Expected<std::string> Fixed =
          tooling::applyAllReplacements(Code, It->second);
      if (!Fixed) {
        llvm::errs() << "fix-it of " << Error.DiagnosticName
                     << " does not apply: " << llvm::toString(Fixed.takeError())
                     << "\n";
        std::abort();
      }
    };
    Apply(Error.Message.Fix);
    for (const auto &Note : Error.Notes)
      Apply(Note.Fix);
  }
}

void runChecks(StringRef Code) {
  ClangTidyOptions Options = ClangTidyOptions::getDefaults();
  Options.Checks = "-*,libtorch-*";
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), Options));
  ClangTidyDiagnosticConsumer DiagConsumer(Context);
  const std::unique_ptr<DiagnosticsEngine> Diags =
      compat::attachDiagnosticsEngine(Context, DiagConsumer);

  auto InMemoryFS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  auto OverlayFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  OverlayFS->pushOverlay(InMemoryFS);
  InMemoryFS->addFile(MainFile, 0,
                      llvm::MemoryBuffer::getMemBufferCopy(Code, MainFile));
  auto Files =
      llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), OverlayFS);

  ClangTidyASTConsumerFactory Factory(Context, OverlayFS);
  std::vector<std::string> Args = {"clang-tidy",
                                   "-fsyntax-only",
                                   "-std=c++17",
                                   "-isystem",
                                   LIBTORCH_TIDY_MOCK_INCLUDE_DIR,
                                   "-resource-dir",
                                   LIBTORCH_TIDY_CLANG_RESOURCE_DIR,
                                   "-ferror-limit=20",
                                   std::string(MainFile)};
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<ChecksAction>(Factory), Files.get());
  Invocation.setDiagnosticConsumer(&DiagConsumer);
  Invocation.run(); // false on compile errors: expected for most inputs.
  DiagConsumer.finish();
  applyMainFileFixes(DiagConsumer.take(), Code);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  runChecks(StringRef(reinterpret_cast<const char *>(Data), Size));
  return 0;
}
