//===--- RemoteCache.cpp - The servers of the remote cache ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteCache.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <limits>
#include <mutex>
#include <thread>

namespace libtorch_tidy::cache {

std::string printableServerText(llvm::StringRef Text, const RemoteSpec &Spec) {
  std::string Redacted = Text.str();
  for (const std::string *Secret : {&Spec.Password, &Spec.BearerToken}) {
    if (Secret->empty())
      continue;
    for (size_t At = Redacted.find(*Secret); At != std::string::npos;
         At = Redacted.find(*Secret, At + 3))
      Redacted.replace(At, Secret->size(), "***");
  }
  std::string Printable;
  for (unsigned char C : Redacted) {
    if (C < 0x20 || C >= 0x7f) {
      Printable += "\\x";
      Printable += llvm::hexdigit(C >> 4, /*LowerCase=*/true);
      Printable += llvm::hexdigit(C & 0xf, /*LowerCase=*/true);
    } else {
      Printable += static_cast<char>(C);
    }
  }
  return Printable;
}

namespace {

using Clock = std::chrono::steady_clock;

std::unique_ptr<RemoteStorage> connectionTo(const RemoteSpec &Spec) {
  return Spec.Scheme == RemoteSpec::Kind::Http ? makeHttpStorage(Spec)
                                               : makeRedisStorage(Spec);
}

/// What is left of \p Deadline in whole milliseconds, for a time-out of at
/// most \p Most; 0 when nothing is.
unsigned millisecondsUntil(Clock::time_point Deadline, unsigned Most) {
  const auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        Deadline - Clock::now())
                        .count();
  return Left <= 0 ? 0 : static_cast<unsigned>(std::min<long long>(Left, Most));
}

std::string seconds(std::chrono::milliseconds Time) {
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::format("%.1f", Time.count() / 1e3);
  return Text;
}

} // namespace

std::chrono::milliseconds lookupBudget(size_t Keys) {
  return std::chrono::milliseconds(2000 + 5 * Keys);
}

struct RemoteCache::Server {
  RemoteSpec Spec;
  /// One connection per lookup thread, made on first use.
  std::vector<std::unique_ptr<RemoteStorage>> Lookups;
  /// The store thread's own.
  std::unique_ptr<RemoteStorage> Storer;
  /// Set by the caller's thread or the store thread, read by both.
  std::atomic<bool> Failed{false};
  /// Written by the store thread, under the queue's lock, and reported by
  /// finishStores(): the reason the first store failed, and the entries
  /// the end of the run left unstored.
  std::string StoreError;
  unsigned Queued = 0, Dropped = 0;
};

/// The entries waiting to be stored, and the thread that stores them one by
/// one while the run goes on.
class RemoteCache::StoreQueue {
public:
  ~StoreQueue() { finish(Clock::now()); }

  void push(Server &To, std::string Key, std::string Bytes) {
    std::lock_guard<std::mutex> Lock(Mutex);
    ++To.Queued;
    Items.push_back({&To, std::move(Key), std::move(Bytes)});
    if (!Worker.joinable())
      Worker = std::thread([this] { run(); });
    Wake.notify_one();
  }

  /// Stores what is queued until \p Deadline, then drops the rest, and
  /// returns once the thread has ended.
  void finish(Clock::time_point Deadline) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Closing = true;
      End = Deadline;
    }
    Wake.notify_one();
    if (Worker.joinable())
      Worker.join();
    for (Item &Left : Items)
      ++Left.To->Dropped;
    Items.clear();
    Closing = false;
  }

private:
  struct Item {
    Server *To;
    std::string Key, Bytes;
  };

  void run() {
    std::unique_lock<std::mutex> Lock(Mutex);
    for (;;) {
      Wake.wait(Lock, [&] { return !Items.empty() || Closing; });
      unsigned Timeout = 0;
      if (Items.empty() || !(Timeout = timeoutFor(*Items.front().To)))
        return; // finish() drops what is left
      Item Next = std::move(Items.front());
      Items.pop_front();
      Server &S = *Next.To;
      if (S.Failed)
        continue;
      Lock.unlock();
      if (!S.Storer)
        S.Storer = connectionTo(S.Spec);
      std::optional<std::string> Error =
          S.Storer->put(Next.Key, Next.Bytes, Timeout);
      Lock.lock();
      if (!Error)
        continue;
      // Out of the end's budget: this entry is dropped, not the server
      // failed (the next ones have no time left either).
      if (Closing && Clock::now() >= End) {
        ++S.Dropped;
        continue;
      }
      S.Failed = true;
      S.StoreError = *Error;
    }
  }

  /// The time-out of the next store to \p S; 0 when the end's budget is
  /// spent.
  unsigned timeoutFor(const Server &S) const {
    return Closing ? millisecondsUntil(End, S.Spec.OperationTimeoutMs)
                   : S.Spec.OperationTimeoutMs;
  }

  std::mutex Mutex;
  std::condition_variable Wake;
  std::deque<Item> Items;
  std::thread Worker;
  bool Closing = false;
  Clock::time_point End;
};

RemoteCache::RemoteCache(std::vector<RemoteSpec> Specs,
                         std::function<void(const std::string &)> Warn)
    : Stores(std::make_unique<StoreQueue>()), Warn(std::move(Warn)) {
  for (RemoteSpec &Spec : Specs) {
    auto S = std::make_unique<Server>();
    S->Spec = std::move(Spec);
    Servers.push_back(std::move(S));
  }
}

RemoteCache::~RemoteCache() { finishStores(); }

