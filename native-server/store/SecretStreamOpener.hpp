#pragma once
// Reads what SecretStreamSealer wrote (docs/adr/0090): ciphertext is fed in pieces of any size as
// it arrives (a file read, an object range), plaintext comes out chunk by chunk, each verified
// before it is handed out. A stream that ends before its FINAL chunk is refused as truncated.
#include <string>
#include <string_view>

#include <sodium.h>

#include "core/Result.hpp"
#include "security/ServerKeys.hpp"

namespace svc {

class SecretStreamOpener {
public:
    // `what` names the blob in errors ("stored file", "stored object <key>").
    SecretStreamOpener(const Key256& key, std::string what);
    SecretStreamOpener(const SecretStreamOpener&) = delete;
    SecretStreamOpener& operator=(const SecretStreamOpener&) = delete;
    ~SecretStreamOpener();

    Status feed(std::string_view sealed);
    // The ciphertext has ended: fails unless the FINAL chunk was opened.
    Status end();
    bool finished() const { return finished_; }
    // Verified plaintext; the caller takes it and clears it.
    std::string& opened() { return opened_; }

private:
    Status openChunk(std::string_view chunk);

    Key256 key_;
    std::string what_;
    crypto_secretstream_xchacha20poly1305_state state_{};
    bool started_ = false;
    bool finished_ = false;
    std::string pending_;
    std::string opened_;
};

}  // namespace svc
