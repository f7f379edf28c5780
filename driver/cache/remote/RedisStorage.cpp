//===--- RedisStorage.cpp - The remote cache in Redis (hiredis) -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// ccache's Redis storage: `GET`/`SET` of `<prefix>:<key>`, with our own
// prefix (`libtorch-tidy`), so that one Redis serves ccache's entries and
// ours side by side. The connection is made on first use (a run whose
// units are all in the local cache never connects) and kept for the run.
// hiredis' context is unusable after an I/O error or time-out; the caller
// stops using the server then (RemoteCache.h).
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteStorage.h"
#include <cerrno>
#include <cstring>
#include <hiredis/hiredis.h>
#include <sys/time.h>

namespace libtorch_tidy::cache {
namespace {

constexpr llvm::StringLiteral KeyPrefix = "libtorch-tidy:";

timeval milliseconds(unsigned Ms) {
  timeval Time;
  Time.tv_sec = Ms / 1000;
  Time.tv_usec = static_cast<suseconds_t>(Ms % 1000) * 1000;
  return Time;
}

struct ReplyDeleter {
  void operator()(redisReply *R) const { freeReplyObject(R); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

class RedisStorage : public RemoteStorage {
public:
  explicit RedisStorage(const RemoteSpec &Spec) : Spec(Spec) {}
  ~RedisStorage() override {
    if (Context)
      redisFree(Context);
  }

  Fetched get(llvm::StringRef Key, unsigned TimeoutMs) override {
    Fetched Result;
    std::string Name = (KeyPrefix + Key).str();
    Reply R;
    // GETRANGE, not GET: at most one byte more than an entry may have
    // crosses the network, however large the value someone stored; a key
    // that is not there reads as "".
    const std::string Last = std::to_string(MaxRemoteEntryBytes);
    if (std::optional<std::string> Error =
            command(R, TimeoutMs, "GETRANGE %b 0 %s", Name.data(), Name.size(),
                    Last.c_str())) {
      // Another type under our key is that key's problem, not the server's.
      const bool WrongType = R && R->type == REDIS_REPLY_ERROR &&
                             llvm::StringRef(*Error).starts_with("WRONGTYPE");
      Result.What =
          WrongType ? Fetched::Outcome::Unusable : Fetched::Outcome::Failed;
      Result.Error = *Error;
    } else if (R->type == REDIS_REPLY_NIL ||
               (R->type == REDIS_REPLY_STRING && R->len == 0)) {
      Result.What = Fetched::Outcome::Miss;
    } else if (R->type == REDIS_REPLY_STRING) {
      if (R->len > MaxRemoteEntryBytes) {
        Result.What = Fetched::Outcome::Unusable;
      } else {
        Result.What = Fetched::Outcome::Hit;
        Result.Bytes.assign(R->str, R->len);
      }
    } else {
      Result.What = Fetched::Outcome::Failed;
      Result.Error = "GETRANGE answered something other than a string";
    }
    return Result;
  }

  std::optional<std::string> put(llvm::StringRef Key, llvm::StringRef Bytes,
                                 unsigned TimeoutMs) override {
    std::string Name = (KeyPrefix + Key).str();
    Reply R;
    if (std::optional<std::string> Error =
            command(R, TimeoutMs, "SET %b %b", Name.data(), Name.size(),
                    Bytes.data(), Bytes.size()))
      return Error;
    if (R->type != REDIS_REPLY_STATUS)
      return std::string("SET answered something other than OK");
    return std::nullopt;
  }

private:
  /// Connects, authenticates and selects the database, once.
  std::optional<std::string> connect() {
    if (Context)
      return std::nullopt;
    timeval Connect = milliseconds(Spec.ConnectTimeoutMs);
    Context =
        Spec.Scheme == RemoteSpec::Kind::RedisUnix
            ? redisConnectUnixWithTimeout(Spec.SocketPath.c_str(), Connect)
            : redisConnectWithTimeout(Spec.Host.c_str(),
                                      static_cast<int>(Spec.Port), Connect);
    if (!Context)
      return std::string("out of memory");
    if (Context->err)
      return std::string(Context->errstr);
    if (redisSetTimeout(Context, milliseconds(Spec.OperationTimeoutMs)) !=
        REDIS_OK)
      return std::string(Context->errstr);
    CurrentTimeoutMs = Spec.OperationTimeoutMs;
    Reply R;
    if (!Spec.Password.empty()) {
      // The password is sent, never shown: a refusal names no secret.
      void *Raw = Spec.User.empty()
                      ? redisCommand(Context, "AUTH %s", Spec.Password.c_str())
                      : redisCommand(Context, "AUTH %s %s", Spec.User.c_str(),
                                     Spec.Password.c_str());
      R.reset(static_cast<redisReply *>(Raw));
      if (!R)
        return std::string(Context->errstr);
      if (R->type == REDIS_REPLY_ERROR)
        return std::string("authentication refused (check the user name and "
                           "password of the URL)");
    }
    if (Spec.Database != 0) {
      R.reset(static_cast<redisReply *>(
          redisCommand(Context, "SELECT %u", Spec.Database)));
      if (!R)
        return std::string(Context->errstr);
      if (R->type == REDIS_REPLY_ERROR)
        return "SELECT " + std::to_string(Spec.Database) +
               " refused: " + std::string(R->str, R->len);
    }
    Ready = true;
    return std::nullopt;
  }

  template <typename... Args>
  std::optional<std::string> command(Reply &R, unsigned TimeoutMs,
                                     const char *Format, Args... Arguments) {
    if (std::optional<std::string> Error = connect())
      return Error;
    if (!Ready)
      return std::string("not connected");
    if (TimeoutMs != CurrentTimeoutMs) {
      if (redisSetTimeout(Context, milliseconds(TimeoutMs)) != REDIS_OK)
        return std::string(Context->errstr);
      CurrentTimeoutMs = TimeoutMs;
    }
    R.reset(
        static_cast<redisReply *>(redisCommand(Context, Format, Arguments...)));
    if (!R) {
      // hiredis reports its time-out as the socket's EAGAIN, in words
      // (errno is gone by now).
      if (Context->err == REDIS_ERR_IO &&
          llvm::StringRef(Context->errstr) == std::strerror(EAGAIN))
        return "no answer within " + std::to_string(TimeoutMs) + " ms";
      return std::string(Context->errstr[0] ? Context->errstr : "no answer");
    }
    if (R->type == REDIS_REPLY_ERROR)
      return std::string(R->str, R->len);
    return std::nullopt;
  }

  RemoteSpec Spec;
  redisContext *Context = nullptr;
  bool Ready = false;
  /// The socket's time-out now, set again only when a call asks another.
  unsigned CurrentTimeoutMs = 0;
};

} // namespace

std::unique_ptr<RemoteStorage> makeRedisStorage(const RemoteSpec &Spec) {
  return std::make_unique<RedisStorage>(Spec);
}

} // namespace libtorch_tidy::cache
