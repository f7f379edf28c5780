//===--- RemoteSpec.h - Where the remote result cache lives -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--remote-cache` (or LIBTORCH_TIDY_REMOTE_CACHE) in ccache's spelling of
// `remote_storage`: servers separated by spaces, tried in order, each a URL
// followed by `|attribute=value` pairs:
//
//   http://host[:port]/prefix|layout=subdirs|bearer-token-env=CACHE_TOKEN
//   https://host/prefix|layout=bazel|bearer-token-file=/run/secrets/token
//   redis://[[user]:password@]host[:port][/db]|read-only
//   redis+unix:/run/redis.sock[?db=N]
//
// Attributes: `layout` (HTTP: subdirs, flat or bazel), `bearer-token-env`
// and `bearer-token-file` (HTTP: the token is read here, once, and never
// printed; ccache's inline `bearer-token=` is refused because a command
// line is visible to every user of the machine), `read-only`,
// `connect-timeout` and `operation-timeout` (milliseconds; ccache's
// defaults, 100 and 10000), and the signatures of entries
// (EntrySignature.h): `signing-key-env` or `signing-key-file` (a writer's
// secret key, read here, once, and never printed; a writer trusts its own
// key) and `verify-key=<public key>` (one or more; entries not signed by
// one of them are refused). Anything else is an error naming it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTESPEC_H
#define LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTESPEC_H

#include "cache/remote/EntrySignature.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::cache {

/// One server of the remote cache, parsed and with its secrets read.
struct RemoteSpec {
  enum class Kind { Http, Redis, RedisUnix };
  Kind Scheme = Kind::Http;
  /// The server as messages name it: the URL without credentials or
  /// attributes.
  std::string DisplayName;
  /// HTTP: the URL up to the prefix, without a trailing slash (credentials
  /// of the URL included: curl sends them as basic authentication).
  std::string BaseUrl;
  /// HTTP: subdirs (`<prefix>/<k[0:2]>/<k[2:]>`), flat (`<prefix>/<k>`) or
  /// bazel (`<prefix>/ac/<k>`).
  std::string Layout = "subdirs";
  /// HTTP: sent as `Authorization: Bearer`; empty for none.
  std::string BearerToken;
  /// Redis: host and port, or the socket's path.
  std::string Host;
  unsigned Port = 6379;
  std::string SocketPath;
  std::string User;
  std::string Password;
  unsigned Database = 0;
  /// Read, never written (a pull request's job).
  bool ReadOnly = false;
  /// Signs every entry stored (`signing-key-env`, `signing-key-file`).
  std::optional<SigningKey> Signing;
  /// Entries read are replayed only if one of these keys signed them
  /// (`verify-key`, and the signing key's own); none: any entry.
  std::vector<VerifyKey> Trusted;
  /// ccache's defaults.
  unsigned ConnectTimeoutMs = 100;
  unsigned OperationTimeoutMs = 10000;
};

/// Parses \p Text (servers separated by spaces). The error is one line that
/// names the offending part and says what to write instead; it never
/// contains a password or token. A user name or password that holds a `/`,
/// a space or a `|` as is (a base64 password) is refused, naming neither:
/// ccache splits servers at spaces and attributes at `|`, and RFC 3986 ends
/// the authority at the first `/`, so it must be percent-encoded.
llvm::Expected<std::vector<RemoteSpec>> parseRemoteSpecs(llvm::StringRef Text);

/// \p Url as a message may show it: the user name and password, everything
/// between `://` (or the start, without a scheme) and the last `@`, replaced
/// by `***`, whatever characters they hold.
std::string withoutCredentials(llvm::StringRef Url);

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTESPEC_H
