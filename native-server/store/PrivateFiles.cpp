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

Status PrivateFiles::tighten(const std::string& dataDir) {
    constexpr fs::perms kShared = fs::perms::group_all | fs::perms::others_all;
    std::error_code error;
    fs::permissions(dataDir, kShared, fs::perm_options::remove, error);
    if (error) return Error::unavailable("data dir " + dataDir + ": cannot make it private: " + error.message());
    fs::recursive_directory_iterator entries(dataDir, fs::directory_options::skip_permission_denied, error);
    if (error) return Error::unavailable("data dir " + dataDir + ": " + error.message());
    for (auto end = fs::recursive_directory_iterator(); entries != end; entries.increment(error)) {
        if (error) return Error::unavailable("data dir " + dataDir + ": " + error.message());
        auto status = entries->symlink_status(error);
        if (error || fs::is_symlink(status)) continue;
        if ((status.permissions() & kShared) == fs::perms::none) continue;
        fs::permissions(entries->path(), kShared, fs::perm_options::remove, error);
        if (error) return Error::unavailable(entries->path().string() + ": cannot make it private: " + error.message());
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
