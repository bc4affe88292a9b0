#pragma once
// Tenants by API ID, kept for a short time. Every widget, GraphQL and event request looks
// its tenant up, and tenants change rarely: a lookup through SQLite (statement, step, the
// store's mutex) was a fifth of a GraphQL request. The store clears the cache on its own
// writes; a change made by another process (the CLI) shows after at most `ttl`.
#include <chrono>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "tenant/Tenant.hpp"

namespace svc {

class TenantCache {
public:
    TenantCache(std::chrono::milliseconds ttl, size_t capacity) : ttl_(ttl), capacity_(capacity) {}

    std::optional<Tenant> find(const std::string& apiId) const;
    // Read before looking a tenant up in the store, and handed to put(): a row read before a
    // write but put after the write's clear() would otherwise stay for a whole `ttl`.
    uint64_t generation() const;
    // Only tenants that exist are kept: unknown API IDs would let anyone fill the cache.
    void put(const Tenant& tenant, uint64_t readAtGeneration);
    // After every write to tenants.
    void clear();

private:
    struct Entry {
        Tenant tenant;
        std::chrono::steady_clock::time_point expires;
    };
    std::chrono::milliseconds ttl_;
    size_t capacity_;
    uint64_t generation_ = 0;
    mutable std::shared_mutex mutex_;
    std::unordered_map<std::string, Entry> entries_;
};

}  // namespace svc
