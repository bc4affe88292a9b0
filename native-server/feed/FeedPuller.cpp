#include "feed/FeedPuller.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "feed/ShopPluginPuller.hpp"
#include "net/S3Location.hpp"
#include "store/PrivateFiles.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

// Removes the spooled body however the pull ends.
struct SpoolFile {
    std::string path;
    ~SpoolFile() {
        if (!path.empty()) ::unlink(path.c_str());
    }
};

// Decodes a .csv.gz file into `target`, at most `maxBytes` decoded (a small file may expand a thousandfold).
Status gunzipFile(const std::string& source, const std::string& target, int64_t maxBytes) {
    gzFile in = gzopen(source.c_str(), "rb");
    if (!in) return Error::unavailable("pulled file " + source + ": cannot be opened");
    int out = ::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0) {
        gzclose(in);
        return Error::unavailable("spool file " + target + ": " + std::strerror(errno));
    }
    std::vector<char> buffer(1 << 16);
    int64_t total = 0;
    Status status = Status::success();
    while (true) {
        int got = gzread(in, buffer.data(), static_cast<unsigned>(buffer.size()));
        if (got < 0) {
            int code = 0;
            status = Error::invalidArgument(std::string("file type: the .gz file is damaged: ") + gzerror(in, &code));
            break;
        }
        if (got > 0 && gzdirect(in)) {
            status = Error::invalidArgument("file type: the file name ends in .gz but the file is not gzip-compressed");
            break;
        }
        if (got == 0) break;
        total += got;
        if (total > maxBytes) {
            status = Error::resourceExhausted("too large: the decompressed file exceeds the limit of " + std::to_string(maxBytes) + " bytes");
            break;
        }
        if (::write(out, buffer.data(), static_cast<size_t>(got)) != got) {
            status = Error::unavailable("spool file " + target + ": write failed");
            break;
        }
    }
    gzclose(in);
    ::close(out);
    return status;
}

std::string urlPath(const std::string& url) {
    size_t schemeEnd = url.find("://");
    size_t pathStart = url.find('/', schemeEnd == std::string::npos ? 0 : schemeEnd + 3);
    if (pathStart == std::string::npos) return "";
    size_t end = url.find_first_of("?#", pathStart);
    return url.substr(pathStart, end == std::string::npos ? std::string::npos : end - pathStart);
}

}  // namespace

FileFormat feedFormatFromFileName(const std::string& url) {
    std::string path = toLower(urlPath(url));
    auto endsWith = [&](std::string_view suffix) { return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0; };
    if (endsWith(".csv.gz")) return FileFormat::CsvGzip;
    if (endsWith(".csv")) return FileFormat::Csv;
    return FileFormat::Unknown;
}

Status checkFeedContentType(const std::string& contentType) {
    std::string mediaType = toLower(trim(contentType.substr(0, contentType.find(';'))));
    if (mediaType == "text/csv" || mediaType == "application/csv" || mediaType == "text/comma-separated-values") return Status::success();
    if (mediaType.empty()) return Error::invalidArgument("content type: the server sent no Content-Type; a feed must be sent as text/csv");
    return Error::invalidArgument("content type: '" + mediaType + "' is not a feed format; a feed must be sent as text/csv");
}

std::string FeedPuller::credentialOwner(int64_t tenantId, const std::string& feed) {
    return "pull-source:" + std::to_string(tenantId) + ":" + feed;
}

Result<PullOutcome> recordPullFailure(FeedImportStore& history, int64_t now, PullSource source, FeedImportRecord record,
                                      const std::string& reason) {
    record.tenantId = source.tenantId;
    record.feed = source.feed;
    record.status = ImportStatus::Failed;
    record.createdAt = now;
    record.startedAt = now;
    record.finishedAt = now;
    record.message = "pull failed: " + reason;
    auto id = history.create(record);  // stored whole: never seen failed without its reason
    if (!id) return id.error();
    record.id = *id;
    source.lastResult = "failed: " + reason;
    return PullOutcome{PullResult::Failed, record, source};
}

Result<PullOutcome> FeedPuller::recordFailure(PullSource source, const std::string& reason) {
    FeedImportRecord record;
    record.source = pullSourceLabel(source.url);
    record.delta = source.delta;
    record.identifier = source.identifier;
    record.delimiter = source.delimiter;
    return recordPullFailure(history_, clock_.nowSeconds(), std::move(source), std::move(record), reason);
}

