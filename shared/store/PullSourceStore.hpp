#pragma once
// The pull sources of every tenant (docs/adr/0026): one per tenant and feed. Claiming a due
// source moves its next run forward atomically, so two processes (or two nodes) never pull it
// twice.
//
// Contract (tests/store/PullSourceStoreContractTest.cpp):
// - add: AlreadyExists naming the feed when the tenant's feed has a source; another tenant's
//   feed of the same name is a different source. The returned source carries its new id.
// - list(tenant) is ordered by feed name and holds only that tenant's sources; listAll by id.
// - find/remove of an unknown feed: nullopt / false; change of an unknown one: NotFound.
// - claimDue returns the source due longest (next_run_at, then id) and moves its next run to
//   now + lease; a second claim at the same time does not return it again.
// - URLs, feeds and sealed credentials are stored byte for byte.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "feed/PullSource.hpp"

namespace svc {

class PullSourceStore {
public:
    virtual ~PullSourceStore() = default;

    // AlreadyExists (naming the feed) when the tenant's feed has a source already.
    virtual Result<PullSource> add(const PullSource& source) = 0;
    virtual Result<std::vector<PullSource>> list(int64_t tenantId) = 0;
    // Every tenant's sources (the sealing of URL queries stored by an older svc).
    virtual Result<std::vector<PullSource>> listAll() = 0;
    virtual Result<std::optional<PullSource>> find(int64_t tenantId, const std::string& feed) = 0;
    virtual Result<bool> remove(int64_t tenantId, const std::string& feed) = 0;
    // Changes what the operator set (URL, interval, kind of feed, columns, credentials) and when
    // it runs next; the validators are dropped when the URL changes. NotFound without the source.
    virtual Status change(const PullSource& source) = 0;
    // The source due longest (next_run_at <= now), its next run moved to now + `lease` so no other
    // claim takes it while it runs; nullopt when none is due.
    virtual Result<std::optional<PullSource>> claimDue(int64_t now, int64_t lease) = 0;
    // After a run: when to run next, what happened, and the validators of the imported file.
    virtual Status finish(const PullSource& source) = 0;
};

}  // namespace svc
