//===--- BuildCommands.cpp - Compile commands of real builds --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "units/BuildCommands.h"
#include "clang-compat/ClangCompat.h"
#include "report/Wording.h"
#include "units/CudaCommands.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Basic/Version.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace llvm;
using namespace clang::tooling;

namespace libtorch_tidy {
namespace {

/// Programs that run the compiler named after them.
bool isLauncher(StringRef Program) {
  Program = sys::path::filename(Program);
  Program.consume_back(".exe");
  return Program == "ccache" || Program == "sccache" || Program == "distcc" ||
         Program == "icecc" || Program == "buildcache";
}

/// Drops launchers in front of the compiler; `ccache -c a.cpp` (a launcher
/// that finds the compiler itself) becomes `c++ -c a.cpp`.
void dropLaunchers(std::vector<std::string> &Args) {
  while (!Args.empty() && isLauncher(Args.front())) {
    if (Args.size() < 2 || StringRef(Args[1]).starts_with("-")) {
      Args.front() = "c++";
      return;
    }
    Args.erase(Args.begin());
  }
}

std::string absoluteIn(StringRef Directory, StringRef Path) {
  SmallString<256> Absolute(Path);
  if (!sys::path::is_absolute(Absolute) && !Directory.empty())
    clang::compat::makeAbsolute(Directory, Absolute);
  return std::string(Absolute);
}

/// The precompiled header clang's driver would use for `-include Header`
/// (it looks for Header.pch, then Header.gch), or empty.
std::string precompiledBeside(StringRef Directory, StringRef Header) {
  std::string Absolute = absoluteIn(Directory, Header);
  for (StringRef Extension : {".pch", ".gch"}) {
    std::string Candidate = Absolute + Extension.str();
    if (sys::fs::exists(Candidate))
      return Candidate;
  }
  return std::string();
}

/// The header a PCH was built from: `x.hxx` for `x.hxx.gch` or `x.hxx.pch`.
std::string headerOfPch(StringRef Directory, StringRef Pch) {
  StringRef Header = Pch;
  if (!Header.consume_back(".pch") && !Header.consume_back(".gch"))
    return std::string();
  std::string Absolute = absoluteIn(Directory, Header);
  return sys::fs::is_regular_file(Absolute) ? Header.str() : std::string();
}

void includeText(std::vector<std::string> &Out, StringRef Header) {
  for (StringRef Arg : {StringRef("-include"), Header}) {
    Out.push_back("-Xclang");
    Out.push_back(Arg.str());
  }
}

/// The precompiled header handling of the file comment (BuildCommands.h).
std::vector<std::string> includeHeaderText(ArrayRef<std::string> Args,
                                           StringRef Directory,
                                           BuildCommandChanges *Changes) {
  // Whether any `-include` has a PCH beside it: then all of them are
  // rewritten, which keeps their order.
  bool AnyPrecompiled = false;
  for (size_t I = 0; I + 1 < Args.size(); ++I) {
    if (Args[I] != "-include")
      continue;
    std::string Pch = precompiledBeside(Directory, Args[I + 1]);
    if (Pch.empty())
      continue;
    AnyPrecompiled = true;
    if (Changes)
      Changes->PrecompiledHeaders.push_back(Pch);
  }
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (AnyPrecompiled && Arg == "-include" && I + 1 < Args.size()) {
      includeText(Out, Args[++I]);
      continue;
    }
    // `-include-pch P`, or `-Xclang -include-pch -Xclang P` (CMake with
    // clang, which then also includes the header's text itself).
    std::string Pch;
    if (Arg == "-include-pch" && I + 1 < Args.size()) {
      Pch = Args[++I];
    } else if (Arg == "-Xclang" && I + 3 < Args.size() &&
               Args[I + 1] == "-include-pch" && Args[I + 2] == "-Xclang") {
      Pch = Args[I + 3];
      I += 3;
    } else {
      Out.push_back(Arg.str());
      continue;
    }
    std::string Header = headerOfPch(Directory, Pch);
    // `-include Header`, or `-Xclang -include -Xclang Header`.
    bool TextIncluded = false;
    for (size_t K = 1; K < Args.size(); ++K)
      if (Args[K] == Header &&
          (Args[K - 1] == "-include" ||
           (K >= 3 && Args[K - 1] == "-Xclang" && Args[K - 2] == "-include")))
        TextIncluded = true;
    if (Header.empty()) {
      if (Changes)
        Changes->DroppedPch.push_back(Pch);
    } else {
      if (Changes)
        Changes->PrecompiledHeaders.push_back(Pch);
      if (!TextIncluded)
        includeText(Out, Header);
    }
  }
  return Out;
}

/// Drops the arguments clang's driver would reject as unknown or
/// unsupported (in its GCC-compatible mode, as clang-tidy runs it).
std::vector<std::string> dropUnknownArguments(ArrayRef<std::string> Args,
                                              BuildCommandChanges *Changes) {
  if (Args.size() < 2)
    return Args.vec();
  // clang-cl commands have other options: leave them to clang.
  StringRef Program = sys::path::filename(Args.front());
  if (Program.contains_insensitive("cl.exe") ||
      Program.equals_insensitive("clang-cl") ||
      llvm::is_contained(Args, "--driver-mode=cl"))
    return Args.vec();
  std::vector<const char *> Raw;
  for (const std::string &Arg : Args.drop_front())
    Raw.push_back(Arg.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  opt::InputArgList Parsed =
      clang::compat::parseClangDriverArguments(Raw, MissingIndex, MissingCount);
  std::vector<bool> Drop(Args.size(), false);
  for (const opt::Arg *A : Parsed) {
    if (!clang::compat::isUnknownOrUnsupportedOption(A->getOption()))
      continue;
    // One argument, index into Raw: the same index + 1 in Args.
    Drop[A->getIndex() + 1] = true;
    if (Changes)
      Changes->UnknownArguments.push_back(Args[A->getIndex() + 1]);
  }
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I)
    if (!Drop[I])
      Out.push_back(Args[I]);
  return Out;
}

/// The C++ standards in order, each by its year and by the name it had as
/// a draft (`2b` for 23), which is all a clang older than the year knows.
constexpr std::pair<StringLiteral, StringLiteral> CxxStandards[] = {
    {"98", ""},   {"03", ""},   {"11", "0x"}, {"14", "1y"},
    {"17", "1z"}, {"20", "2a"}, {"23", "2b"}, {"26", "2c"}};

/// The `-std=` value to give the clang in use for \p Asked: \p Asked when it
/// knows it, or when it is no C++ standard this table names; else the
/// newest standard of the same dialect (c++ or gnu++) that it knows and that
/// is not newer than the one asked for.
std::string knownStandard(StringRef Asked) {
  using clang::LangStandard;
  const bool Known =
      LangStandard::getLangKind(Asked) != LangStandard::lang_unspecified;
  StringRef Dialect = Asked.starts_with("gnu++") ? "gnu++"
                      : Asked.starts_with("c++") ? "c++"
                                                 : "";
  StringRef Version = Asked.drop_front(Dialect.size());
  const auto *Wanted = llvm::find_if(CxxStandards, [&](const auto &S) {
    return Version == S.first || (!S.second.empty() && Version == S.second);
  });
  if (Known || Dialect.empty() || Wanted == std::end(CxxStandards))
    return Asked.str();
  for (const auto *S = Wanted + 1; S != std::begin(CxxStandards);) {
    --S;
    for (StringRef Spelling : {S->first, S->second}) {
      std::string Candidate = (Dialect + Spelling).str();
      if (!Spelling.empty() && LangStandard::getLangKind(Candidate) !=
                                   LangStandard::lang_unspecified)
        return Candidate;
    }
  }
  return Asked.str();
}

/// Replaces the `-std=` (`--std=`, `--std X`) values clang does not know
/// with knownStandard's.
void useKnownStandards(std::vector<std::string> &Args,
                       BuildCommandChanges *Changes) {
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    size_t ValueAt = Arg.starts_with("-std=")    ? 5
                     : Arg.starts_with("--std=") ? 6
                                                 : 0;
    std::string *Value = &Args[I];
    if (Arg == "--std" && I + 1 < Args.size()) {
      Value = &Args[++I];
      ValueAt = 0;
    } else if (ValueAt == 0) {
      continue;
    }
    StringRef Asked = StringRef(*Value).drop_front(ValueAt);
    std::string Used = knownStandard(Asked);
    if (Used == Asked)
      continue;
    if (Changes) {
      Changes->StandardAsked = Asked.str();
      Changes->StandardUsed = Used;
    }
    *Value = Value->substr(0, ValueAt) + Used;
  }
}

