#include "security/ServerKeys.hpp"

#include <sodium.h>

#include "security/KeyFile.hpp"

namespace svc {

Result<ServerKeys> ServerKeys::loadOrCreate(const std::string& dataDir) {
    auto loaded = KeyFile::loadOrCreate(dataDir, "master.key");
    if (!loaded) return loaded.error();
    Key256 master = *loaded;
    ServerKeys keys;
    crypto_kdf_derive_from_key(keys.uploadSigning_.data(), keys.uploadSigning_.size(), 1, "svcsign1", master.data());
    crypto_kdf_derive_from_key(keys.fileEncryption_.data(), keys.fileEncryption_.size(), 2, "svcfile1", master.data());
    crypto_kdf_derive_from_key(keys.cursorSigning_.data(), keys.cursorSigning_.size(), 3, "svccurs1", master.data());
    sodium_memzero(master.data(), master.size());
    return keys;
}

}  // namespace svc