void RemoteCache::fail(Server &S, llvm::StringRef Operation,
                       llvm::StringRef Why) {
  S.Failed = true;
  Warn("libtorch-tidy: warning: the remote cache '" + S.Spec.DisplayName +
       "' failed to " + Operation.str() + " an entry (" +
       printableServerText(Why, S.Spec) +
       "); it is not used for the rest of this run, whose units are "
       "analyzed here instead");
}

std::vector<std::optional<std::string>>
RemoteCache::fetchAll(llvm::ArrayRef<std::string> Keys) {
  std::vector<std::optional<std::string>> Found(Keys.size());
  for (std::unique_ptr<Server> &S : Servers)
    if (!S->Failed && llvm::any_of(Found, [](const auto &F) { return !F; }))
      lookUpIn(*S, Keys, Found);
  return Found;
}

void RemoteCache::lookUpIn(Server &S, llvm::ArrayRef<std::string> Keys,
                           std::vector<std::optional<std::string>> &Found) {
  std::vector<size_t> Asked;
  for (size_t I = 0; I < Keys.size(); ++I)
    if (!Found[I])
      Asked.push_back(I);
  const std::chrono::milliseconds Budget = lookupBudget(Asked.size());
  const Clock::time_point Deadline = Clock::now() + Budget;
  std::vector<RemoteStorage::Fetched> Got(Asked.size());
  std::vector<char> Answered(Asked.size());
  std::atomic<size_t> Next{0};
  std::atomic<bool> Stop{false};
  auto Work = [&](RemoteStorage &Connection, size_t Most) {
    for (size_t I; Most-- && !Stop && (I = Next++) < Asked.size();) {
      const unsigned Timeout =
          millisecondsUntil(Deadline, S.Spec.OperationTimeoutMs);
      if (!Timeout || (Got[I] = Connection.get(Keys[Asked[I]], Timeout)).What ==
                          RemoteStorage::Fetched::Outcome::Failed) {
        Stop = true;
        return;
      }
      Answered[I] = true;
    }
  };
  const size_t Threads =
      std::min<size_t>(LookupConnections, std::max<size_t>(Asked.size(), 1));
  while (S.Lookups.size() < Threads)
    S.Lookups.push_back(connectionTo(S.Spec));
  // The first key alone, on one connection: a server that is down or
  // hangs costs one connection's time-out, not one per thread.
  constexpr size_t All = std::numeric_limits<size_t>::max();
  Work(*S.Lookups[0], 1);
  std::vector<std::thread> Helpers;
  for (size_t T = 1; T < Threads && !Stop && Next < Asked.size(); ++T)
    Helpers.emplace_back(Work, std::ref(*S.Lookups[T]), All);
  Work(*S.Lookups[0], All);
  for (std::thread &Helper : Helpers)
    Helper.join();

  size_t AnsweredCount = 0;
  std::string Error;
  for (size_t I = 0; I < Asked.size(); ++I) {
    if (!Answered[I]) {
      if (Error.empty())
        Error = Got[I].Error;
      continue;
    }
    ++AnsweredCount;
    if (Got[I].What == RemoteStorage::Fetched::Outcome::Unusable)
      ++Unusable;
    if (Got[I].What != RemoteStorage::Fetched::Outcome::Hit)
      continue;
    // Whoever may write to the server may have written it: with trusted
    // keys, only what one of them signed (EntrySignature.h).
    std::string Why;
    const std::string &Key = Keys[Asked[I]];
    if (std::optional<llvm::StringRef> Entry =
            verifiedEntry(Got[I].Bytes, Key, S.Spec.Trusted, Why))
      Found[Asked[I]] = Entry->str();
    else
      ++Unverified;
  }
  if (AnsweredCount == Asked.size())
    return;
  if (Clock::now() < Deadline && !Error.empty())
    return fail(S, "read", Error);
  S.Failed = true;
  Warn("libtorch-tidy: warning: the remote cache '" + S.Spec.DisplayName +
       "' answered " + std::to_string(AnsweredCount) + " of " +
       std::to_string(Asked.size()) + " lookups within the " + seconds(Budget) +
       " s they may take; it is too slow to save time and is not used for "
       "the rest of this run, whose other units are analyzed here");
}

void RemoteCache::store(llvm::StringRef Key, llvm::StringRef Bytes) {
  for (std::unique_ptr<Server> &S : Servers)
    if (!S->Failed && !S->Spec.ReadOnly)
      Stores->push(*S, Key.str(),
                   S->Spec.Signing ? S->Spec.Signing->sign(Key, Bytes)
                                   : Bytes.str());
}

void RemoteCache::finishStores() {
  Stores->finish(Clock::now() + StoreBudget);
  for (std::unique_ptr<Server> &S : Servers) {
    if (!S->StoreError.empty())
      fail(*S, "store", S->StoreError);
    else if (S->Dropped)
      Warn("libtorch-tidy: warning: the remote cache '" + S->Spec.DisplayName +
           "' did not store " + std::to_string(S->Dropped) + " of this run's " +
           std::to_string(S->Queued) + " entries within " +
           seconds(StoreBudget) +
           " s of the end of the analyses; they are not stored");
    S->StoreError.clear();
    S->Queued = S->Dropped = 0;
  }
}

bool RemoteCache::writable() const {
  for (const std::unique_ptr<Server> &S : Servers)
    if (!S->Spec.ReadOnly && !S->Failed)
      return true;
  return false;
}

} // namespace libtorch_tidy::cache
