//===--- DiffFilter.cpp - --diff: analyze and report what changed ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/DiffFilter.h"
#include "io/FileIO.h"
#include "select/GitRepository.h"
#include "select/IncludeScan.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <optional>
#include <sys/stat.h>

using namespace llvm;

namespace libtorch_tidy::select {

const ChangedLines *ChangedFiles::find(StringRef AbsoluteFile) const {
  auto It = Lines.find(AbsoluteFile.str());
  return It == Lines.end() ? nullptr : &It->second;
}

ChangedFiles resolveDiff(const ParsedDiff &Diff, StringRef BaseDir) {
  ChangedFiles Result;
  for (const auto &[Path, Lines] : Diff.Files) {
    SmallString<256> Absolute(Path);
    if (!sys::path::is_absolute(Absolute)) {
      Absolute = BaseDir;
      sys::path::append(Absolute, Path);
    }
    sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    ChangedLines &Merged = Result.Lines[std::string(Absolute)];
    for (const auto &[First, Last] : Lines.ranges())
      Merged.add(First, Last);
  }
  return Result;
}

namespace {

std::string normalized(StringRef Path) {
  SmallString<256> Result(Path);
  sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return std::string(Result);
}

Error diffError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// The first line of \p Path's content, or "".
std::string firstLineOf(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text)
    return "";
  return (*Text)->getBuffer().trim().split('\n').first.str();
}

/// Runs `git diff -U0 <Ref>` in \p TopLevel and returns its output.
Expected<std::string> runGitDiff(StringRef Ref, StringRef TopLevel) {
  ErrorOr<std::string> Git = sys::findProgramByName("git");
  if (!Git)
    return diffError("--diff=" + Ref +
                     " needs git, which is not on PATH; install git, or pipe "
                     "a diff with --diff=-");
  SmallString<128> OutPath, ErrPath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("libtorch-tidy-diff", "out", OutPath))
    return diffError("cannot create a temporary file for git's output (" +
                     EC.message() + "); check TMPDIR");
  FileRemover OutRemover(OutPath);
  if (std::error_code EC =
          sys::fs::createTemporaryFile("libtorch-tidy-diff", "err", ErrPath))
    return diffError("cannot create a temporary file for git's output (" +
                     EC.message() + "); check TMPDIR");
  FileRemover ErrRemover(ErrPath);

  // Fixed prefixes and no colour, external diff or textconv, whatever the
  // user's git configuration says; `--` so a ref is never taken for a path.
  std::string RefArg = Ref.str();
  SmallVector<StringRef, 16> Args = {*Git,
                                     "-C",
                                     TopLevel,
                                     "-c",
                                     "core.quotePath=true",
                                     "diff",
                                     "-U0",
                                     "--no-color",
                                     "--no-ext-diff",
                                     "--no-textconv",
                                     "--src-prefix=a/",
                                     "--dst-prefix=b/",
                                     RefArg,
                                     "--"};
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(OutPath),
                                          StringRef(ErrPath)};
  std::string ExecError;
  int Status =
      sys::ExecuteAndWait(*Git, Args, /*Env=*/std::nullopt, Redirects,
                          /*SecondsToWait=*/0, /*MemoryLimit=*/0, &ExecError);
  if (Status != 0) {
    std::string Why = firstLineOf(ErrPath);
    if (Why.empty())
      Why = ExecError.empty() ? "exit status " + std::to_string(Status)
                              : ExecError;
    return diffError("'git diff " + Ref + "' failed in '" + TopLevel + "' (" +
                     Why +
                     "); pass a ref that exists there, e.g. "
                     "--diff=origin/main");
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Out = MemoryBuffer::getFile(OutPath);
  if (!Out)
    return diffError("cannot read git's output (" + Out.getError().message() +
                     ")");
  return (*Out)->getBuffer().str();
}

} // namespace

