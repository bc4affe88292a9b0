#pragma once
// What the image bot knows about one image URL of one tenant (docs/adr/0038).
#include <cstdint>
#include <string>
#include <vector>

#include "image/DominantColors.hpp"

namespace svc {

enum class ImageFactStatus { Ok, Failed };

struct ImageFacts {
    int64_t tenantId = 0;
    std::string url;
    std::string thumbKey;  // hex SHA-256 of url: names the thumbnail, so a changed URL is a new one
    ImageFactStatus status = ImageFactStatus::Failed;
    std::string reason;  // why it failed ("SSRF: ...", "image: an HTML page", "HTTP 429 ...")
    long httpStatus = 0;
    std::string etag;
    std::string contentSha256;  // of the bytes fetched; also the thumbnail's ETag
    std::string contentType;
    int64_t bytes = 0;
    int width = 0;
    int height = 0;
    std::vector<ColorShare> colors;
    uint64_t phash = 0;
    int attempts = 0;
    int64_t fetchedAt = 0;
    int64_t nextAttemptAt = 0;  // failed: not fetched again before this time

    bool ok() const { return status == ImageFactStatus::Ok; }
};

}  // namespace svc
