#include "net/OutboundFetcher.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>

#include "net/S3Signature.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

constexpr const char* kUserAgent = "svc-feedpull/1.0";

void initializeCurl() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

Error failure(FetchFailure kind, const std::string& detail) {
    std::string message = std::string(fetchFailureName(kind)) + ": " + detail;
    switch (kind) {
        case FetchFailure::BadUrl: return Error::invalidArgument(message);
        case FetchFailure::Ssrf: return Error::permissionDenied(message);
        case FetchFailure::Auth:
        case FetchFailure::HostKey: return Error::unauthenticated(message);
        case FetchFailure::NotFound: return Error::notFound(message);
        case FetchFailure::TooLarge: return Error::resourceExhausted(message);
        default: return Error::unavailable(message);
    }
}

struct UrlParts {
    std::string scheme;
    std::string host;
    std::string port;
};

std::optional<UrlParts> parseUrl(const std::string& url) {
    std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle(curl_url(), curl_url_cleanup);
    if (curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) return std::nullopt;
    UrlParts parts;
    auto get = [&](CURLUPart part, std::string& out, unsigned flags) {
        char* value = nullptr;
        if (curl_url_get(handle.get(), part, &value, flags) != CURLUE_OK) return false;
        out = value;
        curl_free(value);
        return true;
    };
    if (!get(CURLUPART_SCHEME, parts.scheme, 0)) return std::nullopt;
    // A URL without host or port (file:///...) is refused by its scheme, with a clearer message.
    get(CURLUPART_HOST, parts.host, 0);
    get(CURLUPART_PORT, parts.port, CURLU_DEFAULT_PORT);
    parts.scheme = toLower(parts.scheme);
    parts.host = toLower(parts.host);
    return parts;
}

// A private key on disk for as long as libssh2 needs it: written 0600, overwritten and removed however the fetch ends.
struct KeyFile {
    std::string path;
    size_t size = 0;
    ~KeyFile() {
        if (path.empty()) return;
        int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            std::string zeros(size, '\0');
            (void)!::write(fd, zeros.data(), zeros.size());
            ::close(fd);
        }
        ::unlink(path.c_str());
    }
};

// Everything the curl callbacks of one hop share.
struct Transfer {
    const AddressPolicy* policy = nullptr;
    std::string host;
    std::string refusal;  // set when the guard refused an address
    bool opened = false;  // some address was allowed: a later failure is not the guard's
    int fd = -1;
    int64_t written = 0;
    int64_t maxBytes = 0;
    bool tooLarge = false;
    bool writeFailed = false;
    std::string contentType, contentEncoding, etag, lastModified, retryAfter;
};

