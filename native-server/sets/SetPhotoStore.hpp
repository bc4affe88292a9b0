#pragma once
// Model and mood photos the operator uploads for a tenant's sets (docs/adr/0045). Uploads are
// untrusted bytes: the type is decided by decoding (JPEG or PNG only, pixel count checked from the
// header before anything is decoded), and what is kept is a fresh JPEG of the decoded pixels, so
// no metadata (EXIF, GPS) and no crafted payload of the upload reaches a shopper. The key is the
// SHA-256 of the stored JPEG: the same photo uploaded twice is one file, and a key always names the
// same bytes (served with a one-year immutable cache). Files live under
// <dataDir>/set-photos/<tenantId>/<key>.jpg, so a tenant reaches only its own photos; with a
// shared BlobStore (`serve --blob-url`, docs/adr/0090) they are its blobs <tenantId>-<key>.jpg instead,
// sealed like every blob there, so every node serves every photo.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.hpp"
#include "store/BlobStore.hpp"

namespace svc {

struct SetPhotoLimits {
    size_t maxBytes = size_t{5} << 20;  // of the upload
    int64_t maxPixels = 40'000'000;     // the image bot's guard (ImageBotOptions::maxPixels)
    int longestSide = 2000;             // larger photos are scaled down: a widget never shows more
    int jpegQuality = 88;
};

class SetPhotoStore {
public:
    // `blobs`: where photos live when nodes share them; null: the data dir's files.
    SetPhotoStore(std::string dataDir, SetPhotoLimits limits = {}, BlobStore* blobs = nullptr)
        : root_(std::move(dataDir) + "/set-photos"), limits_(limits), blobs_(blobs) {}
    // The key of the stored photo; InvalidArgument naming "photo" for anything but a JPEG or PNG,
    // ResourceExhausted for too many bytes or pixels.
    Result<std::string> store(int64_t tenantId, std::string_view bytes);
    // The JPEG, or nothing when this tenant has no photo of that key.
    Result<std::optional<std::string>> read(int64_t tenantId, const std::string& key) const;
    static bool validKey(const std::string& key);
    const SetPhotoLimits& limits() const { return limits_; }

private:
    std::string pathOf(int64_t tenantId, const std::string& key) const;
    static std::string blobKeyOf(int64_t tenantId, const std::string& key);
    Status storeFile(int64_t tenantId, const std::string& key, const std::string& jpeg) const;

    std::string root_;
    SetPhotoLimits limits_;
    BlobStore* blobs_;
};

}  // namespace svc
