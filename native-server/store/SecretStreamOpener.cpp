#include "store/SecretStreamOpener.hpp"

#include "store/SecretStreamSealer.hpp"

namespace svc {

SecretStreamOpener::SecretStreamOpener(const Key256& key, std::string what) : key_(key), what_(std::move(what)) {}

SecretStreamOpener::~SecretStreamOpener() {
    sodium_memzero(key_.data(), key_.size());
    sodium_memzero(&state_, sizeof state_);
}

Status SecretStreamOpener::feed(std::string_view sealed) {
    if (finished_) {
        if (!sealed.empty()) return Error::internal(what_ + " is damaged (data after its end)");
        return Status::success();
    }
    pending_.append(sealed);
    if (!started_) {
        if (pending_.size() < SecretStreamSealer::kHeaderBytes) return Status::success();
        if (crypto_secretstream_xchacha20poly1305_init_pull(&state_, reinterpret_cast<const unsigned char*>(pending_.data()), key_.data()) != 0) {
            return Error::internal(what_ + " is damaged (header)");
        }
        pending_.erase(0, SecretStreamSealer::kHeaderBytes);
        started_ = true;
    }
    size_t at = 0;
    while (!finished_ && pending_.size() - at >= SecretStreamSealer::kSealedChunkSize) {
        if (auto status = openChunk(std::string_view(pending_).substr(at, SecretStreamSealer::kSealedChunkSize)); !status) return status;
        at += SecretStreamSealer::kSealedChunkSize;
    }
    pending_.erase(0, at);
    if (finished_ && !pending_.empty()) return Error::internal(what_ + " is damaged (data after its end)");
    return Status::success();
}

Status SecretStreamOpener::end() {
    if (finished_) return Status::success();
    if (!started_ || pending_.size() < crypto_secretstream_xchacha20poly1305_ABYTES) return Error::internal(what_ + " is truncated");
    if (auto status = openChunk(pending_); !status) return status;
    pending_.clear();
    if (!finished_) return Error::internal(what_ + " is truncated");
    return Status::success();
}

Status SecretStreamOpener::openChunk(std::string_view chunk) {
    size_t at = opened_.size();
    opened_.resize(at + chunk.size());
    unsigned long long plainSize = 0;
    unsigned char tag = 0;
    if (crypto_secretstream_xchacha20poly1305_pull(&state_, reinterpret_cast<unsigned char*>(opened_.data() + at), &plainSize, &tag,
                                                    reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size(), nullptr, 0) != 0) {
        opened_.resize(at);
        return Error::internal(what_ + " failed authentication (altered or wrong key)");
    }
    opened_.resize(at + static_cast<size_t>(plainSize));
    if (tag == crypto_secretstream_xchacha20poly1305_TAG_FINAL) finished_ = true;
    return Status::success();
}

}  // namespace svc