curl_socket_t openCheckedSocket(void* data, curlsocktype purpose, curl_sockaddr* address) {
    auto* transfer = static_cast<Transfer*>(data);
    if (purpose != CURLSOCKTYPE_IPCXN) return CURL_SOCKET_BAD;
    std::optional<IpAddress> ip;
    uint16_t port = 0;  // the allow-list opens ports, not whole hosts
    if (address->family == AF_INET) {
        sockaddr_in v4{};
        std::memcpy(&v4, &address->addr, sizeof v4);
        std::array<uint8_t, 4> bytes{};
        std::memcpy(bytes.data(), &v4.sin_addr, 4);
        ip = IpAddress::v4(bytes);
        port = ntohs(v4.sin_port);
    } else if (address->family == AF_INET6) {
        sockaddr_in6 v6{};
        std::memcpy(&v6, &address->addr, sizeof v6);
        std::array<uint8_t, 16> bytes{};
        std::memcpy(bytes.data(), &v6.sin6_addr, 16);
        ip = IpAddress::v6(bytes);
        port = ntohs(v6.sin6_port);
    }
    if (!ip) {
        transfer->refusal = "host " + transfer->host + ": address family " + std::to_string(address->family) + " refused";
        return CURL_SOCKET_BAD;
    }
    if (auto allowed = transfer->policy->check(transfer->host, *ip, port); !allowed) {
        transfer->refusal = allowed.error().message;
        return CURL_SOCKET_BAD;
    }
    transfer->opened = true;
    return ::socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

size_t writeBody(char* data, size_t size, size_t count, void* user) {
    auto* transfer = static_cast<Transfer*>(user);
    size_t bytes = size * count;
    if (transfer->written + static_cast<int64_t>(bytes) > transfer->maxBytes) {
        transfer->tooLarge = true;
        return 0;  // aborts the transfer
    }
    size_t done = 0;
    while (done < bytes) {
        ssize_t wrote = ::write(transfer->fd, data + done, bytes - done);
        if (wrote < 0) {
            if (errno == EINTR) continue;
            transfer->writeFailed = true;
            return 0;
        }
        done += static_cast<size_t>(wrote);
    }
    transfer->written += static_cast<int64_t>(bytes);
    return bytes;
}

size_t readHeader(char* data, size_t size, size_t count, void* user) {
    auto* transfer = static_cast<Transfer*>(user);
    std::string_view line(data, size * count);
    if (line.substr(0, 5) == "HTTP/") {  // a new response (after 100 Continue): forget the last one's headers
        transfer->contentType.clear();
        transfer->contentEncoding.clear();
        transfer->etag.clear();
        transfer->lastModified.clear();
        transfer->retryAfter.clear();
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) return size * count;
    std::string name = toLower(trim(line.substr(0, colon)));
    std::string value(trim(line.substr(colon + 1)));
    if (name == "content-type") transfer->contentType = value;
    else if (name == "content-encoding") transfer->contentEncoding = value;
    else if (name == "etag") transfer->etag = value;
    else if (name == "last-modified") transfer->lastModified = value;
    else if (name == "retry-after") transfer->retryAfter = value;
    return size * count;
}

Error curlFailure(CURLcode code, const Transfer& transfer, const std::string& host, const char* detail, bool ssh) {
    std::string text = detail[0] ? std::string(detail) : std::string(curl_easy_strerror(code));
    if (!transfer.refusal.empty() && !transfer.opened) return failure(FetchFailure::Ssrf, transfer.refusal);
    if (transfer.tooLarge) return failure(FetchFailure::TooLarge, "the body exceeds the limit of " + std::to_string(transfer.maxBytes) + " bytes");
    switch (code) {
        case CURLE_COULDNT_RESOLVE_HOST: return failure(FetchFailure::Dns, "could not resolve host " + host);
        case CURLE_COULDNT_CONNECT: return failure(FetchFailure::Refused, "could not connect to " + host + ": " + text);
        case CURLE_OPERATION_TIMEDOUT: return failure(FetchFailure::Timeout, host + ": " + text);
        case CURLE_FILESIZE_EXCEEDED:
            return failure(FetchFailure::TooLarge, "the announced size exceeds the limit of " + std::to_string(transfer.maxBytes) + " bytes");
        case CURLE_LOGIN_DENIED: return failure(FetchFailure::Auth, host + ": login denied");
        // libssh2 reports a host key that is not the pinned one as a failed peer verification.
        case CURLE_PEER_FAILED_VERIFICATION:
            if (ssh) return failure(FetchFailure::HostKey, host + ": the server's host key is not the pinned one; " + text);
            return failure(FetchFailure::Tls, host + ": " + text);
        case CURLE_REMOTE_FILE_NOT_FOUND: return failure(FetchFailure::NotFound, host + ": " + text);
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_SSL_CERTPROBLEM:
        case CURLE_SSL_CIPHER:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_ISSUER_ERROR:
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        case CURLE_SSL_INVALIDCERTSTATUS: return failure(FetchFailure::Tls, host + ": " + text);
        default: return failure(FetchFailure::Other, host + ": " + text);
    }
}

// RFC 7231 IMF-fixdate, the form of Last-Modified (and what curl_getdate reads back).
std::string httpDate(time_t time) {
    std::tm parts{};
    gmtime_r(&time, &parts);
    char text[40];
    std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &parts);
    return text;
}

