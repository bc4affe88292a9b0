#pragma once
// ImageFactStore on PostgreSQL (docs/adr/0088): rows keyed by (tenant, SHA-256 of the URL), so
// an image URL of any length is a key; the URL itself is compared too, so two URLs never share
// facts. Fetch claims are leases named image-fetch/<tenant>/<SHA-256 of the URL>.
#include "store/ImageFactStore.hpp"
#include "store/LeaseStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgImageFactStore : public ImageFactStore {
public:
    // `leases`: where fetch claims are held.
    PgImageFactStore(PgDatabase& database, LeaseStore& leases) : database_(database), leases_(leases) {}

    Status save(const ImageFacts& facts) override;
    Result<std::optional<ImageFacts>> find(int64_t tenantId, const std::string& url) override;
    Result<std::optional<ImageFacts>> findByThumbKey(int64_t tenantId, const std::string& thumbKey) override;
    Result<std::set<std::string>> settledUrls(int64_t tenantId, int64_t now) override;
    Result<std::vector<ImageFacts>> fetched(int64_t tenantId) override;
    Result<bool> claimFetch(int64_t tenantId, const std::string& url, const std::string& owner, int64_t now, int64_t leaseSeconds) override;
    Status releaseFetch(int64_t tenantId, const std::string& url, const std::string& owner) override;

private:
    Result<std::optional<ImageFacts>> findOne(const char* purpose, const char* sql, int64_t tenantId, const std::string& value);

    PgDatabase& database_;
    LeaseStore& leases_;
};

}  // namespace svc
