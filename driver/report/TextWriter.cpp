//===--- TextWriter.cpp - Findings in clang's text format -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/TextWriter.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendDiagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <algorithm>

using namespace clang;
using namespace llvm;

namespace libtorch_tidy::report {
namespace {

/// A SourceManager over the real files, so clang's printer can show the
/// source lines the offsets point into. The file system has a working
/// directory of its own: each unit's relative paths resolve against its build
/// directory, and the process's working directory, against which `--output`
/// and `--export-fixes` resolve, stays as it is (the shared real file system
/// would change it for the whole process).
class Renderer {
public:
  Renderer(raw_ostream &OS, bool Color,
           const std::map<std::string, std::string> *Originals)
      : Files(FileSystemOptions(), filesAsAnalyzed(Originals)),
        DiagOpts(new DiagnosticOptions()),
        Printer(new TextDiagnosticPrinter(OS, &*DiagOpts)),
        Diags(new DiagnosticIDs(), &*DiagOpts, Printer), Sources(Diags, Files) {
    DiagOpts->ShowColors = Color;
    Printer->BeginSourceFile(LangOpts, nullptr);
  }
  ~Renderer() { Printer->EndSourceFile(); }

  void report(const TextDiagnostic &D) {
    vfs::FileSystem &FS = Files.getVirtualFileSystem();
    if (!D.BuildDirectory.empty()) {
      // Relative to the process's directory, not to the previous unit's.
      SmallString<256> Directory(D.BuildDirectory);
      sys::fs::make_absolute(Directory);
      FS.setCurrentWorkingDirectory(Directory);
    }
    const model::Finding &F = *D.Diagnostic;
    {
      auto Level = F.Severity == "error" ? DiagnosticsEngine::Error
                                         : DiagnosticsEngine::Warning;
      // clang-tidy marks warnings promoted by --warnings-as-errors.
      std::string Name = F.CheckId;
      if (F.Severity == "error" &&
          !StringRef(Name).startswith("clang-diagnostic-"))
        Name += ",-warnings-as-errors";
      auto Builder = Diags.Report(location(F.Where.File, F.Where.Offset),
                                  Diags.getCustomDiagID(Level, "%0 [%1]"))
                     << F.Message << Name;
      addRangesAndFixes(Builder, F.Ranges, F.Fixes);
    }
    for (const auto &[Repl, Applied] : D.FixOutcome)
      Diags.Report(location(Repl.File, Repl.Offset),
                   Applied ? diag::note_fixit_applied
                           : diag::note_fixit_failed);
    for (const model::Note &N : F.Notes) {
      auto Builder =
          Diags.Report(location(N.Where.File, N.Where.Offset),
                       Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0"))
          << N.Message;
      addRangesAndFixes(Builder, N.Ranges, N.Fixes);
    }
  }

private:
  /// The real files (with a working directory of their own), with
  /// \p Originals over them.
  static IntrusiveRefCntPtr<vfs::FileSystem>
  filesAsAnalyzed(const std::map<std::string, std::string> *Originals) {
    IntrusiveRefCntPtr<vfs::FileSystem> Physical(
        vfs::createPhysicalFileSystem());
    if (!Originals || Originals->empty())
      return Physical;
    auto Overlay = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(Physical);
    auto Memory = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
    for (const auto &[Path, Content] : *Originals)
      Memory->addFile(Path, /*ModificationTime=*/0,
                      MemoryBuffer::getMemBufferCopy(Content, Path));
    Overlay->pushOverlay(Memory);
    return Overlay;
  }

  SourceLocation location(StringRef File, unsigned Offset) {
    if (File.empty())
      return {};
    OptionalFileEntryRef Entry = Files.getOptionalFileRef(File);
    if (!Entry)
      return {};
    FileID ID = Sources.getOrCreateFileID(*Entry, SrcMgr::C_User);
    return Sources.getLocForStartOfFile(ID).getLocWithOffset(Offset);
  }

  CharSourceRange range(StringRef File, unsigned Offset, unsigned Length) {
    SourceLocation Begin = location(File, Offset);
    return CharSourceRange::getCharRange(Begin, Begin.getLocWithOffset(Length));
  }

  void addRangesAndFixes(const DiagnosticBuilder &Builder,
                         ArrayRef<model::ByteRange> Ranges,
                         ArrayRef<model::Replacement> Fixes) {
    for (const model::ByteRange &R : Ranges)
      Builder << range(R.File, R.Offset, R.Length);
    for (const model::Replacement &R : Fixes)
      Builder << FixItHint::CreateReplacement(range(R.File, R.Offset, R.Length),
                                              R.Text);
  }

  FileManager Files;
  LangOptions LangOpts;
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts;
  TextDiagnosticPrinter *Printer; // owned by Diags
  DiagnosticsEngine Diags;
  SourceManager Sources;
};

} // namespace

bool isFixable(const model::Finding &F) {
  if (!F.Fixes.empty())
    return true;
  for (const model::Note &N : F.Notes)
    if (!N.Fixes.empty())
      return true;
  return false;
}

DiagnosticKey keyOf(const model::Finding &F) {
  return {F.CheckId, F.Where.AbsoluteFile, F.Where.Offset, F.Message};
}

std::vector<const model::Finding *>
TextOrder::next(const model::TranslationUnitResult &Unit,
                bool WithCompilerErrors) {
  std::vector<const model::Finding *> New;
  auto Add = [&](const model::Finding &F) {
    if (Seen.insert(keyOf(F)).second)
      New.push_back(&F);
  };
  for (const model::Finding &F : Unit.Findings)
    Add(F);
  if (WithCompilerErrors)
    for (const model::Finding &F : Unit.CompilerErrors)
      Add(F);
  // The same key as uniqueDiagnostics(), so a unit's part of the output is
  // what the whole output was before it streamed.
  std::stable_sort(New.begin(), New.end(),
                   [](const model::Finding *A, const model::Finding *B) {
                     return std::tie(A->Where.AbsoluteFile, A->Where.Offset,
                                     A->CheckId, A->Message) <
                            std::tie(B->Where.AbsoluteFile, B->Where.Offset,
                                     B->CheckId, B->Message);
                   });
  return New;
}

void writeText(raw_ostream &OS, ArrayRef<TextDiagnostic> Diagnostics,
               bool Color,
               const std::map<std::string, std::string> *Originals) {
  if (Diagnostics.empty())
    return;
  Renderer R(OS, Color, Originals);
  for (const TextDiagnostic &D : Diagnostics)
    R.report(D);
  OS.flush();
}

void writeUnitText(raw_ostream &OS, TextOrder &Order,
                   const model::TranslationUnitResult &Unit, bool Color,
                   const FixOutcomes *Outcomes,
                   const std::map<std::string, std::string> *Originals) {
  std::vector<TextDiagnostic> Text;
  for (const model::Finding *F : Order.next(Unit)) {
    TextDiagnostic D;
    D.Diagnostic = F;
    D.BuildDirectory = Unit.BuildDirectory;
    if (Outcomes) {
      auto It = Outcomes->find(keyOf(*F));
      if (It != Outcomes->end())
        D.FixOutcome = It->second;
    }
    Text.push_back(std::move(D));
  }
  writeText(OS, Text, Color, Originals);
}

std::string summaryLine(ArrayRef<model::Finding> Findings) {
  StringSet<> Files;
  unsigned Fixable = 0;
  for (const model::Finding &F : Findings) {
    Files.insert(F.Where.AbsoluteFile);
    Fixable += isFixable(F);
  }
  std::string Line = std::to_string(Findings.size()) +
                     (Findings.size() == 1 ? " finding" : " findings") +
                     " in " + std::to_string(Files.size()) +
                     (Files.size() == 1 ? " file" : " files") + " (" +
                     std::to_string(Fixable) + " fixable)";
  return Line;
}

} // namespace libtorch_tidy::report