// The <Code> of an S3-style XML error body (NoSuchKey, AccessDenied, SignatureDoesNotMatch, ...),
// read back from the start of the body file (opened read-write for this); empty when there is none.
std::string xmlErrorCode(int fd) {
    char buffer[4096];
    ssize_t got = ::pread(fd, buffer, sizeof buffer, 0);
    if (got <= 0) return "";
    std::string_view body(buffer, static_cast<size_t>(got));
    size_t start = body.find("<Code>");
    size_t end = start == std::string_view::npos ? start : body.find("</Code>", start);
    if (end == std::string_view::npos || end - start - 6 > 64) return "";
    std::string code(body.substr(start + 6, end - start - 6));
    for (char c : code) {
        if (!std::isalnum(static_cast<unsigned char>(c))) return "";
    }
    return code;
}

bool sameOrigin(const UrlParts& a, const UrlParts& b) { return a.scheme == b.scheme && a.host == b.host && a.port == b.port; }

}  // namespace

std::string_view fetchFailureName(FetchFailure failure) {
    switch (failure) {
        case FetchFailure::BadUrl: return "bad URL";
        case FetchFailure::Ssrf: return "SSRF";
        case FetchFailure::Dns: return "DNS";
        case FetchFailure::Refused: return "refused";
        case FetchFailure::Timeout: return "timeout";
        case FetchFailure::Tls: return "TLS";
        case FetchFailure::HostKey: return "host key";
        case FetchFailure::Auth: return "auth";
        case FetchFailure::NotFound: return "not found";
        case FetchFailure::HttpStatus: return "HTTP status";
        case FetchFailure::TooLarge: return "too large";
        case FetchFailure::Redirects: return "redirects";
        case FetchFailure::Other: return "transfer";
    }
    return "transfer";
}

OutboundFetcher::OutboundFetcher(AddressPolicy policy, FetchLimits limits) : policy_(std::move(policy)), limits_(limits) { initializeCurl(); }

