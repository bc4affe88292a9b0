#pragma once
// BlobStore in the data dir: each blob is sealed by SecretStreamSealer (XChaCha20-Poly1305,
// 64 KiB chunks, the last one tagged FINAL), so a changed or truncated file fails to read. Writes go to a temporary file that is fsynced and
// renamed on commit: a blob exists whole or not at all.
#include <string>

#include "security/ServerKeys.hpp"
#include "store/BlobStore.hpp"

namespace svc {

class EncryptedFileBlobStore : public BlobStore {
public:
    EncryptedFileBlobStore(std::string directory, const Key256& key);
    Result<std::unique_ptr<BlobWriter>> create(const std::string& key) override;
    Result<std::unique_ptr<BlobReader>> open(const std::string& key) override;
    Status remove(const std::string& key) override;

private:
    Result<std::string> pathFor(const std::string& key) const;
    std::string directory_;
    Key256 key_;
};

}  // namespace svc
