#pragma once
// PullSourceStore on PostgreSQL (docs/adr/0086). claimDue is one UPDATE of the row picked with
// FOR UPDATE SKIP LOCKED: nodes claiming at once each get a different due source, none waits.
#include "store/PgDatabase.hpp"
#include "store/PullSourceStore.hpp"

namespace svc {

class PgPullSourceStore : public PullSourceStore {
public:
    explicit PgPullSourceStore(PgDatabase& database) : database_(database) {}

    Result<PullSource> add(const PullSource& source) override;
    Result<std::vector<PullSource>> list(int64_t tenantId) override;
    Result<std::vector<PullSource>> listAll() override;
    Result<std::optional<PullSource>> find(int64_t tenantId, const std::string& feed) override;
    Result<bool> remove(int64_t tenantId, const std::string& feed) override;
    Status change(const PullSource& source) override;
    Result<std::optional<PullSource>> claimDue(int64_t now, int64_t lease) override;
    Status finish(const PullSource& source) override;

private:
    Result<std::vector<PullSource>> select(const char* purpose, const char* sql, std::initializer_list<PgParam> params);

    PgDatabase& database_;
};

}  // namespace svc
