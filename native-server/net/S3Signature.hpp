#pragma once
// How svc signs a request to an S3-compatible bucket (docs/adr/0034, 0090): AWS Signature V4
// computed by libcurl (CURLOPT_AWS_SIGV4) for the scope "aws:amz:<region>:s3", with the payload's
// SHA-256 sent and signed as x-amz-content-sha256, as S3 requires. Shared by the pull fetcher
// (GETs of feed objects) and S3Client (the blob store's reads, writes and multipart uploads).
#include <curl/curl.h>

#include <string>
#include <string_view>

namespace svc {

class S3Signature {
public:
    // Lowercase hex SHA-256, the form x-amz-content-sha256 takes.
    static std::string payloadHash(std::string_view payload);
    // Signs `handle`'s request with the key pair; appends the payload hash header to `headers`
    // (which the caller passes to CURLOPT_HTTPHEADER afterwards and frees).
    static void apply(CURL* handle, const std::string& scope, const std::string& accessKeyId, const std::string& secretAccessKey,
                      std::string_view payloadSha256, curl_slist*& headers);
};

}  // namespace svc
