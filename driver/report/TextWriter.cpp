//===--- TextWriter.cpp - Findings in clang's text format -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/TextWriter.h"
#include "clang-compat/ClangCompat.h"
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
/// source lines the offsets point into, as long as they hold the bytes the
/// analysis parsed. The file system has a working
/// directory of its own: each unit's relative paths resolve against its build
/// directory, and the process's working directory, against which `--output`
/// and `--export-fixes` resolve, stays as it is (the shared real file system
/// would change it for the whole process).
class Renderer {
public:
  Renderer(raw_ostream &OS, bool Color,
           const std::map<std::string, std::string> *Originals)
      : OS(OS), Files(FileSystemOptions(), filesAsAnalyzed(Originals)),
        DiagOpts(compat::newDiagnosticOptions()),
        Printer(compat::newTextDiagnosticPrinter(OS, DiagOpts).release()),
        Diags(compat::newDiagnosticIDs(), compat::engineOptions(DiagOpts),
              Printer),
        Sources(Diags, Files) {
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
    Parsed = parsedEntries(D.ParsedDigests);
    {
      auto Level = F.Severity == "error" ? DiagnosticsEngine::Error
                                         : DiagnosticsEngine::Warning;
      // clang-tidy marks warnings promoted by --warnings-as-errors.
      std::string Name = F.CheckId;
      if (F.Severity == "error" &&
          !StringRef(Name).starts_with("clang-diagnostic-"))
        Name += ",-warnings-as-errors";
      auto Builder = reportAt(F.Where, Diags.getCustomDiagID(Level, "%0 [%1]"))
                     << F.Message << Name;
      addRangesAndFixes(Builder, F.Ranges, F.Fixes);
    }
    for (const auto &[Repl, Applied] : D.FixOutcome)
      Diags.Report(location(Repl.File, Repl.Offset),
                   Applied ? diag::note_fixit_applied
                           : diag::note_fixit_failed);
    for (const model::Note &N : F.Notes) {
      auto Builder =
          reportAt(N.Where,
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

  /// The file entries of \p Digests (absolute paths), with the digest of
  /// the bytes the unit parsed.
  std::map<const FileEntry *, std::string>
  parsedEntries(const std::map<std::string, std::string> *Digests) {
    std::map<const FileEntry *, std::string> Entries;
    if (Digests)
      for (const auto &[Path, Digest] : *Digests)
        if (OptionalFileEntryRef Entry = Files.getOptionalFileRef(Path))
          Entries.emplace(&Entry->getFileEntry(), Digest);
    return Entries;
  }

  /// Whether the bytes the printer would show for \p ID are those the unit
  /// parsed (or no digest says otherwise).
  bool asParsed(const FileEntry &Entry, FileID ID) {
    auto Recorded = Parsed.find(&Entry);
    if (Recorded == Parsed.end())
      return true;
    auto [Known, Inserted] = ShownDigests.try_emplace(ID);
    if (Inserted) {
      std::optional<StringRef> Bytes = Sources.getBufferDataOrNone(ID);
      Known->second = Bytes ? model::contentDigest(*Bytes) : "";
    }
    return Known->second == Recorded->second;
  }

  /// Where \p Offset of \p File is in the bytes the unit parsed; invalid
  /// when the file cannot be read or no longer holds those bytes.
  SourceLocation location(StringRef File, unsigned Offset) {
    if (File.empty())
      return {};
    OptionalFileEntryRef Entry = Files.getOptionalFileRef(File);
    if (!Entry)
      return {};
    FileID ID = Sources.getOrCreateFileID(*Entry, SrcMgr::C_User);
    if (!asParsed(Entry->getFileEntry(), ID))
      return {};
    return Sources.getLocForStartOfFile(ID).getLocWithOffset(
        static_cast<int>(Offset));
  }

  /// Reports \p DiagID at \p Where. Where the file cannot be shown, clang's
  /// printer would print no location at all: the line and column the
  /// analysis computed on the parsed bytes are printed as it prints them.
  DiagnosticBuilder reportAt(const model::Location &Where, unsigned DiagID) {
    SourceLocation Loc = location(Where.File, Where.Offset);
    if (Loc.isInvalid() && !Where.File.empty() && Where.Begin.Line) {
      if (DiagOpts->ShowColors)
        OS.changeColor(raw_ostream::SAVEDCOLOR, /*Bold=*/true);
      OS << Where.File << ':' << Where.Begin.Line << ':' << Where.Begin.Column
         << ": ";
      if (DiagOpts->ShowColors)
        OS.resetColor();
    }
    return Diags.Report(Loc, DiagID);
  }

  CharSourceRange range(StringRef File, unsigned Offset, unsigned Length) {
    SourceLocation Begin = location(File, Offset);
    return CharSourceRange::getCharRange(
        Begin, Begin.getLocWithOffset(static_cast<int>(Length)));
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

  raw_ostream &OS;
  FileManager Files;
  LangOptions LangOpts;
  compat::DiagnosticOptionsPtr DiagOpts;
  TextDiagnosticPrinter *Printer; // owned by Diags
  DiagnosticsEngine Diags;
  SourceManager Sources;
  /// The digests of the parsed files of the diagnostic being reported.
  std::map<const FileEntry *, std::string> Parsed;
  std::map<FileID, std::string> ShownDigests;
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

std::vector<const model::Finding *>
TextOrder::next(const model::TranslationUnitResult &Unit,
                bool WithCompilerErrors) {
  std::vector<const model::Finding *> New;
  auto Add = [&](const model::Finding &F) {
    if (Seen.insert(model::keyOf(F)).second)
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
    D.ParsedDigests = &Unit.ContentDigests;
    if (Outcomes) {
      auto It = Outcomes->find(model::keyOf(*F));
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
