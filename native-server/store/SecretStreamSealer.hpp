#pragma once
// The ciphertext format of every stored blob, wherever it is kept (docs/adr/0090): a libsodium
// XChaCha20-Poly1305 secretstream header, then the plaintext in 64 KiB chunks, each sealed with
// its tag, the last one (shorter, possibly empty) tagged FINAL. A blob cut short, reordered or
// altered fails to open. The sealer buffers plaintext and hands out whole sealed chunks, so a
// caller streams any size through bounded memory.
#include <string>
#include <string_view>

#include <sodium.h>

#include "security/ServerKeys.hpp"

namespace svc {

class SecretStreamSealer {
public:
    static constexpr size_t kChunkSize = 64 * 1024;
    static constexpr size_t kHeaderBytes = crypto_secretstream_xchacha20poly1305_HEADERBYTES;
    static constexpr size_t kSealedChunkSize = kChunkSize + crypto_secretstream_xchacha20poly1305_ABYTES;

    // The header is the first thing in sealed().
    explicit SecretStreamSealer(const Key256& key);
    SecretStreamSealer(const SecretStreamSealer&) = delete;
    SecretStreamSealer& operator=(const SecretStreamSealer&) = delete;
    ~SecretStreamSealer();

    void write(std::string_view plain);
    // Seals what is buffered as the FINAL chunk; nothing may be written after.
    void finish();
    // Ciphertext ready to be stored; the caller takes it and clears it.
    std::string& sealed() { return sealed_; }

private:
    void sealChunk(unsigned char tag);

    crypto_secretstream_xchacha20poly1305_state state_{};
    std::string buffer_;
    std::string sealed_;
};

}  // namespace svc
