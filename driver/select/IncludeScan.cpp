//===--- IncludeScan.cpp - Which project files a unit includes ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/IncludeScan.h"
#include "select/GitRepository.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <deque>

using namespace llvm;

namespace libtorch_tidy::select {

std::vector<IncludeDirective> scanIncludeDirectives(StringRef Source) {
  std::vector<IncludeDirective> Result;
  SmallVector<StringRef, 0> Lines;
  Source.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim(" \t");
    StringRef Keyword =
        Line.take_while([](char C) { return isAlnum(C) || C == '_'; });
    if (Keyword != "include" && Keyword != "include_next" &&
        Keyword != "import")
      continue;
    Line = Line.drop_front(Keyword.size());
    Line = Line.ltrim(" \t").rtrim(" \t\r");
    IncludeDirective Directive;
    char Close = 0;
    if (Line.starts_with("\""))
      Close = '"';
    else if (Line.starts_with("<"))
      Close = '>', Directive.Angled = true;
    if (!Close) {
      if (Line.empty() || (!isAlpha(Line.front()) && Line.front() != '_'))
        continue;
      Directive.Computed = true;
      Directive.Spelling = Line.str();
      Result.push_back(std::move(Directive));
      continue;
    }
    size_t End = Line.find(Close, 1);
    if (End == StringRef::npos)
      continue;
    Directive.Spelling = Line.slice(1, End).str();
    Result.push_back(std::move(Directive));
  }
  return Result;
}

const std::vector<IncludeDirective> &
IncludeScanner::directivesOf(StringRef File) {
  auto It = Directives.find(File);
  if (It != Directives.end())
    return It->second;
  std::vector<IncludeDirective> Found;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(
          File, /*IsText=*/false, /*RequiresNullTerminator=*/false))
    Found = scanIncludeDirectives((*Text)->getBuffer());
  return Directives.try_emplace(File, std::move(Found)).first->second;
}

namespace {

struct SearchPath {
  std::vector<std::string> Quote, Angled, System, Forced;
};

std::string absoluteIn(StringRef Directory, StringRef Path) {
  SmallString<256> Result(Path);
  if (!sys::path::is_absolute(Result)) {
    Result = Directory;
    sys::path::append(Result, Path);
  }
  sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return std::string(Result);
}

SearchPath searchPathOf(const clang::tooling::CompileCommand &Command) {
  SearchPath Paths;
  const std::vector<std::string> &Args = Command.CommandLine;
  struct Flag {
    StringRef Name;
    std::vector<std::string> SearchPath::*List;
  };
  const Flag Flags[] = {
      {"-iquote", &SearchPath::Quote},
      {"-isystem", &SearchPath::System},
      {"-idirafter", &SearchPath::System},
      {"-include-pch", nullptr},
      {"-include", &SearchPath::Forced},
      {"--include-directory", &SearchPath::Angled},
      {"-I", &SearchPath::Angled},
  };
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    for (const Flag &F : Flags) {
      if (!Arg.starts_with(F.Name))
        continue;
      StringRef Value = Arg.drop_front(F.Name.size());
      Value.consume_front("=");
      if (Value.empty()) {
        if (I + 1 >= Args.size())
          break;
        Value = Args[++I];
      }
      if (F.List)
        (Paths.*F.List).push_back(absoluteIn(Command.Directory, Value));
      break;
    }
  }
  return Paths;
}

bool isUnder(StringRef File, StringRef Dir) {
  return !relativeToRoot(File, Dir).empty();
}

} // namespace

UnitIncludes IncludeScanner::scan(const clang::tooling::CompileCommand &Command,
                                  StringRef AbsoluteUnit) {
  SearchPath Paths = searchPathOf(Command);
  std::string Root = findGitTopLevel(AbsoluteUnit);
  auto InProject = [&](StringRef File) {
    if (!Root.empty())
      return isUnder(File, Root);
    for (const std::string &Dir : Paths.System)
      if (isUnder(File, Dir))
        return false;
    return true;
  };
  auto FindIn = [](const std::vector<std::string> &Dirs, StringRef Name,
                   std::string &Found) {
    for (const std::string &Dir : Dirs) {
      std::string Candidate = absoluteIn(Dir, Name);
      if (sys::fs::is_regular_file(Candidate)) {
        Found = std::move(Candidate);
        return true;
      }
    }
    return false;
  };

  UnitIncludes Result;
  std::deque<std::string> Queue;
  auto Visit = [&](std::string File) {
    if (InProject(File) && Result.Files.insert(File).second)
      Queue.push_back(std::move(File));
  };
  Visit(AbsoluteUnit.str());
  for (const std::string &Forced : Paths.Forced)
    Visit(Forced);
  while (!Queue.empty()) {
    std::string File = std::move(Queue.front());
    Queue.pop_front();
    for (const IncludeDirective &Include : directivesOf(File)) {
      if (Include.Computed) {
        Result.HasComputedInclude = true;
        continue;
      }
      std::string Found;
      if (sys::path::is_absolute(Include.Spelling)) {
        if (sys::fs::is_regular_file(Include.Spelling))
          Found = absoluteIn("/", Include.Spelling);
      } else {
        // "" looks next to the including file and in -iquote first.
        bool Quoted = !Include.Angled &&
                      (FindIn({std::string(sys::path::parent_path(File))},
                              Include.Spelling, Found) ||
                       FindIn(Paths.Quote, Include.Spelling, Found));
        if (!Quoted && !FindIn(Paths.Angled, Include.Spelling, Found))
          FindIn(Paths.System, Include.Spelling, Found);
      }
      if (!Found.empty())
        Visit(std::move(Found));
    }
  }
  return Result;
}

} // namespace libtorch_tidy::select