class BuildCommandsDatabase : public CompilationDatabase {
public:
  explicit BuildCommandsDatabase(std::unique_ptr<CompilationDatabase> Base)
      : Base(std::move(Base)) {}

  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    return adjust(Base->getCompileCommands(FilePath));
  }
  std::vector<std::string> getAllFiles() const override {
    return Base->getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return adjust(Base->getAllCompileCommands());
  }

private:
  static std::vector<CompileCommand>
  adjust(std::vector<CompileCommand> Commands) {
    for (CompileCommand &Command : Commands)
      Command.CommandLine =
          adjustBuildCommand(Command.CommandLine, Command.Directory);
    return Commands;
  }

  std::unique_ptr<CompilationDatabase> Base;
};

} // namespace

std::vector<std::string> adjustBuildCommand(ArrayRef<std::string> CommandLine,
                                            StringRef Directory,
                                            BuildCommandChanges *Changes) {
  std::vector<std::string> Args = CommandLine.vec();
  dropLaunchers(Args);
  if (isNvccCommand(Args))
    Args = hostCommandFromNvcc(Args);
  Args = includeHeaderText(Args, Directory, Changes);
  useKnownStandards(Args, Changes);
  return dropUnknownArguments(Args, Changes);
}

std::unique_ptr<CompilationDatabase>
adjustBuildCommands(std::unique_ptr<CompilationDatabase> Base) {
  return std::make_unique<BuildCommandsDatabase>(std::move(Base));
}

