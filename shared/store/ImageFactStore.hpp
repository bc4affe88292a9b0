#pragma once
// The image bot's facts (docs/adr/0038): one row per tenant and image URL. The bot's workers
// write while requests read.
//
// Contract (tests/store/ImageFactStoreContractTest.cpp):
// - save inserts or replaces (tenant, url); find/findByThumbKey of an unknown URL or key is nullopt.
// - every field, colours included, reads back as saved (colour shares to three decimals).
// - settledUrls holds the ok URLs and the failed ones whose nextAttemptAt is after `now`.
// - fetched holds only ok facts; nothing of one tenant shows in another's answers.
// - claimFetch: of storages sharing a database, one owner holds (tenant, url) until its claim
//   expires or it releases it; the holder claiming again renews; releaseFetch frees only its own.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "image/ImageFacts.hpp"

namespace svc {

class ImageFactStore {
public:
    virtual ~ImageFactStore() = default;

    virtual Status save(const ImageFacts& facts) = 0;  // insert or replace (tenant, url)
    virtual Result<std::optional<ImageFacts>> find(int64_t tenantId, const std::string& url) = 0;
    virtual Result<std::optional<ImageFacts>> findByThumbKey(int64_t tenantId, const std::string& thumbKey) = 0;
    // URLs that need no fetch at `now`: done, or failed and not yet due again.
    virtual Result<std::set<std::string>> settledUrls(int64_t tenantId, int64_t now) = 0;
    // Every fetched URL's facts that content answers use (thumbnail key, size, pHash).
    virtual Result<std::vector<ImageFacts>> fetched(int64_t tenantId) = 0;
    // Nodes sharing a database fetch each image once (docs/adr/0090): true when the fetch of `url`
    // is now `owner`'s until now + leaseSeconds (it was free, expired, or already the owner's).
    virtual Result<bool> claimFetch(int64_t tenantId, const std::string& url, const std::string& owner, int64_t now, int64_t leaseSeconds) = 0;
    virtual Status releaseFetch(int64_t tenantId, const std::string& url, const std::string& owner) = 0;
};

}  // namespace svc
