//===--- RemoteSpec.cpp - Where the remote result cache lives -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteSpec.h"
#include "io/FileIO.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Process.h"
#include <cstring>

using namespace llvm;

namespace libtorch_tidy::cache {
namespace {

Error problem(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid --remote-cache: " + Message.str());
}

/// %XX escapes of a URL's user name or password, as ccache decodes them.
std::string percentDecoded(StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    unsigned Byte;
    if (Text[I] == '%' && I + 2 < Text.size() &&
        !Text.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Out += static_cast<char>(Byte);
      I += 2;
    } else {
      Out += Text[I];
    }
  }
  return Out;
}

/// Splits `[user:]password@` off \p Authority into \p Spec.
void takeCredentials(StringRef &Authority, RemoteSpec &Spec) {
  size_t At = Authority.rfind('@');
  if (At == StringRef::npos)
    return;
  StringRef Credentials = Authority.take_front(At);
  Authority = Authority.drop_front(At + 1);
  if (size_t Colon = Credentials.find(':'); Colon != StringRef::npos) {
    Spec.User = percentDecoded(Credentials.take_front(Colon));
    Spec.Password = percentDecoded(Credentials.drop_front(Colon + 1));
  } else {
    Spec.Password = percentDecoded(Credentials);
  }
}

Error parseRedisHost(StringRef Authority, StringRef Url, RemoteSpec &Spec) {
  StringRef Host = Authority, Port;
  if (Authority.starts_with("[")) { // [::1]:6379
    size_t Close = Authority.find(']');
    if (Close == StringRef::npos)
      return problem("'" + Url + "' has an unclosed '[' in its host");
    Host = Authority.slice(1, Close);
    Port = Authority.drop_front(Close + 1);
    if (!Port.empty() && !Port.consume_front(":"))
      return problem("'" + Url + "' has text after its host's ']'");
  } else if (size_t Colon = Authority.rfind(':'); Colon != StringRef::npos) {
    Host = Authority.take_front(Colon);
    Port = Authority.drop_front(Colon + 1);
  }
  if (Host.empty())
    return problem("'" + Url + "' names no host; write redis://HOST[:PORT]");
  Spec.Host = Host.str();
  if (!Port.empty() &&
      (Port.getAsInteger(10, Spec.Port) || Spec.Port == 0 || Spec.Port > 65535))
    return problem("'" + Url + "' has port '" + Port +
                   "'; write a number from 1 to 65535");
  return Error::success();
}

Error parseUrl(StringRef Url, RemoteSpec &Spec) {
  std::string Shown; // the URL without credentials, for messages
  if (Url.starts_with("http://") || Url.starts_with("https://")) {
    Spec.Scheme = RemoteSpec::Kind::Http;
    StringRef Scheme = Url.take_front(Url.find("://") + 3);
    StringRef Rest = Url.drop_front(Scheme.size());
    StringRef Authority = Rest.take_until([](char C) { return C == '/'; });
    StringRef Path = Rest.drop_front(Authority.size()).rtrim('/');
    RemoteSpec Ignored;
    StringRef Host = Authority;
    takeCredentials(Host, Ignored);
    if (Host.empty())
      return problem("'" + Scheme + Host + Path +
                     "' names no host; write http://HOST[:PORT]/PREFIX");
    if (Path.contains('?') || Path.contains('#'))
      return problem("'" + Scheme + Host + Path +
                     "' has a query or fragment; a prefix is a plain path");
    Spec.BaseUrl =
        (Url.take_front(Scheme.size() + Authority.size()) + Path).str();
    Spec.DisplayName = (Scheme + Host + Path).str();
    return Error::success();
  }
  if (Url.starts_with("redis://")) {
    Spec.Scheme = RemoteSpec::Kind::Redis;
    StringRef Rest = Url.drop_front(strlen("redis://"));
    StringRef Authority = Rest.take_until([](char C) { return C == '/'; });
    StringRef Database = Rest.drop_front(Authority.size());
    takeCredentials(Authority, Spec);
    Spec.DisplayName = ("redis://" + Authority + Database).str();
    if (Error E = parseRedisHost(Authority, Spec.DisplayName, Spec))
      return E;
    if (Database.consume_front("/") && !Database.empty() &&
        Database.getAsInteger(10, Spec.Database))
      return problem("'" + Spec.DisplayName + "' has database '" + Database +
                     "'; write a number (redis://HOST:PORT/0)");
    return Error::success();
  }
  if (Url.starts_with("redis+unix:")) {
    Spec.Scheme = RemoteSpec::Kind::RedisUnix;
    StringRef Rest = Url.drop_front(strlen("redis+unix:"));
    if (Rest.consume_front("//")) {
      StringRef Authority = Rest.take_until([](char C) { return C == '/'; });
      Rest = Rest.drop_front(Authority.size());
      takeCredentials(Authority, Spec);
      if (!Authority.empty())
        return problem("'redis+unix://" + Authority +
                       "...' names a host; a socket has none "
                       "(redis+unix:/path/to/redis.sock)");
    }
    auto [Path, Query] = Rest.split('?');
    Spec.DisplayName = ("redis+unix:" + Path).str();
    if (!Path.starts_with("/"))
      return problem("'" + Spec.DisplayName +
                     "' names no absolute socket path; write "
                     "redis+unix:/path/to/redis.sock");
    Spec.SocketPath = Path.str();
    if (!Query.empty() &&
        (!Query.consume_front("db=") || Query.getAsInteger(10, Spec.Database)))
      return problem("'" + Spec.DisplayName +
                     "' has a query other than ?db=NUMBER");
    return Error::success();
  }
  // Only the scheme is shown: the rest may hold a password. Without `://`,
  // what precedes an `@` is a user name and password (`user:pw@host`).
  std::string Named =
      Url.contains("://") || !Url.contains('@')
          ? (Url.take_until([](char C) { return C == ':'; }) + ":").str()
          : withoutCredentials(Url);
  return problem("'" + Named +
                 "' is not a scheme of the remote cache; write an http://, "
                 "https://, redis:// or redis+unix: URL");
}

/// Whether \p Text, from \p Pos, begins a server: a scheme at the start or
/// after a space.
bool beginsServer(StringRef Text, size_t Pos) {
  if (Pos != 0 && !isSpace(Text[Pos - 1]))
    return false;
  StringRef Rest = Text.drop_front(Pos);
  return Rest.starts_with("http://") || Rest.starts_with("https://") ||
         Rest.starts_with("redis://") || Rest.starts_with("redis+unix:");
}

/// Refuses a server whose user name or password holds a `/`, a space or a
/// `|` as is. Those end the authority, the server and the URL before the
/// `@` does, so the parse below would cut the password in two and name a
/// piece of it as a host, a port, an attribute or a scheme: the
/// credentials are found first, as everything from `://` to the last `@`
/// before the next server or the first attribute.
Error refuseBareSeparators(StringRef Text) {
  for (size_t Start = 0; Start < Text.size(); ++Start) {
    if (!beginsServer(Text, Start))
      continue;
    size_t End = Start + 1;
    while (End < Text.size() && !beginsServer(Text, End))
      ++End;
    StringRef Server = Text.slice(Start, End);
    size_t Slashes = Server.find("://");
    if (Slashes == StringRef::npos)
      continue;
    StringRef AfterScheme = Server.drop_front(Slashes + 3);
    // An attribute's value (a token file's path) may hold an `@`.
    for (StringRef Attribute :
         {"|read-only", "|layout=", "|bearer-token", "|connect-timeout=",
          "|operation-timeout=", "|signing-key-", "|verify-key="})
      AfterScheme = AfterScheme.take_front(AfterScheme.find(Attribute));
    size_t At = AfterScheme.rfind('@');
    if (At == StringRef::npos ||
        AfterScheme.take_front(At).find_first_of("/ |\t") == StringRef::npos)
      continue;
    StringRef Host = AfterScheme.drop_front(At + 1).take_until(
        [](char C) { return C == '/' || C == '|' || isSpace(C); });
    return problem("the user name or password of '" +
                   Server.take_front(Slashes + 3) + "***@" + Host +
                   "' holds a '/', a space or a '|'; percent-encode them "
                   "(%2F, %20, %7C; an '@' of a prefix, %40), as ccache "
                   "needs too");
  }
  return Error::success();
}

Expected<std::string> bearerToken(StringRef Attribute, StringRef Value,
                                  const RemoteSpec &Spec) {
  std::string Token;
  if (Attribute == "bearer-token-env") {
    std::optional<std::string> FromEnvironment = sys::Process::GetEnv(Value);
    if (!FromEnvironment || StringRef(*FromEnvironment).trim().empty())
      return problem("the environment variable '" + Value +
                     "' (bearer-token-env of " + Spec.DisplayName +
                     ") is not set or empty; set it to the token");
    Token = *FromEnvironment;
  } else {
    std::string Why;
    std::optional<std::string> FromFile = io::readRegularFile(
        Value.str(), size_t{64} * 1024, "bearer token file", Why);
    if (!FromFile)
      return problem(Why + " (bearer-token-file of " + Spec.DisplayName +
                     "); point it at a readable file holding the token");
    Token = *FromFile;
  }
  Token = StringRef(Token).trim().str();
  if (Token.empty() ||
      StringRef(Token).find_first_of("\r\n") != StringRef::npos)
    return problem("the bearer token of " + Spec.DisplayName +
                   " is empty or has several lines; it must be one line");
  return Token;
}

/// The secret named by `signing-key-env` or `signing-key-file` (\p Name):
/// never printed, nor the file's content in an error.
Expected<SigningKey> signingKey(StringRef Name, StringRef Value,
                                const RemoteSpec &Spec) {
  std::string Seed;
  const std::string Where = " (" + Name.str() + " of " + Spec.DisplayName + ")";
  if (Name == "signing-key-env") {
    std::optional<std::string> FromEnvironment = sys::Process::GetEnv(Value);
    if (!FromEnvironment || StringRef(*FromEnvironment).trim().empty())
      return problem("the environment variable '" + Value + "'" + Where +
                     " is not set or empty; set it to the signing key");
    Seed = std::move(*FromEnvironment);
  } else {
    std::string Why;
    std::optional<std::string> FromFile =
        io::readRegularFile(Value.str(), 4096, "signing key file", Why);
    if (!FromFile)
      return problem(Why + Where +
                     "; point it at a readable file holding the key");
    Seed = std::move(*FromFile);
  }
  std::optional<SigningKey> Key = SigningKey::fromSeedHex(Seed);
  std::fill(Seed.begin(), Seed.end(), '\0');
  if (!Key)
    return problem("the signing key" + Where +
                   " is not 64 hex digits; make one with "
                   "'libtorch-tidy remote-cache-keygen FILE'");
  return std::move(*Key);
}

/// What a server's signing attributes mean together: a writer trusts the
/// key it signs with; a server whose entries must be signed but that this
/// run may write without a key would be filled with entries its readers
/// refuse.
Error checkSigning(RemoteSpec &Spec) {
  if (Spec.Signing)
    Spec.Trusted.push_back(Spec.Signing->verifyKey());
  else if (!Spec.Trusted.empty() && !Spec.ReadOnly)
    return problem(Spec.DisplayName +
                   " has a verify-key but no signing key, so the entries "
                   "this run stores would be refused; add |read-only, or "
                   "signing-key-env=VARIABLE or signing-key-file=PATH");
  return Error::success();
}

Error parseAttribute(StringRef Attribute, RemoteSpec &Spec) {
  // Not a structured binding: a lambda may capture one only from C++20 on.
  const std::pair<StringRef, StringRef> NameValue = Attribute.split('=');
  const StringRef Name = NameValue.first, Value = NameValue.second;
  auto Milliseconds = [&](unsigned &Out) -> Error {
    if (Value.getAsInteger(10, Out) || Out == 0)
      return problem("'" + Name + "=" + Value + "' of " + Spec.DisplayName +
                     " is not a number of milliseconds above 0");
    return Error::success();
  };
  if (Name == "read-only" && !Attribute.contains('='))
    Spec.ReadOnly = true;
  else if (Name == "connect-timeout")
    return Milliseconds(Spec.ConnectTimeoutMs);
  else if (Name == "operation-timeout")
    return Milliseconds(Spec.OperationTimeoutMs);
  else if (Spec.Scheme == RemoteSpec::Kind::Http && Name == "layout") {
    if (Value != "subdirs" && Value != "flat" && Value != "bazel")
      return problem("'layout=" + Value + "' of " + Spec.DisplayName +
                     " is not a layout; use subdirs, flat or bazel");
    Spec.Layout = Value.str();
  } else if (Spec.Scheme == RemoteSpec::Kind::Http &&
             (Name == "bearer-token-env" || Name == "bearer-token-file")) {
    Expected<std::string> Token = bearerToken(Name, Value, Spec);
    if (!Token)
      return Token.takeError();
    Spec.BearerToken = std::move(*Token);
  } else if (Name == "signing-key-env" || Name == "signing-key-file") {
    if (Spec.Signing)
      return problem(Spec.DisplayName + " has two signing keys; give one");
    Expected<SigningKey> Key = signingKey(Name, Value, Spec);
    if (!Key)
      return Key.takeError();
    Spec.Signing = std::move(*Key);
  } else if (Name == "verify-key") {
    std::optional<VerifyKey> Key = parseVerifyKey(Value);
    if (!Key)
      return problem("'verify-key=" + Value + "' of " + Spec.DisplayName +
                     " is not a public key of 64 hex digits (what "
                     "'libtorch-tidy remote-cache-keygen' prints)");
    Spec.Trusted.push_back(*Key);
  } else if (Name == "signing-key") {
    // Not echoed: it is a secret.
    return problem("signing-key= of " + Spec.DisplayName +
                   " would put the secret on the command line; use "
                   "signing-key-env=VARIABLE or signing-key-file=PATH");
  } else if (Spec.Scheme == RemoteSpec::Kind::Http && Name == "bearer-token") {
    // Not echoed: it is a secret.
    return problem("bearer-token= of " + Spec.DisplayName +
                   " would put the secret on the command line; use "
                   "bearer-token-env=VARIABLE or bearer-token-file=PATH");
  } else {
    return problem("'" + Name + "' is not an attribute of " + Spec.DisplayName +
                   " (attributes: read-only, connect-timeout, "
                   "operation-timeout, signing-key-env, signing-key-file, "
                   "verify-key" +
                   (Spec.Scheme == RemoteSpec::Kind::Http
                        ? ", layout, bearer-token-env, bearer-token-file"
                        : "") +
                   ")");
  }
  return Error::success();
}

} // namespace

