#include "net/S3Signature.hpp"

#include <sodium.h>

namespace svc {

std::string S3Signature::payloadHash(std::string_view payload) {
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(payload.data()), payload.size());
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned char byte : digest) {
        out.push_back(hex[byte >> 4]);
        out.push_back(hex[byte & 15]);
    }
    return out;
}

void S3Signature::apply(CURL* handle, const std::string& scope, const std::string& accessKeyId, const std::string& secretAccessKey,
                        std::string_view payloadSha256, curl_slist*& headers) {
    curl_easy_setopt(handle, CURLOPT_AWS_SIGV4, scope.c_str());
    curl_easy_setopt(handle, CURLOPT_USERNAME, accessKeyId.c_str());
    curl_easy_setopt(handle, CURLOPT_PASSWORD, secretAccessKey.c_str());
    // libcurl signs the hash given here instead of hashing a body it may not hold whole.
    headers = curl_slist_append(headers, ("x-amz-content-sha256: " + std::string(payloadSha256)).c_str());
}

}  // namespace svc