std::vector<std::string> buildCommandNotices(const CompilationDatabase &Base,
                                             ArrayRef<std::string> Files) {
  // Per dropped argument and for the PCHs: how many commands, the first file.
  struct Seen {
    size_t Commands = 0;
    std::string FirstFile;
  };
  StringMap<Seen> Unknown;
  std::vector<std::string> UnknownOrder;
  Seen Pch, DroppedPch;
  std::string FirstDroppedPch;
  // Per `-std=` value translated: how many commands, the first file, and
  // the value used instead.
  std::map<std::pair<std::string, std::string>, Seen> Standards;
  for (const std::string &File : Files) {
    for (const CompileCommand &Command : Base.getCompileCommands(File)) {
      BuildCommandChanges Changes;
      adjustBuildCommand(Command.CommandLine, Command.Directory, &Changes);
      auto Count = [&](Seen &S) {
        if (S.Commands++ == 0)
          S.FirstFile = File;
      };
      if (!Changes.PrecompiledHeaders.empty())
        Count(Pch);
      if (!Changes.StandardAsked.empty())
        Count(Standards[{Changes.StandardAsked, Changes.StandardUsed}]);
      if (!Changes.DroppedPch.empty()) {
        if (DroppedPch.Commands == 0)
          FirstDroppedPch = Changes.DroppedPch.front();
        Count(DroppedPch);
      }
      StringSet<> InThisCommand;
      for (const std::string &Arg : Changes.UnknownArguments) {
        if (!InThisCommand.insert(Arg).second)
          continue;
        if (!Unknown.count(Arg))
          UnknownOrder.push_back(Arg);
        Count(Unknown[Arg]);
      }
    }
  }
  std::vector<std::string> Notices;
  for (const std::string &Arg : UnknownOrder) {
    const Seen &S = Unknown[Arg];
    Notices.push_back(
        "libtorch-tidy: note: dropped '" + Arg + "' from " +
        report::countOf(S.Commands, "compile command", "compile commands") +
        " (first: '" + S.FirstFile +
        "'): clang " CLANG_VERSION_MAJOR_STRING
        " does not know this option (a g++ one?)");
  }
  for (const auto &[Spellings, S] : Standards)
    Notices.push_back(
        "libtorch-tidy: note: analyzing " +
        report::countOf(S.Commands, "compile command", "compile commands") +
        " (first: '" + S.FirstFile + "') with -std=" + Spellings.second +
        " for -std=" + Spellings.first + ": clang " +
        std::to_string(CLANG_VERSION_MAJOR) + " does not know that spelling");
  if (Pch.Commands)
    Notices.push_back("libtorch-tidy: note: " +
                      report::countOf(Pch.Commands, "compile command uses",
                                      "compile commands use") +
                      " a precompiled header (first: '" + Pch.FirstFile +
                      "'); analyzing against the header's text instead");
  if (DroppedPch.Commands)
    Notices.push_back(
        "libtorch-tidy: note: dropped -include-pch '" + FirstDroppedPch +
        "' from " +
        report::countOf(DroppedPch.Commands, "compile command",
                        "compile commands") +
        " (first: '" + DroppedPch.FirstFile +
        "'): no header text beside it; the unit is analyzed without it");
  return Notices;
}

} // namespace libtorch_tidy