std::string withoutCredentials(StringRef Url) {
  size_t Slashes = Url.find("://");
  size_t Start = Slashes == StringRef::npos ? 0 : Slashes + 3;
  size_t At = Url.rfind('@');
  if (At == StringRef::npos || At < Start)
    return Url.str();
  return (Url.take_front(Start) + "***" + Url.drop_front(At)).str();
}

Expected<std::vector<RemoteSpec>> parseRemoteSpecs(StringRef Text) {
  if (Error E = refuseBareSeparators(Text))
    return E;
  std::vector<RemoteSpec> Specs;
  SmallVector<StringRef, 4> Entries;
  Text.split(Entries, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef Entry : Entries) {
    Entry = Entry.trim();
    if (Entry.empty())
      continue;
    SmallVector<StringRef, 6> Parts;
    Entry.split(Parts, '|');
    RemoteSpec Spec;
    if (Error E = parseUrl(Parts.front(), Spec))
      return E;
    for (StringRef Attribute : ArrayRef<StringRef>(Parts).drop_front())
      if (!Attribute.empty())
        if (Error E = parseAttribute(Attribute, Spec))
          return E;
    if (Error E = checkSigning(Spec))
      return E;
    Specs.push_back(std::move(Spec));
  }
  return Specs;
}

} // namespace libtorch_tidy::cache
