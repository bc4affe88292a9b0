#include "store/SecretStreamSealer.hpp"

namespace svc {

SecretStreamSealer::SecretStreamSealer(const Key256& key) {
    sealed_.resize(kHeaderBytes);
    crypto_secretstream_xchacha20poly1305_init_push(&state_, reinterpret_cast<unsigned char*>(sealed_.data()), key.data());
    buffer_.reserve(kChunkSize);
}

SecretStreamSealer::~SecretStreamSealer() {
    sodium_memzero(&state_, sizeof state_);
    if (!buffer_.empty()) sodium_memzero(buffer_.data(), buffer_.size());
}

void SecretStreamSealer::write(std::string_view plain) {
    while (!plain.empty()) {
        size_t take = std::min(plain.size(), kChunkSize - buffer_.size());
        buffer_.append(plain.substr(0, take));
        plain.remove_prefix(take);
        if (buffer_.size() == kChunkSize) sealChunk(0);
    }
}

void SecretStreamSealer::finish() { sealChunk(crypto_secretstream_xchacha20poly1305_TAG_FINAL); }

void SecretStreamSealer::sealChunk(unsigned char tag) {
    size_t at = sealed_.size();
    sealed_.resize(at + buffer_.size() + crypto_secretstream_xchacha20poly1305_ABYTES);
    unsigned long long sealedSize = 0;
    crypto_secretstream_xchacha20poly1305_push(&state_, reinterpret_cast<unsigned char*>(sealed_.data() + at), &sealedSize,
                                               reinterpret_cast<const unsigned char*>(buffer_.data()), buffer_.size(), nullptr, 0, tag);
    sealed_.resize(at + static_cast<size_t>(sealedSize));
    buffer_.clear();
}

}  // namespace svc