Result<FetchResponse> OutboundFetcher::fetch(const FetchRequest& request) const {
    auto first = parseUrl(request.url);
    if (!first) return failure(FetchFailure::BadUrl, "'" + request.url + "' is not a URL");
    int fd = ::open(request.bodyPath.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return Error::unavailable("body file " + request.bodyPath + ": " + std::strerror(errno));
    std::unique_ptr<int, void (*)(int*)> closer(&fd, [](int* descriptor) { ::close(*descriptor); });
    long totalTimeoutMs = request.totalTimeoutMs > 0 ? std::min(request.totalTimeoutMs, limits_.totalTimeoutMs) : limits_.totalTimeoutMs;
    int64_t maxBodyBytes = request.maxBodyBytes > 0 ? std::min(request.maxBodyBytes, limits_.maxBodyBytes) : limits_.maxBodyBytes;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(totalTimeoutMs);

    KeyFile keyFile;
    if (!request.sshPrivateKey.empty() && first->scheme == "sftp") {
        keyFile.path = request.bodyPath + ".key";
        int keyFd = ::open(keyFile.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (keyFd < 0) return Error::unavailable("key file " + keyFile.path + ": " + std::strerror(errno));
        keyFile.size = request.sshPrivateKey.size();
        bool written = ::write(keyFd, request.sshPrivateKey.data(), keyFile.size) == static_cast<ssize_t>(keyFile.size);
        ::close(keyFd);
        if (!written) return Error::unavailable("key file " + keyFile.path + ": write failed");
    }

    std::string url = request.url;
    UrlParts origin = *first;
    FetchResponse response;
    for (int hop = 0;; ++hop) {
        auto parts = parseUrl(url);
        if (!parts) return failure(FetchFailure::BadUrl, "'" + url + "' is not a URL");
        bool ftp = parts->scheme == "ftp";
        bool sftp = parts->scheme == "sftp";
        bool fileTransfer = ftp || sftp;
        // (S)FTP is allowed for the URL given, never as a redirect target (an HTTP server must not pick the protocol).
        if (parts->scheme != "http" && parts->scheme != "https" && !(fileTransfer && hop == 0)) {
            return failure(hop == 0 ? FetchFailure::BadUrl : FetchFailure::Redirects,
                           "scheme " + parts->scheme + " of " + url + " is not " + (hop == 0 ? "http, https, ftp or sftp" : "http or https"));
        }
        if (sftp && request.sshHostKeySha256.empty()) {
            return failure(FetchFailure::BadUrl, "an sftp:// fetch needs the server's pinned host key fingerprint");
        }
        if (parts->host.empty()) return failure(FetchFailure::BadUrl, "'" + url + "' has no host");
        long remaining = static_cast<long>(
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
        if (remaining <= 0) return failure(FetchFailure::Timeout, parts->host + ": the total time limit was reached during redirects");
        if (::ftruncate(fd, 0) != 0 || ::lseek(fd, 0, SEEK_SET) != 0) return Error::unavailable("body file " + request.bodyPath + ": cannot truncate");

        Transfer transfer;
        transfer.policy = &policy_;
        transfer.host = parts->host;
        transfer.fd = fd;
        transfer.maxBytes = maxBodyBytes;
        std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
        if (!curl) return Error::internal("libcurl could not create a handle");
        CURL* handle = curl.get();
        char errorText[CURL_ERROR_SIZE] = {0};
        curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
        curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, ftp ? "ftp" : sftp ? "sftp" : "http,https");
        curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
        curl_easy_setopt(handle, CURLOPT_PROXY, "");  // never a proxy from the environment: it would bypass the guard
        curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, errorText);
        curl_easy_setopt(handle, CURLOPT_USERAGENT, request.userAgent.empty() ? kUserAgent : request.userAgent.c_str());
        curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, std::min(limits_.connectTimeoutMs, remaining));
        curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, remaining);
        curl_easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(maxBodyBytes));
        curl_easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "gzip, deflate");  // decoded by curl before writeBody
        curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, openCheckedSocket);
        curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, &transfer);
        curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, writeBody);
        curl_easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
        curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, readHeader);
        curl_easy_setopt(handle, CURLOPT_HEADERDATA, &transfer);
        // Credentials go only to the origin they were given for, never to where it redirects.
        bool signing = !request.awsSigV4.empty() && !request.username.empty() && !fileTransfer;
        curl_slist* headers = nullptr;
        if (!request.username.empty() && sameOrigin(*parts, origin)) {
            // A GET has no payload: the hash of the empty string is signed.
            if (signing) S3Signature::apply(handle, request.awsSigV4, request.username, request.password, S3Signature::payloadHash(""), headers);
            else {
                if (!fileTransfer) curl_easy_setopt(handle, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
                curl_easy_setopt(handle, CURLOPT_USERNAME, request.username.c_str());
                curl_easy_setopt(handle, CURLOPT_PASSWORD, request.password.c_str());
            }
        }
        if (!request.ifNoneMatch.empty()) headers = curl_slist_append(headers, ("If-None-Match: " + request.ifNoneMatch).c_str());
        if (!request.ifModifiedSince.empty()) headers = curl_slist_append(headers, ("If-Modified-Since: " + request.ifModifiedSince).c_str());
        if (sameOrigin(*parts, origin)) {
            for (const auto& header : request.headers) headers = curl_slist_append(headers, header.c_str());
        }
        std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headerList(headers, curl_slist_free_all);
        if (headers && !fileTransfer) curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
        if (sftp) {
            // Only the pinned host key is trusted (libssh2 compares its SHA-256 before any login is tried), and only
            // the source's own key: without one, password logins only, since curl would otherwise offer the service
            // account's ~/.ssh keys. The public key is derived from the private one (the empty file name says so).
            std::string pin = request.sshHostKeySha256.rfind("SHA256:", 0) == 0 ? request.sshHostKeySha256.substr(7) : request.sshHostKeySha256;
            curl_easy_setopt(handle, CURLOPT_SSH_HOST_PUBLIC_KEY_SHA256, pin.c_str());
            long methods = CURLSSH_AUTH_PASSWORD;
            if (!keyFile.path.empty()) {
                methods |= CURLSSH_AUTH_PUBLICKEY;
                curl_easy_setopt(handle, CURLOPT_SSH_PRIVATE_KEYFILE, keyFile.path.c_str());
                curl_easy_setopt(handle, CURLOPT_SSH_PUBLIC_KEYFILE, "");
            }
            curl_easy_setopt(handle, CURLOPT_SSH_AUTH_TYPES, methods);
        }
        if (fileTransfer) {
            // Passive mode only, to the control connection's address (the address in the PASV answer is
            // ignored, so a server cannot point the data connection elsewhere); the data connection goes
            // through the same guard. The file's time stands in for Last-Modified.
            if (ftp) curl_easy_setopt(handle, CURLOPT_FTP_SKIP_PASV_IP, 1L);
            curl_easy_setopt(handle, CURLOPT_FILETIME, 1L);
            curl_easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, nullptr);
            if (!request.ifModifiedSince.empty()) {
                time_t since = curl_getdate(request.ifModifiedSince.c_str(), nullptr);
                if (since > 0) {
                    curl_easy_setopt(handle, CURLOPT_TIMECONDITION, static_cast<long>(CURL_TIMECOND_IFMODSINCE));
                    curl_easy_setopt(handle, CURLOPT_TIMEVALUE_LARGE, static_cast<curl_off_t>(since));
                }
            }
        }

        CURLcode code = curl_easy_perform(handle);
        if (transfer.writeFailed) return Error::unavailable("body file " + request.bodyPath + ": write failed");
        if (code != CURLE_OK) return curlFailure(code, transfer, parts->host, errorText, sftp);

        if (fileTransfer) {
            long unmet = 0;
            curl_easy_getinfo(handle, CURLINFO_CONDITION_UNMET, &unmet);
            curl_off_t fileTime = -1;
            curl_easy_getinfo(handle, CURLINFO_FILETIME_T, &fileTime);
            response.finalUrl = url;
            response.notModified = unmet != 0;
            // curl honours the time condition for FTP only; an SFTP file no newer than the last one imported was
            // downloaded but is reported unchanged all the same, so it is not imported again.
            if (sftp && !request.ifModifiedSince.empty() && fileTime >= 0) {
                time_t since = curl_getdate(request.ifModifiedSince.c_str(), nullptr);
                if (since > 0 && static_cast<time_t>(fileTime) <= since) response.notModified = true;
            }
            response.lastModified = fileTime >= 0 ? httpDate(static_cast<time_t>(fileTime)) : "";
            response.bodyBytes = transfer.written;
            return response;
        }
        long status = 0;
        curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
        if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
            char* location = nullptr;
            curl_easy_getinfo(handle, CURLINFO_REDIRECT_URL, &location);
            if (!location) return failure(FetchFailure::Redirects, parts->host + " answered " + std::to_string(status) + " without a Location");
            if (hop + 1 > limits_.maxRedirects) {
                return failure(FetchFailure::Redirects, "more than " + std::to_string(limits_.maxRedirects) + " redirects, the last to " + location);
            }
            url = location;
            response.redirects = hop + 1;
            continue;
        }
        response.status = status;
        response.finalUrl = url;
        response.contentType = transfer.contentType;
        response.contentEncoding = transfer.contentEncoding;
        response.etag = transfer.etag;
        response.lastModified = transfer.lastModified;
        response.retryAfter = transfer.retryAfter;
        response.bodyBytes = transfer.written;
        if (status == 304) {
            response.notModified = true;
            return response;
        }
        if ((status == 429 || status == 503) && request.throttlingAsResponse) return response;
        // Object stores say why in the body (NoSuchKey, AccessDenied, SignatureDoesNotMatch, ...).
        std::string errorCode = status >= 400 ? xmlErrorCode(fd) : "";
        std::string where = parts->host + " answered " + std::to_string(status) + (errorCode.empty() ? "" : " (" + errorCode + ")") + " for " + url;
        if (status == 401 || status == 403) return failure(FetchFailure::Auth, where);
        if (status == 404 || status == 410) return failure(FetchFailure::NotFound, where);
        if (status < 200 || status >= 300) return failure(FetchFailure::HttpStatus, where);
        return response;
    }
}

}  // namespace svc
