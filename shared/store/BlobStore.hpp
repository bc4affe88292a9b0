#pragma once
// Storage for uploaded feed files. The local implementation encrypts them in the
// data dir; an S3-compatible bucket can implement the same interface.
#include <memory>
#include <string>
#include <string_view>

#include "core/Result.hpp"

namespace svc {

class BlobWriter {
public:
    virtual ~BlobWriter() = default;
    virtual Status write(std::string_view bytes) = 0;
    // Makes the blob durable and visible under its key; a writer destroyed without
    // commit leaves nothing behind.
    virtual Status commit() = 0;
};

class BlobReader {
public:
    virtual ~BlobReader() = default;
    // Up to `capacity` bytes into `buffer`; 0 at the end. Fails if the blob was altered or truncated.
    virtual Result<size_t> read(char* buffer, size_t capacity) = 0;
};

class BlobStore {
public:
    virtual ~BlobStore() = default;
    virtual Result<std::unique_ptr<BlobWriter>> create(const std::string& key) = 0;
    virtual Result<std::unique_ptr<BlobReader>> open(const std::string& key) = 0;
    virtual Status remove(const std::string& key) = 0;
};

}  // namespace svc
