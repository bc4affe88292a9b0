#pragma once
// The blob stores of one svc process (docs/adr/0090): everything a second node would need that
// is not in the database. Without `serve --blob-url` they are the data dir's, as always; with it,
// objects under the URL's prefix in an S3-compatible bucket that every node shares:
//   <prefix>/uploads/<key>      feed uploads, pulled bodies and held imports (FeedImportService)
//   <prefix>/set-photos/<key>   the operator's set photos (SetPhotoStore)
//   <prefix>/thumbs/<key>       the image bot's thumbnails
// Every object is sealed with the file encryption key, so the nodes share that key too.
#include <memory>
#include <optional>
#include <string>

#include "net/S3Client.hpp"
#include "security/ServerKeys.hpp"
#include "store/BlobStore.hpp"
#include "store/S3BlobStore.hpp"

namespace svc {

struct S3BlobBucket {
    S3Location location;  // its key is the prefix
    S3Credentials credentials;
    S3BlobOptions options;
};

class BlobStores {
public:
    // `--blob-url s3://bucket/prefix?region=...&endpoint=...` with its credentials; errors name the
    // option and never repeat the secret. A credential not given: AWS_ACCESS_KEY_ID or AWS_SECRET_ACCESS_KEY.
    static Result<S3BlobBucket> parseUrl(const std::string& url, S3Credentials credentials);

    BlobStores(const std::string& dataDir, const std::optional<S3BlobBucket>& bucket, const Key256& key);

    BlobStore& uploads() { return *uploads_; }
    // Null without a bucket: SetPhotoStore keeps its plain JPEG files in the data dir.
    BlobStore* setPhotos() { return setPhotos_.get(); }
    // Null without a bucket: the image bot keeps its thumbnails in the data dir.
    BlobStore* thumbnails() { return thumbnails_.get(); }

private:
    std::unique_ptr<BlobStore> uploads_;
    std::unique_ptr<BlobStore> setPhotos_;
    std::unique_ptr<BlobStore> thumbnails_;
};

}  // namespace svc
