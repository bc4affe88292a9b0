#include "security/KeyFile.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "store/PrivateFiles.hpp"

namespace svc {
namespace {

Status readKey(const std::string& path, Key256& key) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Error::unavailable("key file " + path + ": " + std::strerror(errno));
    ssize_t got = ::read(fd, key.data(), key.size());
    ::close(fd);
    if (got != static_cast<ssize_t>(key.size())) return Error::unavailable("key file " + path + ": not a 32-byte key");
    return Status::success();
}

Status createKey(const std::string& path, Key256& key) {
    randombytes_buf(key.data(), key.size());
    // Per process: two processes creating at once never share (or delete) each other's temporary file.
    std::string temporary = path + "." + std::to_string(::getpid()) + ".tmp";
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return Error::unavailable("key file " + temporary + ": " + std::strerror(errno));
    bool written = ::write(fd, key.data(), key.size()) == static_cast<ssize_t>(key.size()) && ::fsync(fd) == 0;
    ::close(fd);
    // link() fails if another process created the key meanwhile; then that key wins.
    if (!written || ::link(temporary.c_str(), path.c_str()) != 0) {
        int linkError = errno;
        ::unlink(temporary.c_str());
        if (written && linkError == EEXIST) return readKey(path, key);
        return Error::unavailable("key file " + path + ": cannot be created");
    }
    ::unlink(temporary.c_str());
    return Status::success();
}

}  // namespace

Result<Key256> KeyFile::loadOrCreate(const std::string& dataDir, const std::string& name) {
    if (sodium_init() < 0) return Error::internal("libsodium could not be initialised");
    std::filesystem::path directory = std::filesystem::path(dataDir) / "keys";
    if (auto error = PrivateFiles::createDirectories(directory.string())) {
        return Error::unavailable("key directory " + directory.string() + ": " + error.message());
    }
    ::chmod(directory.c_str(), 0700);  // also when an older svc made it
    std::string path = (directory / name).string();
    Key256 key{};
    Status status = std::filesystem::exists(path) ? readKey(path, key) : createKey(path, key);
    if (!status) return status.error();
    return key;
}

}  // namespace svc