Result<PullOutcome> FeedPuller::pull(PullSource source) {
    auto tenant = tenants_.findById(source.tenantId);
    if (!tenant) return tenant.error();
    if (!*tenant) return Error::notFound("pull source " + std::to_string(source.id) + ": tenant " + std::to_string(source.tenantId) + " is gone");
    // A tenant the operator disabled is not fetched for: nothing leaves svc on its behalf.
    if ((*tenant)->disabled) return recordFailure(source, "the tenant is disabled: ask the service operator");
    if (source.kind == kPullSourcePlugin) {
        if (!plugins_) return recordFailure(source, "shop plugin pulls are not set up in this process");
        return plugins_->pull(source);
    }

    FetchRequest request;
    request.url = source.url;
    std::string scheme = pullUrlScheme(source.url);
    std::string secretQuery;  // the URL's sealed query: its tokens appear in no message
    auto fail = [this, &source, &secretQuery](const std::string& reason) {
        return recordFailure(source, hideQueryValues(redactUrlsIn(reason), secretQuery));
    };
    if (!source.sealedCredentials.empty()) {
        auto credentials = cipher_.open(source.sealedCredentials, credentialOwner(source.tenantId, source.feed));
        if (!credentials) return recordFailure(source, "auth: " + credentials.error().message);
        request.username = credentials->username;
        request.password = credentials->password;
        request.sshHostKeySha256 = credentials->hostKey;
        request.sshPrivateKey = credentials->privateKey;
        sodium_memzero(credentials->password.data(), credentials->password.size());
        sodium_memzero(credentials->privateKey.data(), credentials->privateKey.size());
        secretQuery = credentials->urlQuery;
        request.url = withPullUrlQuery(source.url, secretQuery);
        sodium_memzero(credentials->urlQuery.data(), credentials->urlQuery.size());
    }
    if (scheme == "sftp" && (request.username.empty() || request.sshHostKeySha256.empty())) {
        return fail("auth: an sftp:// source needs a user and the server's host key (feed source add --username --host-key)");
    }
    if (scheme == "s3") {
        // The object's HTTP URL, signed with the access key when there is one, anonymous (a public object) otherwise.
        auto location = S3Location::parse(source.url, "url");
        if (!location) return fail("bad URL: " + location.error().message);
        request.url = location->httpUrl();
        request.awsSigV4 = location->signingScope();
    }
    request.ifNoneMatch = source.etag;
    request.ifModifiedSince = source.lastModified;

    if (auto error = PrivateFiles::createDirectories(spoolDir_)) {
        return Error::unavailable("spool directory " + spoolDir_ + ": " + error.message());
    }
    SpoolFile spool{(std::filesystem::path(spoolDir_) / ("pull-" + std::to_string(source.id) + "-" + std::to_string(randombytes_random()) + ".part")).string()};
    request.bodyPath = spool.path;
    auto response = fetcher_.fetch(request);
    sodium_memzero(request.password.data(), request.password.size());
    sodium_memzero(request.sshPrivateKey.data(), request.sshPrivateKey.size());
    sodium_memzero(request.url.data(), request.url.size());
    if (!response) return fail(response.error().message);
    if (response->notModified) {
        source.lastResult = "unchanged";
        return PullOutcome{PullResult::Unchanged, FeedImportRecord{}, source};
    }
    std::string importPath = spool.path;
    SpoolFile decoded;
    if (scheme == "ftp" || scheme == "sftp") {
        // (S)FTP has no content type: the file name says the format.
        FileFormat format = feedFormatFromFileName(source.url);
        if (format == FileFormat::Unknown) {
            return fail("file type: the file name in " + source.url + " does not end in .csv or .csv.gz");
        }
        if (format == FileFormat::CsvGzip) {
            decoded.path = spool.path + ".csv";
            if (auto status = gunzipFile(spool.path, decoded.path, fetcher_.limits().maxBodyBytes); !status) {
                return fail(status.error().message);
            }
            importPath = decoded.path;
        }
    } else if (auto format = checkFeedContentType(response->contentType); !format) {
        return fail(format.error().message);
    }
    std::string encoding = toLower(response->contentEncoding);
    if (!encoding.empty() && encoding != "gzip" && encoding != "x-gzip" && encoding != "deflate" && encoding != "identity") {
        return fail("content encoding: '" + response->contentEncoding + "' is not supported (gzip is)");
    }

    FeedImportOptions options;
    options.delta = source.delta;
    options.identifier = source.identifier;
    options.delimiter = source.delimiter;
    auto outcome = imports_.importPulled(**tenant, importPath, options, pullSourceLabel(source.url), source.feed);
    if (!outcome) return outcome.error();
    const FeedImportRecord& record = outcome->record;
    if (record.status == ImportStatus::Applied || record.status == ImportStatus::Held) {
        // This file reached the catalog (or awaits confirmation): the same file need not come again.
        source.etag = response->etag;
        source.lastModified = response->lastModified;
        source.lastResult = std::string(importStatusName(record.status));
        return PullOutcome{PullResult::Imported, record, source};
    }
    source.lastResult = "failed: " + record.message;
    return PullOutcome{PullResult::Failed, record, source};
}

}  // namespace svc
