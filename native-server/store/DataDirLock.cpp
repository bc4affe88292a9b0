#include "store/DataDirLock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "store/PrivateFiles.hpp"

namespace svc {
namespace {

std::string lockPath(const std::string& dataDir) { return (std::filesystem::path(dataDir) / "svc.lock").string(); }

}  // namespace

Result<DataDirLock> DataDirLock::acquire(const std::string& dataDir) {
    std::error_code error = PrivateFiles::createDirectories(dataDir);  // 0700 (docs/adr/0061)
    if (error) return Error::unavailable("data dir " + dataDir + ": " + error.message());
    std::string path = lockPath(dataDir);
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return Error::unavailable(path + ": " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        std::string holder;
        std::ifstream(path) >> holder;
        ::close(fd);
        return Error::unavailable("data dir " + dataDir + " is in use by another svc-server (pid " + (holder.empty() ? "unknown" : holder) +
                                  "); one server per data dir");
    }
    // The holder's pid, for the message above; the lock itself is the flock, not the content.
    std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
        // The pid is only informative; the lock holds regardless.
    }
    return DataDirLock(fd);
}

bool DataDirLock::isHeld(const std::string& dataDir) {
    int fd = ::open(lockPath(dataDir).c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return false;
    bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);  // releases the lock if this call took it
    return held;
}

DataDirLock::~DataDirLock() {
    if (fd_ >= 0) ::close(fd_);
}

}  // namespace svc