Expected<ChangedFiles> readChanges(StringRef Spec, StringRef WorkingDir,
                                   const std::string *StdinText) {
  std::string TopLevel = findGitTopLevel(WorkingDir);
  std::string Text;
  if (Spec == "-") {
    if (StdinText) {
      Text = *StdinText;
    } else {
      std::string Problem;
      // A terminal or a device (`< /dev/zero`) never holds a diff, and
      // reading one would wait for a user or never end.
      struct stat Input;
      if (::fstat(0, &Input) == 0 && S_ISCHR(Input.st_mode))
        return diffError("cannot read the diff on standard input: it is a "
                         "device, not a diff; pipe one in, e.g. 'git diff "
                         "-U0 origin/main | libtorch-tidy --diff=- ...'");
      std::optional<std::string> In = io::readStream(
          0, io::MaxDiffBytes, "the diff on standard input", Problem);
      if (!In)
        return diffError(Problem +
                         "; pipe one in, e.g. 'git diff -U0 origin/main | "
                         "libtorch-tidy --diff=- ...'");
      Text = std::move(*In);
    }
  } else {
    if (Spec.empty() || Spec.starts_with("-"))
      return diffError("invalid --diff='" + Spec +
                       "'; pass a git ref (e.g. --diff=origin/main) or '-' "
                       "for a diff on standard input");
    if (TopLevel.empty())
      return diffError("--diff=" + Spec + ": '" + WorkingDir +
                       "' is not inside a git repository; run from your "
                       "checkout, or pipe a diff with --diff=-");
    Expected<std::string> Output = runGitDiff(Spec, TopLevel);
    if (!Output)
      return Output.takeError();
    Text = std::move(*Output);
  }
  Expected<ParsedDiff> Parsed = parseUnifiedDiff(Text);
  if (!Parsed)
    return Parsed.takeError();
  // git prints paths relative to the top of the repository.
  StringRef Base =
      Parsed->FromGit && !TopLevel.empty() ? StringRef(TopLevel) : WorkingDir;
  return resolveDiff(*Parsed, Base);
}

std::vector<std::string>
selectChangedUnits(ArrayRef<std::string> Units, const ChangedFiles &Changes,
                   const clang::tooling::CompilationDatabase &Compilations) {
  // Changed files that are not units themselves: headers and the like.
  StringSet<> UnitSet;
  for (const std::string &Unit : Units)
    UnitSet.insert(normalized(Unit));
  std::vector<std::string> ChangedOthers;
  for (const auto &[File, Lines] : Changes.Lines)
    if (!Lines.empty() && !UnitSet.contains(File))
      ChangedOthers.push_back(File);

  IncludeScanner Scanner;
  std::vector<std::string> Selected;
  for (const std::string &Unit : Units) {
    const std::string Key = normalized(Unit);
    const ChangedLines *Own = Changes.find(Key);
    if (Own && !Own->empty()) {
      Selected.push_back(Unit);
      continue;
    }
    if (ChangedOthers.empty())
      continue;
    std::vector<clang::tooling::CompileCommand> Commands =
        Compilations.getCompileCommands(Unit);
    clang::tooling::CompileCommand Command;
    if (!Commands.empty())
      Command = Commands.front();
    else
      Command.Directory = sys::path::parent_path(Unit).str();
    UnitIncludes Reached = Scanner.scan(Command, Key);
    bool Includes = Reached.HasComputedInclude ||
                    std::any_of(ChangedOthers.begin(), ChangedOthers.end(),
                                [&](const std::string &F) {
                                  return Reached.Files.count(F);
                                });
    if (Includes)
      Selected.push_back(Unit);
  }
  return Selected;
}

unsigned keepFindingsOnChangedLines(model::RunResult &Run,
                                    const ChangedFiles &Changes) {
  unsigned Removed = 0;
  for (model::TranslationUnitResult &Unit : Run.Units) {
    auto OffChanges = [&](const model::Finding &F) {
      const ChangedLines *Lines =
          Changes.find(normalized(F.Where.AbsoluteFile));
      return !Lines || !Lines->contains(F.Where.Begin.Line);
    };
    auto Tail =
        std::remove_if(Unit.Findings.begin(), Unit.Findings.end(), OffChanges);
    Removed += std::distance(Tail, Unit.Findings.end());
    Unit.Findings.erase(Tail, Unit.Findings.end());
  }
  return Removed;
}

} // namespace libtorch_tidy::select
