#pragma once
// Which running imports still have a live owner: the process that runs an import holds the
// lease "import/<id>" (LeaseStore) until the import ends, renewing it while it runs. A server
// starting while a CLI import runs in another process leaves that import alone, and reclaims
// only imports whose owner is gone: its lease expired, or its process on this host has died
// (docs/adr/0011, docs/adr/0078).
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "core/Clock.hpp"
#include "store/LeaseStore.hpp"

namespace svc {

class ImportLeases {
public:
    // A lease outlives its last renewal by this long: the most a dead owner on another host delays a reclaim.
    static constexpr int64_t kTtlSeconds = 60;

    ImportLeases(LeaseStore& leases, const Clock& clock);
    ~ImportLeases();  // releases what this process still holds
    ImportLeases(const ImportLeases&) = delete;
    ImportLeases& operator=(const ImportLeases&) = delete;

    // What a store writes into `leases` in the same transaction that makes an import running (a
    // claim, or a record created running), so no instant exists in which another node's requeue
    // sees the import running and ownerless (docs/adr/0091): the name is `prefix` + the import's id.
    struct Row {
        std::string prefix;
        std::string owner;
        int64_t expiresAt = 0;
    };
    Row rowForNewImport() const;
    // The store wrote the row for `importId`: this process holds it from here until release().
    void adopt(int64_t importId);
    // Held from here until release(); best effort (an import without a lease counts as ownerless).
    void hold(int64_t importId);
    void release(int64_t importId);
    // True while this or another live owner holds the import's lease.
    bool held(int64_t importId);

private:
    static constexpr const char* kNamePrefix = "import/";
    static std::string nameOf(int64_t importId) { return kNamePrefix + std::to_string(importId); }
    void renewLoop();

    LeaseStore& leases_;
    const Clock& clock_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::set<int64_t> held_;
    std::thread renewer_;  // started with the first lease held
};

}  // namespace svc
