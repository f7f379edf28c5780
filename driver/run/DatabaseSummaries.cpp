//===--- DatabaseSummaries.cpp - Other units' summaries for a run ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/DatabaseSummaries.h"
#include "Catalog.h"
#include "cache/ResultCache.h"
#include "clang-compat/ClangCompat.h"
#include "clang-tidy/ClangTidy.h"
#include "run/UnitKeys.h"
#include "units/CudaCommands.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using clang::tidy::libtorch::summaries::FunctionSummary;
using clang::tidy::libtorch::summaries::SummarizedUnit;
using clang::tidy::libtorch::summaries::SummaryTable;

namespace libtorch_tidy::run {

namespace {
/// The digest's format: a new one when what an answer holds changes.
constexpr llvm::StringLiteral AnswersFormat = "libtorch-tidy-summary-answers-2";
} // namespace

bool wantsDatabaseSummaries(const SchedulerOptions &Tool,
                            clang::tidy::ClangTidyOptionsProvider &Provider,
                            StringRef FirstFile) {
  if (Tool.Summaries == "off")
    return false;
  clang::tidy::ClangTidyOptions Options = Provider.getOptions(FirstFile);
  if (Options.CheckOptions.count(clang::tidy::libtorch::SummaryFileOption))
    return false;
  for (const std::string &Check : clang::compat::enabledCheckNames(Options))
    if (clang::tidy::libtorch::readsSummaries(Check))
      return true;
  return false;
}

std::vector<std::string>
otherDatabaseUnits(const clang::tooling::CompilationDatabase &Database,
                   ArrayRef<std::string> Selected) {
  StringSet<> Taken;
  for (const std::string &File : Selected)
    Taken.insert(File);
  std::vector<std::string> Others;
  for (const std::string &Entry : Database.getAllFiles()) {
    SmallString<256> File(Entry);
    sys::path::remove_dots(File, /*remove_dot_dot=*/true);
    if (!sys::path::is_absolute(File) || !sys::fs::is_regular_file(File) ||
        !Taken.insert(File).second)
      continue;
    std::vector<clang::tooling::CompileCommand> Commands =
        Database.getCompileCommands(File);
    ArrayRef<std::string> CommandLine;
    if (!Commands.empty())
      CommandLine = Commands.front().CommandLine;
    if (!isCudaSource(File, CommandLine))
      Others.push_back(std::string(File));
  }
  llvm::sort(Others);
  return Others;
}

std::string
cachedDatabaseSummaries(const SchedulerOptions &Tool,
                        const CompilationSetup &Setup,
                        clang::tidy::ClangTidyOptionsProvider &Provider,
                        StringRef Unit, StringRef Executable) {
  if (!wantsDatabaseSummaries(Tool, Provider, Unit) || Tool.NoCache)
    return {};
  const std::string Directory =
      Tool.CacheDir.empty() ? cache::defaultCacheDirectory() : Tool.CacheDir;
  const std::string Identity = cache::toolIdentity(Executable);
  if (Directory.empty() || Identity.empty())
    return {};
  cache::ResultCache Cache(Directory);
  DatabaseSummaries Summaries;
  for (const std::string &Other :
       otherDatabaseUnits(*Setup.Compilations, {Unit.str()})) {
    std::vector<std::string> Parts = {Identity};
    for (std::string &Part : unitKeyParts(Tool, Setup, Provider, Other))
      Parts.push_back(std::move(Part));
    if (std::optional<model::TranslationUnitResult> Hit =
            Cache.lookup(cache::ResultCache::key(Parts)))
      Summaries.set(Other, Hit->FunctionSummaries);
  }
  return Summaries.empty() ? std::string() : Summaries.fileText();
}

DatabaseSummaries::DatabaseSummaries(
    std::map<std::string, std::vector<FunctionSummary>> Units)
    : Units(std::move(Units)) {}

void DatabaseSummaries::set(StringRef MainFile, StringRef FunctionsJson) {
  Table.reset();
  std::vector<FunctionSummary> Functions;
  if (!FunctionsJson.empty()) {
    // Our own worker's or cache entry's text: one that does not read
    // counts as none.
    Expected<std::vector<FunctionSummary>> Read =
        clang::tidy::libtorch::summaries::readUnitSummaries(FunctionsJson);
    if (Read)
      Functions = std::move(*Read);
    else
      consumeError(Read.takeError());
  }
  if (Functions.empty())
    Units.erase(MainFile.str());
  else
    Units[MainFile.str()] = std::move(Functions);
}

DatabaseSummaries DatabaseSummaries::snapshot() const {
  return DatabaseSummaries(Units);
}

const SummaryTable &DatabaseSummaries::table() const {
  if (!Table)
    Table.emplace(summarizedUnits());
  return *Table;
}

std::vector<SummarizedUnit> DatabaseSummaries::summarizedUnits() const {
  std::vector<SummarizedUnit> List;
  List.reserve(Units.size());
  for (const auto &[File, Functions] : Units)
    List.push_back({File, Functions});
  return List;
}

std::string DatabaseSummaries::fileText() const {
  return clang::tidy::libtorch::summaries::summaryFileText(summarizedUnits());
}

std::string DatabaseSummaries::answersDigest(ArrayRef<std::string> Usrs) const {
  std::vector<std::string> Parts;
  Parts.reserve(2 * Usrs.size());
  for (const std::string &Usr : Usrs) {
    Parts.push_back(Usr);
    Parts.push_back(table().answerText(Usr));
  }
  return cache::hashOfParts(AnswersFormat, Parts);
}

} // namespace libtorch_tidy::run
