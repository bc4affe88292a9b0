#include "store/BlobStores.hpp"

#include <cstdlib>

#include "store/EncryptedFileBlobStore.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

S3Location under(S3Location location, const std::string& folder) {
    while (!location.key.empty() && location.key.back() == '/') location.key.pop_back();
    location.key += "/" + folder;
    return location;
}

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

}  // namespace

Result<S3BlobBucket> BlobStores::parseUrl(const std::string& url, S3Credentials credentials) {
    const std::string field = "--blob-url";
    std::string path = url.substr(0, url.find('?'));
    if (toLower(path.substr(0, 5)) == "s3://" && path.find('/', 5) == std::string::npos) {
        return Error::invalidArgument(field + ": give s3://bucket/prefix, a prefix of svc's own in the bucket");
    }
    auto location = S3Location::parse(url, field);
    if (!location) return location.error();
    if (credentials.accessKeyId.empty()) credentials.accessKeyId = environment("AWS_ACCESS_KEY_ID");
    if (credentials.secretAccessKey.empty()) credentials.secretAccessKey = environment("AWS_SECRET_ACCESS_KEY");
    if (credentials.accessKeyId.empty() || credentials.secretAccessKey.empty()) {
        return Error::invalidArgument(field + ": the bucket's credentials are missing: set --s3-access-key-id and --s3-secret-access-key "
                                      "(better SVC_S3_ACCESS_KEY_ID and SVC_S3_SECRET_ACCESS_KEY, or AWS_ACCESS_KEY_ID and "
                                      "AWS_SECRET_ACCESS_KEY, or the config file)");
    }
    return S3BlobBucket{*location, std::move(credentials), {}};
}

BlobStores::BlobStores(const std::string& dataDir, const std::optional<S3BlobBucket>& bucket, const Key256& key) {
    if (!bucket) {
        uploads_ = std::make_unique<EncryptedFileBlobStore>(dataDir + "/uploads", key);
        return;
    }
    uploads_ = std::make_unique<S3BlobStore>(under(bucket->location, "uploads"), bucket->credentials, key, bucket->options);
    setPhotos_ = std::make_unique<S3BlobStore>(under(bucket->location, "set-photos"), bucket->credentials, key, bucket->options);
    thumbnails_ = std::make_unique<S3BlobStore>(under(bucket->location, "thumbs"), bucket->credentials, key, bucket->options);
}

}  // namespace svc
