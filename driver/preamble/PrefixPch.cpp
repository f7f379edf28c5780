//===--- PrefixPch.cpp - Precompile a unit's include prefix ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "preamble/PrefixPch.h"
#include "cache/DependencyRecording.h"
#include "clang-compat/ClangCompat.h"
#include "io/FileIO.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/ASTWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace libtorch_tidy::preamble {
namespace {

/// Marks every namespace of the prefix referenced, before the PCH writer
/// runs. clang 16's writer records each declaration's Decl::isReferenced(),
/// which walks the declaration's redeclarations until one is marked: for a
/// namespace that nobody marked (`namespace at {` is reopened thousands of
/// times by LibTorch's headers, 10,597 namespace declarations in all under
/// <torch/torch.h>) that is quadratic, 0.34 s of a 2.0 s write. The mark
/// changes nothing else: only the unused-declaration warnings read it, and
/// they never concern a namespace.
class NamespaceMarker : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Context) override {
    std::vector<DeclContext *> Contexts{Context.getTranslationUnitDecl()};
    while (!Contexts.empty()) {
      DeclContext *Scope = Contexts.back();
      Contexts.pop_back();
      for (Decl *D : Scope->decls()) {
        if (auto *Namespace = dyn_cast<NamespaceDecl>(D)) {
          Namespace->setReferenced();
          Contexts.push_back(Namespace);
        } else if (auto *Linkage = dyn_cast<LinkageSpecDecl>(D)) {
          Contexts.push_back(Linkage);
        }
      }
    }
  }
};

/// The PCH writer, asked by Sema which bodies to skip.
class SkippingPchConsumer : public MultiplexConsumer {
public:
  SkippingPchConsumer(std::unique_ptr<ASTConsumer> Writer,
                      const SourceManager &Sources, SkipPolicy::Bodies Bodies)
      : MultiplexConsumer(one(std::move(Writer))), Sources(Sources),
        Bodies(Bodies) {}

  bool shouldSkipFunctionBody(Decl *D) override {
    return skipsBody(D, Sources, Bodies);
  }

private:
  static std::vector<std::unique_ptr<ASTConsumer>>
  one(std::unique_ptr<ASTConsumer> Consumer) {
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::move(Consumer));
    return Consumers;
  }

  const SourceManager &Sources;
  const SkipPolicy::Bodies Bodies;
};

class PrefixPchAction : public GeneratePCHAction {
public:
  PrefixPchAction(std::optional<SkipPolicy::Bodies> SkipBodies,
                  PrefixPchBuild &Build)
      : SkipBodies(SkipBodies), Build(Build) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef InFile) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<cache::AbsentHeaderRecorder>(CI.getPreprocessor(),
                                                      Absent));
    std::unique_ptr<ASTConsumer> Writer = pchWriter(CI, InFile);
    if (!Writer || !SkipBodies)
      return Writer;
    return std::make_unique<SkippingPchConsumer>(
        std::move(Writer), CI.getSourceManager(), *SkipBodies);
  }

  void EndSourceFileAction() override {
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    const OptionalFileEntryRef Prefix =
        SM.getFileEntryRefForID(SM.getMainFileID());
    for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
      const SrcMgr::SLocEntry &Entry = SM.getLocalSLocEntry(I);
      if (!Entry.isFile())
        continue;
      const OptionalFileEntryRef File =
          Entry.getFile().getContentCache().OrigEntry;
      if (!File || (Prefix && *File == *Prefix) ||
          SrcMgr::isSystem(Entry.getFile().getFileCharacteristic()))
        continue;
      Build.Problem = "the prefix reads a file outside the system headers (" +
                      File->getName().str() + ")";
      break;
    }
    Build.Dependencies = cache::readDependencies(SM, Absent);
    GeneratePCHAction::EndSourceFileAction();
  }

  /// The PCH's bytes, once the action has run.
  SmallVector<char, 0> Bytes;

