//===--- SummaryExport.cpp - --export-summaries ---------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tool/SummaryExport.h"
#include "Summaries.h"
#include "io/FileIO.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <fcntl.h>
#include <map>
#include <sys/file.h>
#include <unistd.h>

using namespace llvm;
namespace summaries = clang::tidy::libtorch::summaries;

namespace libtorch_tidy {
namespace {

/// The file's units, none when it does not exist yet; an error when it
/// exists and is not a summary file.
Expected<std::vector<summaries::SummarizedUnit>>
existingUnits(const std::string &Path) {
  if (!sys::fs::exists(Path))
    return std::vector<summaries::SummarizedUnit>();
  std::string Error;
  // A project's summaries are a few bytes per function; more is not ours.
  std::optional<std::string> Text =
      io::readRegularFile(Path, 256u << 20, "summary file", Error);
  if (!Text)
    return createStringError(inconvertibleErrorCode(), Error);
  return summaries::parseSummaryFile(*Text);
}

/// An exclusive flock() on the directory of a file, held while it lives:
/// the file itself is replaced by a rename, so its own inode cannot carry
/// the lock, and a lock file would be left beside the user's. Where the
/// file system has no flock() for directories, exports go on unlocked.
class DirectoryLock {
public:
  explicit DirectoryLock(StringRef File) {
    SmallString<256> Directory(File);
    sys::fs::make_absolute(Directory);
    sys::path::remove_filename(Directory);
    FD = ::open(Directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (FD >= 0 && ::flock(FD, LOCK_EX) != 0) {
      ::close(FD);
      FD = -1;
    }
  }
  ~DirectoryLock() {
    if (FD >= 0)
      ::close(FD); // releases the lock
  }
  DirectoryLock(const DirectoryLock &) = delete;
  DirectoryLock &operator=(const DirectoryLock &) = delete;

private:
  int FD = -1;
};

} // namespace

std::optional<std::string> summaryExportProblem(const std::string &Path) {
  Expected<std::vector<summaries::SummarizedUnit>> Units = existingUnits(Path);
  if (!Units)
    return "'" + Path + "' exists and is " + toString(Units.takeError()) +
           "; name another file, or remove it (--export-summaries)";
  return io::checkWritable(Path);
}

std::optional<std::string> exportSummaries(const std::string &Path,
                                           const model::RunResult &Run,
                                           const StringSet<> *DatabaseUnits) {
  const DirectoryLock Turn(Path);
  Expected<std::vector<summaries::SummarizedUnit>> Existing =
      existingUnits(Path);
  if (!Existing)
    return "'" + Path + "': " + toString(Existing.takeError());
  std::map<std::string, summaries::SummarizedUnit> ByFile;
  for (summaries::SummarizedUnit &Unit : *Existing)
    if (!DatabaseUnits || DatabaseUnits->contains(Unit.MainFile))
      ByFile[Unit.MainFile] = std::move(Unit);
  for (const model::TranslationUnitResult &Unit : Run.Units) {
    if (Unit.State == model::TranslationUnitResult::Status::Failed)
      continue;
    summaries::SummarizedUnit Summarized{Unit.MainFile, {}};
    if (!Unit.FunctionSummaries.empty()) {
      Expected<std::vector<summaries::FunctionSummary>> Summaries =
          summaries::readUnitSummaries(Unit.FunctionSummaries);
      // Our own worker's or cache entry's text: one that does not read
      // leaves the unit's earlier entry as it was.
      if (!Summaries) {
        consumeError(Summaries.takeError());
        continue;
      }
      Summarized.Functions = std::move(*Summaries);
    }
    ByFile[Unit.MainFile] = std::move(Summarized);
  }
  std::vector<summaries::SummarizedUnit> Units;
  for (auto &[File, Unit] : ByFile)
    if (!Unit.Functions.empty())
      Units.push_back(std::move(Unit));
  return io::writeFile(Path, summaries::summaryFileText(std::move(Units)),
                       io::FileMode::Fresh);
}

} // namespace libtorch_tidy
