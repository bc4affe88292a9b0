#pragma once
// Automatic persisted queries (Apollo's protocol, docs/adr/0084): the documents clients
// registered by their SHA-256, one bounded partition per tenant, so that one tenant's clients
// (or someone holding its public API ID) cannot push another tenant's documents out.
// Least recently used out first, by count and by bytes; thread-safe.
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace svc::graphql {

struct PersistedQueryLimits {
    size_t documentsPerTenant = 1000;
    size_t bytesPerTenant = size_t{4} << 20;  // a document is at most maxDocumentBytes (32 KiB)
};

class PersistedQueryCache {
public:
    explicit PersistedQueryCache(PersistedQueryLimits limits = {}) : limits_(limits) {}

    // `tenant` 0: requests without a valid API ID (introspection).
    std::optional<std::string> find(int64_t tenant, const std::string& hash);
    void remember(int64_t tenant, const std::string& hash, const std::string& document);

    size_t documents(int64_t tenant) const;
    size_t bytes(int64_t tenant) const;

private:
    using Order = std::list<std::string>;  // hashes, most recently used first
    struct Entry {
        std::string document;
        Order::iterator position;
    };
    struct Partition {
        Order order;
        std::unordered_map<std::string, Entry> entries;
        size_t bytes = 0;
    };

    PersistedQueryLimits limits_;
    mutable std::mutex mutex_;
    std::map<int64_t, Partition> partitions_;
};

}  // namespace svc::graphql
