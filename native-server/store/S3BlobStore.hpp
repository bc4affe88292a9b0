#pragma once
// BlobStore in an S3-compatible bucket (docs/adr/0090), for nodes that share no disk. The objects
// hold the same SecretStreamSealer ciphertext as EncryptedFileBlobStore's files: sealed here
// before upload, opened and verified here on read, so the bucket never sees plaintext and a changed
// object is refused. Objects are named <prefix>/<key>.
// - Writes stream: ciphertext collects up to partBytes, then goes up as a multipart upload part;
//   a blob smaller than one part is a single PUT at commit. Nothing is visible before commit, and
//   a writer dropped without commit aborts its upload.
// - Reads fetch ranges of readBytes (whole sealed chunks), so memory stays bounded too.
#include <string>

#include "net/S3Client.hpp"
#include "security/ServerKeys.hpp"
#include "store/BlobStore.hpp"

namespace svc {

struct S3BlobOptions {
    size_t partBytes = size_t{8} << 20;  // S3's minimum for all but the last part is 5 MiB
    size_t readBytes = size_t{1} << 20;
};

class S3BlobStore : public BlobStore {
public:
    // `location`: the bucket, its region and endpoint, and in its key the prefix of every object.
    S3BlobStore(const S3Location& location, S3Credentials credentials, const Key256& key, S3BlobOptions options = {});
    Result<std::unique_ptr<BlobWriter>> create(const std::string& key) override;
    Result<std::unique_ptr<BlobReader>> open(const std::string& key) override;
    Status remove(const std::string& key) override;

private:
    Result<std::string> objectOf(const std::string& key) const;

    S3Client client_;
    std::string prefix_;
    Key256 key_;
    S3BlobOptions options_;
};

}  // namespace svc
