#include "store/EncryptedFileBlobStore.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "store/PrivateFiles.hpp"

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
        : fd_(fd), temporaryPath_(std::move(temporaryPath)), finalPath_(std::move(finalPath)) {
        unsigned char header[crypto_secretstream_xchacha20poly1305_HEADERBYTES];
        crypto_secretstream_xchacha20poly1305_init_push(&state_, header, key.data());
        ok_ = writeAll(fd_, header, sizeof header);
        buffer_.reserve(EncryptedFileBlobStore::kChunkSize);
    }
    ~EncryptedFileWriter() override {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(temporaryPath_.c_str());
    }

    Status write(std::string_view bytes) override {
        while (!bytes.empty()) {
            size_t take = std::min(bytes.size(), EncryptedFileBlobStore::kChunkSize - buffer_.size());
            buffer_.insert(buffer_.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(take));
            bytes.remove_prefix(take);
            if (buffer_.size() == EncryptedFileBlobStore::kChunkSize && !flushChunk(0)) break;
        }
        if (!ok_) return Error::unavailable("storing the file failed: " + std::string(std::strerror(errno)));
        return Status::success();
    }

    Status commit() override {
        if (ok_) flushChunk(crypto_secretstream_xchacha20poly1305_TAG_FINAL);
        if (!ok_ || ::fsync(fd_) != 0) return Error::unavailable("storing the file failed: " + std::string(std::strerror(errno)));
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
    bool flushChunk(unsigned char tag) {
        std::vector<unsigned char> cipher(buffer_.size() + crypto_secretstream_xchacha20poly1305_ABYTES);
        unsigned long long cipherSize = 0;
        crypto_secretstream_xchacha20poly1305_push(&state_, cipher.data(), &cipherSize, buffer_.data(), buffer_.size(),
                                                   nullptr, 0, tag);
        ok_ = ok_ && writeAll(fd_, cipher.data(), static_cast<size_t>(cipherSize));
        buffer_.clear();
        return ok_;
    }

    int fd_;
    std::string temporaryPath_;
    std::string finalPath_;
    crypto_secretstream_xchacha20poly1305_state state_{};
    std::vector<unsigned char> buffer_;
    bool ok_ = true;
    bool committed_ = false;
};

class EncryptedFileReader : public BlobReader {
public:
    EncryptedFileReader(int fd, const Key256& key) : fd_(fd) {
        unsigned char header[crypto_secretstream_xchacha20poly1305_HEADERBYTES];
        ok_ = readFully(fd_, header, sizeof header) == static_cast<ssize_t>(sizeof header) &&
              crypto_secretstream_xchacha20poly1305_init_pull(&state_, header, key.data()) == 0;
    }
    ~EncryptedFileReader() override { ::close(fd_); }

    Result<size_t> read(char* buffer, size_t capacity) override {
        while (plainOffset_ == plain_.size()) {
            if (finished_) return size_t{0};
            if (auto status = nextChunk(); !status) return status.error();
        }
        size_t take = std::min(capacity, plain_.size() - plainOffset_);
        std::memcpy(buffer, plain_.data() + plainOffset_, take);
        plainOffset_ += take;
        return take;
    }

private:
    Status nextChunk() {
        if (!ok_) return Error::internal("stored file is damaged (header)");
        std::vector<unsigned char> cipher(EncryptedFileBlobStore::kChunkSize + crypto_secretstream_xchacha20poly1305_ABYTES);
        ssize_t got = readFully(fd_, cipher.data(), cipher.size());
        if (got <= 0) return Error::internal("stored file is truncated");
        plain_.resize(static_cast<size_t>(got));
        unsigned long long plainSize = 0;
        unsigned char tag = 0;
        if (crypto_secretstream_xchacha20poly1305_pull(&state_, plain_.data(), &plainSize, &tag, cipher.data(),
                                                        static_cast<unsigned long long>(got), nullptr, 0) != 0) {
            return Error::internal("stored file failed authentication (altered or wrong key)");
        }
        plain_.resize(static_cast<size_t>(plainSize));
        plainOffset_ = 0;
        if (tag == crypto_secretstream_xchacha20poly1305_TAG_FINAL) finished_ = true;
        else if (static_cast<size_t>(got) < cipher.size()) return Error::internal("stored file is truncated");
        return Status::success();
    }

    int fd_;
    crypto_secretstream_xchacha20poly1305_state state_{};
    std::vector<unsigned char> plain_;
    size_t plainOffset_ = 0;
    bool ok_ = false;
    bool finished_ = false;
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
