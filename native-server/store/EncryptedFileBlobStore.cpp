#include "store/EncryptedFileBlobStore.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "store/PrivateFiles.hpp"
#include "store/SecretStreamOpener.hpp"
#include "store/SecretStreamSealer.hpp"

namespace svc {
namespace {

bool writeAll(int fd, const unsigned char* data, size_t size) {
    while (size > 0) {
        ssize_t written = ::write(fd, data, size);
        if (written < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += written;
        size -= static_cast<size_t>(written);
    }
    return true;
}

// Reads exactly `size` bytes unless the file ends; returns the count read or -1.
ssize_t readFully(int fd, unsigned char* data, size_t size) {
    size_t total = 0;
    while (total < size) {
        ssize_t got = ::read(fd, data + total, size - total);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (got == 0) break;
        total += static_cast<size_t>(got);
    }
    return static_cast<ssize_t>(total);
}

class EncryptedFileWriter : public BlobWriter {
public:
    EncryptedFileWriter(int fd, std::string temporaryPath, std::string finalPath, const Key256& key)
        : fd_(fd), temporaryPath_(std::move(temporaryPath)), finalPath_(std::move(finalPath)), sealer_(key) {}
    ~EncryptedFileWriter() override {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(temporaryPath_.c_str());
    }

    Status write(std::string_view bytes) override {
        sealer_.write(bytes);
        if (!drain()) return Error::unavailable("storing the file failed: " + std::string(std::strerror(errno)));
        return Status::success();
    }

    Status commit() override {
        sealer_.finish();
        if (!drain() || ::fsync(fd_) != 0) return Error::unavailable("storing the file failed: " + std::string(std::strerror(errno)));
        ::close(fd_);
        fd_ = -1;
        if (::rename(temporaryPath_.c_str(), finalPath_.c_str()) != 0) {
            return Error::unavailable("storing the file failed: " + std::string(std::strerror(errno)));
        }
        // The rename itself must survive a power loss: sync the directory too.
        int directory = ::open(std::filesystem::path(finalPath_).parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (directory >= 0) {
            ::fsync(directory);
            ::close(directory);
        }
        committed_ = true;
        return Status::success();
    }

private:
    bool drain() {
        std::string& sealed = sealer_.sealed();
        ok_ = ok_ && writeAll(fd_, reinterpret_cast<const unsigned char*>(sealed.data()), sealed.size());
        sealed.clear();
        return ok_;
    }

    int fd_;
    std::string temporaryPath_;
    std::string finalPath_;
    SecretStreamSealer sealer_;
    bool ok_ = true;
    bool committed_ = false;
};

class EncryptedFileReader : public BlobReader {
public:
    EncryptedFileReader(int fd, const Key256& key) : fd_(fd), opener_(key, "stored file") {}
    ~EncryptedFileReader() override { ::close(fd_); }

    Result<size_t> read(char* buffer, size_t capacity) override {
        std::string& plain = opener_.opened();
        while (plainOffset_ == plain.size()) {
            plain.clear();
            plainOffset_ = 0;
            if (opener_.finished()) return size_t{0};
            std::string sealed(SecretStreamSealer::kSealedChunkSize, '\0');
            ssize_t got = readFully(fd_, reinterpret_cast<unsigned char*>(sealed.data()), sealed.size());
            if (got < 0) return Error::unavailable("stored file could not be read: " + std::string(std::strerror(errno)));
            sealed.resize(static_cast<size_t>(got));
            auto status = got == 0 ? opener_.end() : opener_.feed(sealed);
            if (!status) return status.error();
        }
        size_t take = std::min(capacity, plain.size() - plainOffset_);
        std::memcpy(buffer, plain.data() + plainOffset_, take);
        plainOffset_ += take;
        return take;
    }

private:
    int fd_;
    SecretStreamOpener opener_;
    size_t plainOffset_ = 0;
};

}  // namespace

EncryptedFileBlobStore::EncryptedFileBlobStore(std::string directory, const Key256& key)
    : directory_(std::move(directory)), key_(key) {
    (void)PrivateFiles::createDirectories(directory_);
}

Result<std::string> EncryptedFileBlobStore::pathFor(const std::string& key) const {
    bool safe = !key.empty() && key.size() <= 128 && key.front() != '.' &&
                key.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == std::string::npos;
    if (!safe) return Error::invalidArgument("blob key '" + key + "' is not allowed");
    return directory_ + "/" + key;
}

Result<std::unique_ptr<BlobWriter>> EncryptedFileBlobStore::create(const std::string& key) {
    auto path = pathFor(key);
    if (!path) return path.error();
    std::string temporary = *path + ".part";
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return Error::unavailable("cannot store " + key + ": " + std::strerror(errno));
    return std::unique_ptr<BlobWriter>(std::make_unique<EncryptedFileWriter>(fd, temporary, *path, key_));
}

Result<std::unique_ptr<BlobReader>> EncryptedFileBlobStore::open(const std::string& key) {
    auto path = pathFor(key);
    if (!path) return path.error();
    int fd = ::open(path->c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Error::notFound("stored file " + key + " does not exist");
    return std::unique_ptr<BlobReader>(std::make_unique<EncryptedFileReader>(fd, key_));
}

Status EncryptedFileBlobStore::remove(const std::string& key) {
    auto path = pathFor(key);
    if (!path) return path.error();
    if (::unlink(path->c_str()) != 0 && errno != ENOENT) return Error::unavailable("cannot remove " + key);
    return Status::success();
}

}  // namespace svc
