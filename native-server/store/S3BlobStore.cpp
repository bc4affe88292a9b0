#include "store/S3BlobStore.hpp"

#include <cstring>
#include <vector>

#include "store/SecretStreamOpener.hpp"
#include "store/SecretStreamSealer.hpp"

namespace svc {
namespace {

class S3BlobWriter : public BlobWriter {
public:
    S3BlobWriter(const S3Client& client, std::string object, const Key256& key, size_t partBytes)
        : client_(client), object_(std::move(object)), sealer_(key), partBytes_(partBytes) {}
    ~S3BlobWriter() override {
        if (!committed_ && !uploadId_.empty()) (void)client_.abortMultipart(object_, uploadId_);
    }

    Status write(std::string_view bytes) override {
        if (failed_) return Error::unavailable("blob store: " + object_ + " failed earlier");
        sealer_.write(bytes);
        if (sealer_.sealed().size() >= partBytes_) return sendPart();
        return Status::success();
    }

    Status commit() override {
        if (failed_) return Error::unavailable("blob store: " + object_ + " failed earlier");
        sealer_.finish();
        std::string& sealed = sealer_.sealed();
        if (uploadId_.empty()) {
            if (auto put = client_.put(object_, sealed); !put) return fail(put.error());
        } else {
            if (auto sent = sendPart(); !sent) return sent;
            if (auto done = client_.completeMultipart(object_, uploadId_, etags_); !done) return fail(done.error());
        }
        committed_ = true;
        return Status::success();
    }

private:
    Status sendPart() {
        if (uploadId_.empty()) {
            auto started = client_.startMultipart(object_);
            if (!started) return fail(started.error());
            uploadId_ = *started;
        }
        auto etag = client_.uploadPart(object_, uploadId_, static_cast<int>(etags_.size()) + 1, sealer_.sealed());
        if (!etag) return fail(etag.error());
        etags_.push_back(*etag);
        sealer_.sealed().clear();
        return Status::success();
    }

    Error fail(Error error) {
        failed_ = true;
        return error;
    }

    const S3Client& client_;
    std::string object_;
    SecretStreamSealer sealer_;
    size_t partBytes_;
    std::string uploadId_;
    std::vector<std::string> etags_;
    bool failed_ = false;
    bool committed_ = false;
};

class S3BlobReader : public BlobReader {
public:
    S3BlobReader(const S3Client& client, std::string object, const Key256& key, size_t readBytes)
        : client_(client), object_(std::move(object)), opener_(key, "stored object " + object_),
          // Whole sealed chunks after the header, so each range opens without leftovers.
          rangeBytes_(std::max<size_t>(1, readBytes / SecretStreamSealer::kSealedChunkSize) * SecretStreamSealer::kSealedChunkSize) {}

    // The first range: fetched when the reader opens, so a missing object is NotFound at once.
    Status start() { return fetch(SecretStreamSealer::kHeaderBytes + rangeBytes_); }

    Result<size_t> read(char* buffer, size_t capacity) override {
        std::string& plain = opener_.opened();
        while (plainOffset_ == plain.size()) {
            plain.clear();
            plainOffset_ = 0;
            if (opener_.finished()) return size_t{0};
            if (auto fetched = fetch(rangeBytes_); !fetched) return fetched.error();
        }
        size_t take = std::min(capacity, plain.size() - plainOffset_);
        std::memcpy(buffer, plain.data() + plainOffset_, take);
        plainOffset_ += take;
        return take;
    }

private:
    Status fetch(size_t length) {
        if (ended_) return opener_.end();
        auto range = client_.getRange(object_, offset_, static_cast<int64_t>(length));
        if (!range) return range.error();
        offset_ += static_cast<int64_t>(range->size());
        if (auto fed = opener_.feed(*range); !fed) return fed;
        if (range->size() < length) {
            ended_ = true;
            return opener_.end();
        }
        return Status::success();
    }

    const S3Client& client_;
    std::string object_;
    SecretStreamOpener opener_;
    size_t rangeBytes_;
    int64_t offset_ = 0;
    bool ended_ = false;
    size_t plainOffset_ = 0;
};

}  // namespace

S3BlobStore::S3BlobStore(const S3Location& location, S3Credentials credentials, const Key256& key, S3BlobOptions options)
    : client_(location, std::move(credentials)), prefix_(location.key), key_(key), options_(options) {
    while (!prefix_.empty() && prefix_.back() == '/') prefix_.pop_back();
}

Result<std::string> S3BlobStore::objectOf(const std::string& key) const {
    // The keys EncryptedFileBlobStore allows, so a blob named on one backend can be named on the other.
    bool safe = !key.empty() && key.size() <= 128 && key.front() != '.' &&
                key.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == std::string::npos;
    if (!safe) return Error::invalidArgument("blob key '" + key + "' is not allowed");
    return prefix_.empty() ? key : prefix_ + "/" + key;
}

Result<std::unique_ptr<BlobWriter>> S3BlobStore::create(const std::string& key) {
    auto object = objectOf(key);
    if (!object) return object.error();
    return std::unique_ptr<BlobWriter>(std::make_unique<S3BlobWriter>(client_, *object, key_, options_.partBytes));
}

Result<std::unique_ptr<BlobReader>> S3BlobStore::open(const std::string& key) {
    auto object = objectOf(key);
    if (!object) return object.error();
    auto reader = std::make_unique<S3BlobReader>(client_, *object, key_, options_.readBytes);
    if (auto started = reader->start(); !started) {
        if (started.error().code == ErrorCode::NotFound) return Error::notFound("stored file " + key + " does not exist");
        return started.error();
    }
    return std::unique_ptr<BlobReader>(std::move(reader));
}

Status S3BlobStore::remove(const std::string& key) {
    auto object = objectOf(key);
    if (!object) return object.error();
    return client_.remove(*object);
}

}  // namespace svc
