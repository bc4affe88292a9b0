#pragma once
// One server per data dir. `serve` holds an exclusive flock on <data-dir>/svc.lock for its
// whole life; a second `serve` on the same data dir (or a `restore` into it) fails at once
// with a message naming the holder's pid. The kernel drops the lock when the process ends,
// however it ends, so a crashed server never leaves a stale lock behind.
#include <string>

#include "core/Result.hpp"

namespace svc {

class DataDirLock {
public:
    // Takes the lock, creating the data dir (0700) and the lock file (0600) if needed.
    static Result<DataDirLock> acquire(const std::string& dataDir);
    // True when a live process holds the lock on `dataDir`.
    static bool isHeld(const std::string& dataDir);

    DataDirLock(DataDirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    DataDirLock& operator=(DataDirLock&&) = delete;
    DataDirLock(const DataDirLock&) = delete;
    ~DataDirLock();

private:
    explicit DataDirLock(int fd) : fd_(fd) {}
    int fd_;
};

}  // namespace svc
