#include "store/PrivateFiles.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace svc {

namespace fs = std::filesystem;

std::error_code PrivateFiles::createDirectories(const std::string& directory) {
    std::error_code error;
    std::vector<fs::path> missing;
    for (fs::path path = fs::path(directory).lexically_normal(); !path.empty() && !fs::exists(path, error);
         path = path.parent_path()) {
        missing.push_back(path);
        if (path == path.parent_path()) break;
    }
    error.clear();
    fs::create_directories(directory, error);
    if (error) return error;
    // mkdir's mode is masked by the umask; chmod is not.
    for (const auto& path : missing) ::chmod(path.c_str(), 0700);
    return {};
}

namespace {

// What svc keeps in a data dir. Only these are tightened: a data dir pointed at a directory that
// also holds other things (a home directory, say) must not have those changed.
bool svcEntry(const std::string& name) {
    static const char* const kDirectories[] = {"catalog", "keys", "uploads", "pulls", "thumbs", "set-photos", "locks", "demo"};
    for (const char* directory : kDirectories) {
        if (name == directory) return true;
    }
    return name == "svc.lock" || name.rfind("svc.sqlite3", 0) == 0 || name.rfind("events.sqlite3", 0) == 0;
}

constexpr fs::perms kShared = fs::perms::group_all | fs::perms::others_all;

Status makePrivate(const fs::path& path, const fs::file_status& status) {
    if (fs::is_symlink(status) || (status.permissions() & kShared) == fs::perms::none) return Status::success();
    std::error_code error;
    fs::permissions(path, kShared, fs::perm_options::remove, error);
    if (error) return Error::unavailable(path.string() + ": cannot make it private: " + error.message());
    return Status::success();
}

}  // namespace

Status PrivateFiles::tighten(const std::string& dataDir) {
    std::error_code error;
    if (auto status = makePrivate(dataDir, fs::symlink_status(dataDir, error)); !status) return status;
    fs::directory_iterator top(dataDir, error);
    if (error) return Error::unavailable("data dir " + dataDir + ": " + error.message());
    for (const auto& entry : top) {
        if (!svcEntry(entry.path().filename().string())) continue;
        auto status = entry.symlink_status(error);
        if (error) continue;
        if (auto changed = makePrivate(entry.path(), status); !changed) return changed;
        if (!fs::is_directory(status)) continue;
        fs::recursive_directory_iterator below(entry.path(), fs::directory_options::skip_permission_denied, error);
        for (auto end = fs::recursive_directory_iterator(); !error && below != end; below.increment(error)) {
            auto inner = below->symlink_status(error);
            if (error) break;
            if (auto changed = makePrivate(below->path(), inner); !changed) return changed;
        }
        if (error) return Error::unavailable(entry.path().string() + ": " + error.message());
    }
    return Status::success();
}

Status PrivateFiles::createFile(const std::string& path) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::close(fd);
        return Status::success();
    }
    if (errno == EEXIST) return Status::success();
    return Error::unavailable(path + ": cannot be created: " + std::strerror(errno));
}

std::ofstream PrivateFiles::openForWriting(const std::string& path) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::fchmod(fd, 0600);  // a leftover from an older svc keeps its mode otherwise
        ::close(fd);
    }
    return std::ofstream(path, std::ios::binary | std::ios::trunc);
}

}  // namespace svc
