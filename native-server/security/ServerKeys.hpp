#pragma once
// The server's secret key material. A 256-bit master key lives in
// <data-dir>/keys/master.key (created on first start, mode 0600, never in the repo);
// purpose-specific keys are derived from it, so one leaked derived key reveals no other.
#include <array>
#include <string>

#include "core/Result.hpp"
#include "security/KeyFile.hpp"

namespace svc {

class ServerKeys {
public:
    static Result<ServerKeys> loadOrCreate(const std::string& dataDir);
    const Key256& uploadSigningKey() const { return uploadSigning_; }
    const Key256& fileEncryptionKey() const { return fileEncryption_; }
    const Key256& cursorSigningKey() const { return cursorSigning_; }

private:
    Key256 uploadSigning_{};
    Key256 fileEncryption_{};
    Key256 cursorSigning_{};
};

}  // namespace svc
