#pragma once
// Requests to one S3-compatible bucket that the operator configured (docs/adr/0090): whole-object
// PUT, ranged GET, DELETE and the multipart upload calls, each signed by S3Signature. The endpoint
// is the operator's, not a shop's, so there is no address guard (a MinIO on loopback is fine);
// no proxy from the environment, no redirects followed. Errors name the object and what the bucket
// answered (status, S3 error code), never the credentials.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.hpp"
#include "net/S3Location.hpp"

namespace svc {

struct S3Credentials {
    std::string accessKeyId;
    std::string secretAccessKey;
};

class S3Client {
public:
    // `bucket`: bucket, region and endpoint (its key is ignored; every call names its own).
    S3Client(S3Location bucket, S3Credentials credentials, long timeoutMs = 120'000);

    Status put(const std::string& key, std::string_view body) const;
    // Bytes [offset, offset + length) of the object, fewer at its end, none past it.
    // NotFound when there is no such object.
    Result<std::string> getRange(const std::string& key, int64_t offset, int64_t length) const;
    // Succeeds when the object is already gone.
    Status remove(const std::string& key) const;

    // Multipart upload: the parts (all but the last at least 5 MiB on S3) become visible as one
    // object only when completed; an aborted upload leaves nothing.
    Result<std::string> startMultipart(const std::string& key) const;  // the upload id
    Result<std::string> uploadPart(const std::string& key, const std::string& uploadId, int partNumber, std::string_view body) const;  // the ETag
    Status completeMultipart(const std::string& key, const std::string& uploadId, const std::vector<std::string>& partEtags) const;
    Status abortMultipart(const std::string& key, const std::string& uploadId) const;

private:
    struct Answer {
        long status = 0;
        std::string body;
        std::string etag;
    };
    // `query` is already canonical (names sorted, values encoded), as libcurl signs it verbatim.
    Result<Answer> perform(const char* method, const std::string& key, const std::string& query, std::string_view body,
                           const std::vector<std::string>& headers) const;
    Error refusal(const std::string& what, const std::string& key, const Answer& answer) const;

    S3Location bucket_;
    S3Credentials credentials_;
    long timeoutMs_;
};

}  // namespace svc
