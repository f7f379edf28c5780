//===--- HttpStorage.cpp - The remote cache over HTTP (libcurl) -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// ccache's HTTP storage: `GET <url>` answers 200 with the entry or 404,
// `PUT <url>` stores it (nginx and lighttpd with WebDAV, bazel-remote,
// sccache's WebDAV). One curl handle per object, so its connection is kept
// alive across the run's requests. Redirects are not followed: a cache
// server does not redirect, and following one could send the token
// elsewhere.
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteStorage.h"
#include <algorithm>
#include <cstring>
#include <curl/curl.h>
#include <mutex>

namespace libtorch_tidy::cache {
namespace {

/// Body of a GET, abandoned past MaxRemoteEntryBytes.
size_t appendBody(char *Data, size_t Size, size_t Count, void *Out) {
  std::string &Body = *static_cast<std::string *>(Out);
  if (Body.size() + Size * Count > MaxRemoteEntryBytes)
    return 0; // curl stops with CURLE_WRITE_ERROR
  Body.append(Data, Size * Count);
  return Size * Count;
}

struct Upload {
  llvm::StringRef Bytes;
  size_t Sent = 0;
};

size_t readUpload(char *Buffer, size_t Size, size_t Count, void *In) {
  Upload &U = *static_cast<Upload *>(In);
  size_t N = std::min(Size * Count, U.Bytes.size() - U.Sent);
  std::memcpy(Buffer, U.Bytes.data() + U.Sent, N);
  U.Sent += N;
  return N;
}

class HttpStorage : public RemoteStorage {
public:
  explicit HttpStorage(const RemoteSpec &Spec) : Spec(Spec) {
    static std::once_flag Once;
    std::call_once(Once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    Handle = curl_easy_init();
  }
  ~HttpStorage() override {
    if (Handle)
      curl_easy_cleanup(Handle);
    curl_slist_free_all(Headers);
  }

  Fetched get(llvm::StringRef Key, unsigned TimeoutMs) override {
    Fetched Result;
    long Status = 0;
    bool TooLarge = false;
    if (std::optional<std::string> Error =
            request(Key, /*Body=*/nullptr, &Result.Bytes, TimeoutMs, Status,
                    TooLarge)) {
      Result.What =
          TooLarge ? Fetched::Outcome::Unusable : Fetched::Outcome::Failed;
      Result.Error = *Error;
      if (TooLarge)
        Result.Bytes.clear();
    } else if (Status == 200) {
      Result.What = Fetched::Outcome::Hit;
    } else if (Status == 404) {
      Result.What = Fetched::Outcome::Miss;
    } else {
      Result.What = Fetched::Outcome::Failed;
      Result.Error = statusProblem("GET", Status);
    }
    return Result;
  }

  std::optional<std::string> put(llvm::StringRef Key, llvm::StringRef Bytes,
                                 unsigned TimeoutMs) override {
    long Status = 0;
    std::string Ignored;
    bool TooLarge = false;
    if (std::optional<std::string> Error =
            request(Key, &Bytes, &Ignored, TimeoutMs, Status, TooLarge))
      return Error;
    if (Status >= 200 && Status < 300)
      return std::nullopt;
    return statusProblem("PUT", Status);
  }

private:
  std::string url(llvm::StringRef Key) const {
    if (Spec.Layout == "flat")
      return Spec.BaseUrl + "/" + Key.str();
    if (Spec.Layout == "bazel")
      return Spec.BaseUrl + "/ac/" + Key.str(); // our keys are SHA-256 hex
    return Spec.BaseUrl + "/" + Key.take_front(2).str() + "/" +
           Key.drop_front(2).str();
  }

  static std::string statusProblem(llvm::StringRef Method, long Status) {
    std::string Text =
        Method.str() + " answered HTTP " + std::to_string(Status);
    if (Status == 401 || Status == 403)
      Text += " (authorization refused; check the bearer token or the "
              "server's access rules)";
    return Text;
  }

  /// One request; the error is curl's, when no HTTP answer came.
  /// \p TooLarge: the answer was, or said it would be, larger than an
  /// entry may be, and was not read (further).
  std::optional<std::string> request(llvm::StringRef Key,
                                     const llvm::StringRef *Body,
                                     std::string *Received, unsigned TimeoutMs,
                                     long &Status, bool &TooLarge) {
    if (!Handle)
      return std::string("curl could not be initialized");
    curl_easy_reset(Handle);
    std::string Url = url(Key);
    curl_easy_setopt(Handle, CURLOPT_URL, Url.c_str());
    curl_easy_setopt(Handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(Handle, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(Handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(Handle, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(Spec.ConnectTimeoutMs));
    curl_easy_setopt(Handle, CURLOPT_TIMEOUT_MS, static_cast<long>(TimeoutMs));
    curl_easy_setopt(Handle, CURLOPT_USERAGENT, "libtorch-tidy");
    if (!Headers) {
      // No "Expect: 100-continue": it costs a round trip on every PUT.
      Headers = curl_slist_append(Headers, "Expect:");
      Headers =
          curl_slist_append(Headers, "Content-Type: application/octet-stream");
      if (!Spec.BearerToken.empty())
        Headers = curl_slist_append(
            Headers, ("Authorization: Bearer " + Spec.BearerToken).c_str());
    }
    curl_easy_setopt(Handle, CURLOPT_HTTPHEADER, Headers);
    Upload Up;
    if (Body) {
      Up.Bytes = *Body;
      curl_easy_setopt(Handle, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(Handle, CURLOPT_READFUNCTION, readUpload);
      curl_easy_setopt(Handle, CURLOPT_READDATA, &Up);
      curl_easy_setopt(Handle, CURLOPT_INFILESIZE_LARGE,
                       static_cast<curl_off_t>(Body->size()));
    } else {
      curl_easy_setopt(Handle, CURLOPT_HTTPGET, 1L);
      // A Content-Length over the bound ends the transfer before the body;
      // without one, appendBody stops at the bound.
      curl_easy_setopt(Handle, CURLOPT_MAXFILESIZE_LARGE,
                       static_cast<curl_off_t>(MaxRemoteEntryBytes));
    }
    curl_easy_setopt(Handle, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(Handle, CURLOPT_WRITEDATA, Received);
    CURLcode Code = curl_easy_perform(Handle);
    TooLarge = Code == CURLE_WRITE_ERROR || Code == CURLE_FILESIZE_EXCEEDED;
    if (TooLarge)
      return "the answer is larger than " +
             std::to_string(MaxRemoteEntryBytes >> 20) + " MiB";
    if (Code != CURLE_OK)
      return std::string(curl_easy_strerror(Code));
    curl_easy_getinfo(Handle, CURLINFO_RESPONSE_CODE, &Status);
    return std::nullopt;
  }

  RemoteSpec Spec;
  CURL *Handle = nullptr;
  curl_slist *Headers = nullptr;
};

} // namespace

std::unique_ptr<RemoteStorage> makeHttpStorage(const RemoteSpec &Spec) {
  return std::make_unique<HttpStorage>(Spec);
}

} // namespace libtorch_tidy::cache
