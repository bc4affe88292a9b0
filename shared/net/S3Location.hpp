#pragma once
// Where an object of an S3-compatible bucket is, as a pull source names it (docs/adr/0034):
//   s3://<bucket>/<key>[?region=<region>][&endpoint=<http(s)://host[:port]>]
// Without an endpoint the object is on AWS (virtual-hosted style, path style for bucket names
// with dots, which a wildcard certificate does not cover); with one (MinIO, Ceph, ...) path style.
// Pure: parsing and the HTTP URL only; the fetcher signs and connects.
#include <string>

#include "core/Result.hpp"

namespace svc {

struct S3Location {
    std::string bucket;
    std::string key;  // decoded
    std::string region = "us-east-1";
    std::string endpoint;  // scheme://host[:port] without a trailing slash; empty: AWS

    // Errors name `field` and say what is wrong.
    static Result<S3Location> parse(const std::string& url, const std::string& field);
    // The object's HTTP(S) URL, the key percent-encoded per path segment.
    std::string httpUrl() const;
    // curl's CURLOPT_AWS_SIGV4 value: "aws:amz:<region>:s3".
    std::string signingScope() const;
};

}  // namespace svc