private:
  /// GeneratePCHAction's consumers, writing the PCH into Bytes instead of
  /// a file of clang's: buildPrefixPch() writes them through io::writeFile,
  /// where a full disk is an error of this build (the unit then parses
  /// without the prefix) instead of clang's "IO failure on output stream",
  /// which ends the process.
  std::unique_ptr<ASTConsumer> pchWriter(CompilerInstance &CI,
                                         StringRef InFile) {
    std::string Sysroot;
    if (!ComputeASTConsumerArguments(CI, Sysroot))
      return nullptr;
    if (!CI.getFrontendOpts().RelocatablePCH)
      Sysroot.clear();
    const FrontendOptions &Frontend = CI.getFrontendOpts();
    const std::string &OutputFile = Frontend.OutputFile;
    auto Buffer = std::make_shared<PCHBuffer>();
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<NamespaceMarker>());
    Consumers.push_back(
        compat::newPCHGenerator(CI, OutputFile, Sysroot, Buffer));
    Consumers.push_back(CI.getPCHContainerWriter().CreatePCHContainerGenerator(
        CI, std::string(InFile), OutputFile,
        std::make_unique<raw_svector_ostream>(Bytes), Buffer));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

  std::optional<SkipPolicy::Bodies> SkipBodies;
  PrefixPchBuild &Build;
  std::set<std::string> Absent;
};

} // namespace

PrefixPchBuild
buildPrefixPch(const CompilerInvocation &Unit, StringRef HeaderPath,
               StringRef OutputPath, FileManager &Files,
               std::shared_ptr<PCHContainerOperations> PCHContainerOps,
               std::optional<SkipPolicy::Bodies> SkipBodies) {
  PrefixPchBuild Build;
  auto Invocation = std::make_shared<CompilerInvocation>(Unit);
  FrontendOptions &Frontend = Invocation->getFrontendOpts();
  const InputKind Kind = Frontend.Inputs.empty()
                             ? InputKind(Language::CXX)
                             : Frontend.Inputs.front().getKind();
  Frontend.Inputs.clear();
  Frontend.Inputs.emplace_back(HeaderPath, Kind.getHeader());
  Frontend.ProgramAction = frontend::GeneratePCH;
  Frontend.OutputFile = OutputPath.str();
  Frontend.SkipFunctionBodies = SkipBodies.has_value();
  Invocation->getLangOpts().PCHInstantiateTemplates = true;
  Invocation->getDependencyOutputOpts() = DependencyOutputOptions();

  const std::unique_ptr<CompilerInstance> Instance =
      compat::newCompilerInstance(std::move(Invocation),
                                  std::move(PCHContainerOps));
  CompilerInstance &Clang = *Instance;
  // The unit's parse reports the headers' problems, if any: this build is
  // silent and, on an error, not used.
  compat::createDiagnostics(Clang, Files, new IgnoringDiagConsumer());
  Clang.setFileManager(&Files);
  PrefixPchAction Action(SkipBodies, Build);
  const bool Compiled = Clang.ExecuteAction(Action);
  Clang.setFileManager(nullptr);
  if (!Compiled || Clang.getDiagnostics().hasErrorOccurred()) {
    if (Build.Problem.empty())
      Build.Problem = "the prefix does not compile on its own";
  }
  if (Build.Problem.empty() && Action.Bytes.empty())
    Build.Problem = "no PCH was written";
  Build.Bytes = Action.Bytes.size();
  if (Build.Problem.empty())
    if (std::optional<std::string> Error = io::writeFile(
            OutputPath.str(),
            std::string_view(Action.Bytes.data(), Action.Bytes.size()),
            io::FileMode::Owned)) {
      Build.Problem = "the PCH could not be written";
      Build.WriteError = *Error;
    }
  if (!Build.Problem.empty() || !sys::fs::exists(OutputPath)) {
    if (Build.Problem.empty())
      Build.Problem = "no PCH was written";
    sys::fs::remove(OutputPath);
    return Build;
  }
  Build.Succeeded = true;
  return Build;
}

} // namespace libtorch_tidy::preamble
