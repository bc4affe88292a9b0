#include "store/ImportLeases.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "store/PrivateFiles.hpp"

namespace svc {

ImportLeases::ImportLeases(std::string directory) : directory_(std::move(directory)) {
    (void)PrivateFiles::createDirectories(directory_);
}

ImportLeases::~ImportLeases() {
    for (const auto& [importId, descriptor] : held_) {
        ::unlink(pathFor(importId).c_str());
        ::close(descriptor);  // also drops the lock
    }
}

std::string ImportLeases::pathFor(int64_t importId) const { return directory_ + "/import-" + std::to_string(importId) + ".lock"; }

void ImportLeases::hold(int64_t importId) {
    std::lock_guard lock(mutex_);
    if (held_.count(importId)) return;
    int descriptor = ::open(pathFor(importId).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (descriptor < 0) return;
    if (::flock(descriptor, LOCK_EX | LOCK_NB) != 0) {
        ::close(descriptor);
        return;
    }
    held_[importId] = descriptor;
}

void ImportLeases::release(int64_t importId) {
    std::lock_guard lock(mutex_);
    auto found = held_.find(importId);
    if (found == held_.end()) return;
    // Unlinked while still locked: whoever opened the old file finds it unlocked once we
    // close, and then the import is no longer running anyway.
    ::unlink(pathFor(importId).c_str());
    ::close(found->second);
    held_.erase(found);
}

bool ImportLeases::held(int64_t importId) {
    std::lock_guard lock(mutex_);
    if (held_.count(importId)) return true;
    int descriptor = ::open(pathFor(importId).c_str(), O_RDWR | O_CLOEXEC);
    if (descriptor < 0) return false;  // no lease file: nobody holds it
    bool locked = ::flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(descriptor);  // drops our probe's lock, if we got it
    return locked;
}

}  // namespace svc
