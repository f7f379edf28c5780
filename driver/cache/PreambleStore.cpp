//===--- PreambleStore.cpp - Precompiled prefixes in the cache ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/PreambleStore.h"
#include "cache/ResultCache.h"
#include "io/FileIO.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <algorithm>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

using namespace llvm;

namespace libtorch_tidy::cache {
namespace {

/// Bumped when the layout of an entry or the meaning of a key part changes.
constexpr llvm::StringLiteral StoreFormat = "libtorch-tidy-preamble-v1";

/// At most this many bytes are read of a .deps file (a prefix that reads
/// tens of thousands of headers is still far below it).
constexpr size_t MaxDepsBytes = 64u << 20;

bool isRegularFile(const Twine &Path) {
  sys::fs::file_status Status;
  return !sys::fs::status(Path, Status, /*follow=*/false) &&
         Status.type() == sys::fs::file_type::regular_file;
}

/// Sets the modification time of \p Path to now: "used".
void touch(const std::string &Path) {
  (void)::utimensat(AT_FDCWD, Path.c_str(), nullptr, 0);
}

/// A record of this store (.deps, .refused) for \p Key: MessagePack with the
/// format and the key, or nothing when it is missing, foreign or corrupt.
std::optional<nlohmann::json> readRecord(const std::string &Path,
                                         StringRef Key) {
  std::string Ignored;
  std::optional<std::string> Text =
      io::readRegularFile(Path, MaxDepsBytes, "preamble", Ignored);
  if (!Text)
    return std::nullopt;
  try {
    nlohmann::json J = nlohmann::json::from_msgpack(*Text);
    if (J.at("format").get<std::string>() != StoreFormat ||
        J.at("key").get<std::string>() != Key)
      return std::nullopt;
    return J;
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
}

/// Writes \p Record for \p Key to \p Path (a temporary file renamed into
/// place). Returns false if it could not be written.
bool writeRecord(const std::string &Path, StringRef Key,
                 nlohmann::json Record) {
  if (sys::fs::create_directories(sys::path::parent_path(Path)))
    return false;
  clearForEntry(Path);
  Record["format"] = StoreFormat.str();
  Record["key"] = Key.str();
  std::vector<std::uint8_t> Bytes = nlohmann::json::to_msgpack(Record);
  return !io::writeFile(
      Path,
      std::string_view(reinterpret_cast<const char *>(Bytes.data()),
                       Bytes.size()),
      io::FileMode::Owned);
}

/// The PCH a .deps record names, beside it; nothing for a name that is not
/// one of this entry's (nothing else is ever opened or removed).
std::optional<std::string> pchOf(const nlohmann::json &Record, StringRef Key,
                                 StringRef DepsPath) {
  const auto Name = Record.find("pch");
  if (Name == Record.end() || !Name->is_string())
    return std::nullopt;
  const std::string Pch = Name->get<std::string>();
  if (!StringRef(Pch).starts_with(Key) || Pch.find('/') != std::string::npos)
    return std::nullopt;
  SmallString<256> Path(sys::path::parent_path(DepsPath));
  sys::path::append(Path, Pch);
  return std::string(Path);
}

/// \p PchPath is a regular file of the size \p Record gives that starts
/// as every clang AST file does ("CPCH"). clang checks the rest when it
/// reads it; these are the damages it would only reject, every time.
bool isIntactPch(const std::string &PchPath, const nlohmann::json &Record) {
  const auto Size = Record.find("size");
  if (Size == Record.end() || !Size->is_number_unsigned())
    return false;
  struct stat Info;
  if (::lstat(PchPath.c_str(), &Info) != 0 || !S_ISREG(Info.st_mode) ||
      static_cast<std::uint64_t>(Info.st_size) != Size->get<std::uint64_t>())
    return false;
  int FD = ::open(PchPath.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (FD < 0)
    return false;
  char Magic[4] = {};
  const bool Read = ::read(FD, Magic, sizeof Magic) == sizeof Magic;
  ::close(FD);
  return Read && StringRef(Magic, 4) == "CPCH";
}

/// The dependencies a record lists; nothing if they cannot be read.
std::optional<std::vector<Dependency>>
dependenciesOf(const nlohmann::json &Record) {
  try {
    return Record.at("dependencies").get<std::vector<Dependency>>();
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
}

} // namespace

std::optional<std::string> unusablePreambleDirectory(StringRef CacheDirectory) {
  if (std::optional<std::string> Why = unwritableCacheDirectory(CacheDirectory))
    return Why;
  SmallString<256> Dir(CacheDirectory);
  sys::path::append(Dir, "preamble");
  return unwritableCacheDirectory(Dir);
}

PreambleStore::PreambleStore(const std::string &CacheDirectory) {
  SmallString<256> Dir(CacheDirectory);
  sys::path::append(Dir, "preamble");
  Directory = std::string(Dir);
}

std::string PreambleStore::key(ArrayRef<std::string> Parts) {
  return hashOfParts(StoreFormat, Parts);
}

std::string PreambleStore::path(StringRef Key, StringRef Suffix) const {
  SmallString<256> Path(Directory);
  sys::path::append(Path, Key.take_front(2), Key + Suffix);
  return std::string(Path);
}

std::optional<StoredPrefix> PreambleStore::lookup(StringRef Key) const {
  const std::string DepsPath = path(Key, ".deps");
  std::optional<nlohmann::json> Record = readRecord(DepsPath, Key);
  if (!Record)
    return std::nullopt;
  std::optional<std::string> PchPath = pchOf(*Record, Key, DepsPath);
  std::optional<std::vector<Dependency>> Dependencies = dependenciesOf(*Record);
  if (!PchPath || !Dependencies || Dependencies->empty())
    return std::nullopt;
  StoredPrefix Entry{path(Key, ".h"), std::move(*PchPath),
                     std::move(*Dependencies)};
  if (!isRegularFile(Entry.HeaderPath))
    return std::nullopt;
  if (!isIntactPch(Entry.PchPath, *Record)) {
    // Emptied, cut short, zeroed or overwritten (a full disk, a restored
    // cache): every later run would parse without it, about six times
    // slower on LibTorch, and never say so. The entry goes, so the next
    // unit that wants it builds it again.
    sys::fs::remove(DepsPath);
    sys::fs::remove(Entry.PchPath);
    Damaged.insert(Key.str());
    return std::nullopt;
  }
  if (!llvm::all_of(Entry.Dependencies, dependencyHolds))
    return std::nullopt;
  touch(DepsPath);
  touch(Entry.PchPath);
  touch(Entry.HeaderPath);
  return Entry;
}

bool PreambleStore::removedDamaged(StringRef Key) const {
  return Damaged.count(Key) != 0;
}

std::optional<std::string> PreambleStore::writeHeader(StringRef Key,
                                                      StringRef Text) const {
  std::string Path = path(Key, ".h");
  if (sys::fs::create_directories(sys::path::parent_path(Path)))
    return std::nullopt;
  clearForEntry(Path);
  // The same key always has the same text: a concurrent writer writes the
  // same bytes, and the rename makes either one the file.
  if (io::writeFile(Path, std::string_view(Text.data(), Text.size()),
                    io::FileMode::Owned))
    return std::nullopt;
  return Path;
}

std::string PreambleStore::newPchPath(StringRef Key) const {
  return path(Key, "-" + utohexstr(sys::Process::GetRandomNumber()) +
                       utohexstr(::getpid()) + ".pch");
}

bool PreambleStore::commit(StringRef Key, StringRef PchPath,
                           const std::vector<Dependency> &Dependencies) const {
  const std::string DepsPath = path(Key, ".deps");
  // The previous build's PCH, which the new entry replaces.
  std::optional<std::string> Previous;
  if (std::optional<nlohmann::json> Old = readRecord(DepsPath, Key))
    Previous = pchOf(*Old, Key, DepsPath);
  uint64_t PchSize = 0;
  if (sys::fs::file_size(PchPath, PchSize) ||
      !writeRecord(DepsPath, Key,
                   {{"pch", sys::path::filename(PchPath).str()},
                    {"size", PchSize},
                    {"dependencies", Dependencies}})) {
    sys::fs::remove(PchPath);
    return false;
  }
  // A run that still reads the old PCH keeps its open file.
  if (Previous && *Previous != PchPath)
    sys::fs::remove(*Previous);
  return true;
}

void PreambleStore::refuse(StringRef Key,
                           const std::vector<Dependency> &Dependencies) const {
  (void)writeRecord(path(Key, ".refused"), Key,
                    {{"dependencies", Dependencies}});
}

bool PreambleStore::refused(StringRef Key) const {
  std::optional<nlohmann::json> Record = readRecord(path(Key, ".refused"), Key);
  if (!Record)
    return false;
  std::optional<std::vector<Dependency>> Dependencies = dependenciesOf(*Record);
  return Dependencies && llvm::all_of(*Dependencies, dependencyHolds);
}

void PreambleStore::recordOversize(
    StringRef Key, std::uint64_t Bytes,
    const std::vector<Dependency> &Dependencies) const {
  (void)writeRecord(path(Key, ".oversize"), Key,
                    {{"size", Bytes}, {"dependencies", Dependencies}});
}

std::optional<std::uint64_t> PreambleStore::oversize(StringRef Key) const {
  std::optional<nlohmann::json> Record =
      readRecord(path(Key, ".oversize"), Key);
  if (!Record)
    return std::nullopt;
  const auto Size = Record->find("size");
  std::optional<std::vector<Dependency>> Dependencies = dependenciesOf(*Record);
  if (Size == Record->end() || !Size->is_number_unsigned() || !Dependencies ||
      !llvm::all_of(*Dependencies, dependencyHolds))
    return std::nullopt;
  return Size->get<std::uint64_t>();
}

/// The no-room records of \p Key in \p Dir: `<key>.noroom-<bytes>`.
static std::vector<std::string> noRoomRecords(StringRef Dir, StringRef Key) {
  std::vector<std::string> Records;
  std::error_code EC;
  const std::string Prefix = (Key + ".noroom-").str();
  for (sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC))
    if (sys::path::filename(It->path()).starts_with(Prefix))
      Records.push_back(It->path());
  return Records;
}

void PreambleStore::recordNoRoom(StringRef Key, std::uint64_t Bytes) const {
  const std::string Path = path(Key, ".noroom-" + std::to_string(Bytes));
  const StringRef Dir = sys::path::parent_path(Path);
  if (sys::fs::create_directories(Dir))
    return;
  for (const std::string &Old : noRoomRecords(Dir, Key))
    sys::fs::remove(Old);
  const int FD = ::open(
      Path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (FD >= 0)
    ::close(FD);
}

bool PreambleStore::stillNoRoom(StringRef Key) const {
  const std::string Probe = path(Key, ".noroom-");
  const StringRef Dir = sys::path::parent_path(Probe);
  const std::vector<std::string> Records = noRoomRecords(Dir, Key);
  std::optional<std::uint64_t> Needed;
  for (const std::string &Record : Records) {
    std::uint64_t Bytes = 0;
    if (!sys::path::filename(Record)
             .drop_front(Key.size() + strlen(".noroom-"))
             .getAsInteger(10, Bytes))
      Needed = std::max(Needed.value_or(0), Bytes);
  }
  if (!Needed)
    return false;
  struct statvfs Room;
  if (::statvfs(Directory.c_str(), &Room) == 0 &&
      std::uint64_t(Room.f_bavail) * Room.f_frsize <= *Needed)
    return true;
  // Room now (or no way to tell): build it again.
  for (const std::string &Record : Records)
    sys::fs::remove(Record);
  return false;
}

bool PreambleStore::wanted(StringRef Key) const {
  return isRegularFile(path(Key, ".wanted"));
}

void PreambleStore::markWanted(StringRef Key) const {
  std::string Path = path(Key, ".wanted");
  if (sys::fs::create_directories(sys::path::parent_path(Path)))
    return;
  clearForEntry(Path);
  (void)io::writeFile(Path, "", io::FileMode::Owned);
}

namespace {

/// Opens the lock file \p Path of ours for flock(): never through a link,
/// never blocking on a FIFO; what is there and is not a regular file (a
/// link, a FIFO, a device someone put in the cache) is removed first. -1 on
/// failure.
int openLockFile(const std::string &Path) {
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    int FD =
        ::open(Path.c_str(),
               O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    struct stat Info;
    if (FD >= 0 && ::fstat(FD, &Info) == 0 && S_ISREG(Info.st_mode))
      return FD;
    if (FD >= 0)
      ::close(FD);
    else if (errno != ELOOP && errno != ENXIO && errno != EISDIR)
      return -1;
    ::unlink(Path.c_str());
  }
  return -1;
}

/// \p FD still is the file at \p Path (no one removed it meanwhile).
bool isCurrent(int FD, const std::string &Path) {
  struct stat Open, Now;
  return ::fstat(FD, &Open) == 0 && ::lstat(Path.c_str(), &Now) == 0 &&
         Open.st_dev == Now.st_dev && Open.st_ino == Now.st_ino;
}

} // namespace

bool PreambleStore::tryLock(StringRef Key) const {
  std::string Path = path(Key, ".lock");
  if (sys::fs::create_directories(sys::path::parent_path(Path)))
    return false;
  // flock(): the kernel releases it when its holder ends, however it ends,
  // so a killed builder leaves no lock that a reused PID would keep alive.
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    int FD = openLockFile(Path);
    if (FD < 0)
      return false;
    if (::flock(FD, LOCK_EX | LOCK_NB) != 0) {
      ::close(FD);
      return false; // held by a live process
    }
    // The holder before us may have removed the file as it unlocked: a
    // lock on a removed file locks nothing.
    if (isCurrent(FD, Path)) {
      Held[Key.str()] = FD;
      return true;
    }
    ::close(FD);
  }
  return false;
}

void PreambleStore::unlock(StringRef Key) const {
  auto It = Held.find(Key.str());
  if (It == Held.end())
    return;
  // Removed while still held: whoever opens the path next creates a new
  // file, and one who opened this one sees it is no longer current.
  ::unlink(path(Key, ".lock").c_str());
  ::close(It->second);
  Held.erase(It);
}

std::string PreambleStore::lockPath(StringRef Key) const {
  return path(Key, ".lock");
}

bool PreambleStore::locked(StringRef Key) const {
  std::string Path = path(Key, ".lock");
  int FD = ::open(Path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0)
    return false;
  // Held if another process holds the flock: try it and let go at once.
  const bool Held = ::flock(FD, LOCK_SH | LOCK_NB) != 0;
  ::close(FD);
  return Held;
}

void limitCacheSize(StringRef CacheDirectory, std::uint64_t MaxBytes) {
  if (MaxBytes == 0)
    return;
  struct CachedFile {
    std::string Path;
    std::uint64_t Size;
    sys::TimePoint<> Used;
  };
  std::vector<CachedFile> Files;
  std::uint64_t Total = 0;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(CacheDirectory, EC), End;
       !EC && It != End; It.increment(EC)) {
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status, /*follow=*/false) ||
        Status.type() != sys::fs::file_type::regular_file)
      continue;
    // A build's lock is not cache content.
    if (StringRef(It->path()).ends_with(".lock"))
      continue;
    Files.push_back(
        {It->path(), Status.getSize(), Status.getLastModificationTime()});
    Total += Status.getSize();
  }
  if (Total <= MaxBytes)
    return;
  llvm::sort(Files, [](const CachedFile &L, const CachedFile &R) {
    return L.Used < R.Used;
  });
  for (const CachedFile &F : Files) {
    if (Total <= MaxBytes)
      break;
    if (!sys::fs::remove(F.Path))
      Total -= F.Size;
  }
}

std::optional<std::uint64_t> parseSize(StringRef Text) {
  Text = Text.trim();
  size_t Digits = Text.find_first_not_of("0123456789");
  std::uint64_t Number = 0;
  if (Text.take_front(Digits).getAsInteger(10, Number))
    return std::nullopt;
  StringRef Unit = Text.drop_front(std::min(Digits, Text.size()));
  Unit.consume_back("B");
  Unit.consume_back("i");
  unsigned Shift = 0;
  if (Unit.equals_insensitive("k"))
    Shift = 10;
  else if (Unit.equals_insensitive("m"))
    Shift = 20;
  else if (Unit.equals_insensitive("g"))
    Shift = 30;
  else if (Unit.equals_insensitive("t"))
    Shift = 40;
  else if (!Unit.empty())
    return std::nullopt;
  if (Shift && Number > (UINT64_MAX >> Shift))
    return std::nullopt;
  return Number << Shift;
}

} // namespace libtorch_tidy::cache
