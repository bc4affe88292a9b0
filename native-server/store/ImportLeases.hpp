#pragma once
// Which running imports still have a live owner. The process that runs an import holds an
// exclusive flock on <data-dir>/locks/import-<id>.lock until the import ends; the kernel
// drops the lock when that process dies, even by SIGKILL. So a server starting while a CLI
// import runs in another process leaves that import alone, and reclaims only imports whose
// owner is gone (docs/adr/0011).
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace svc {

class ImportLeases {
public:
    explicit ImportLeases(std::string directory);
    ~ImportLeases();
    ImportLeases(const ImportLeases&) = delete;
    ImportLeases& operator=(const ImportLeases&) = delete;

    // Held from here until release(); best effort (an import without a lease file counts as ownerless).
    void hold(int64_t importId);
    void release(int64_t importId);
    // True while this or another process holds the import's lease.
    bool held(int64_t importId);

private:
    std::string pathFor(int64_t importId) const;

    std::string directory_;
    std::mutex mutex_;
    std::map<int64_t, int> held_;  // import id -> the locked file's descriptor
};

}  // namespace svc
