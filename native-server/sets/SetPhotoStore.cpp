#include "sets/SetPhotoStore.hpp"

#include <sodium.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "image/ImageCodec.hpp"
#include "store/PrivateFiles.hpp"
#include "store/WholeBlob.hpp"

namespace svc {
namespace {

std::string hexSha256(std::string_view bytes) {
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned char byte : digest) {
        out.push_back(hex[byte >> 4]);
        out.push_back(hex[byte & 15]);
    }
    return out;
}

}  // namespace

bool SetPhotoStore::validKey(const std::string& key) {
    if (key.size() != 64) return false;
    for (char c : key) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return true;
}

std::string SetPhotoStore::pathOf(int64_t tenantId, const std::string& key) const {
    return root_ + "/" + std::to_string(tenantId) + "/" + key + ".jpg";
}

Result<std::string> SetPhotoStore::store(int64_t tenantId, std::string_view bytes) {
    if (bytes.empty()) return Error::invalidArgument("photo: the upload is empty; choose a JPEG or PNG file");
    if (bytes.size() > limits_.maxBytes) {
        return Error::resourceExhausted("photo: larger than " + std::to_string(limits_.maxBytes >> 20) + " MB");
    }
    auto info = ImageCodec::probe(bytes);
    if (!info) return Error::invalidArgument("photo: not a JPEG or PNG image (" + info.error().message + ")");
    auto image = ImageCodec::decode(bytes, limits_.maxPixels);
    if (!image) {
        if (image.error().code == ErrorCode::ResourceExhausted) {
            return Error::resourceExhausted("photo: more than " + std::to_string(limits_.maxPixels / 1'000'000) + " million pixels");
        }
        return Error::invalidArgument("photo: the image could not be decoded (" + image.error().message + ")");
    }
    auto [width, height] = ImageCodec::fitWithin(image->width, image->height, limits_.longestSide);
    std::string jpeg = ImageCodec::encodeJpeg(width == image->width && height == image->height ? *image
                                                                                                : ImageCodec::resize(*image, width, height),
                                              limits_.jpegQuality);
    std::string key = hexSha256(jpeg);
    auto stored = blobs_ ? WholeBlob::write(*blobs_, blobKeyOf(tenantId, key), jpeg) : storeFile(tenantId, key, jpeg);
    if (!stored) return stored.error();
    return key;
}

std::string SetPhotoStore::blobKeyOf(int64_t tenantId, const std::string& key) { return std::to_string(tenantId) + "-" + key + ".jpg"; }

Status SetPhotoStore::storeFile(int64_t tenantId, const std::string& key, const std::string& jpeg) const {
    std::string path = pathOf(tenantId, key);
    std::error_code error = PrivateFiles::createDirectories(std::filesystem::path(path).parent_path().string());
    if (error) return Error::unavailable("photo: cannot create the photo folder: " + error.message());
    if (std::filesystem::exists(path)) return Status::success();  // content-addressed: already there
    // Written aside and renamed: a reader never sees half a photo.
    std::string temporary = path + ".part";
    {
        std::ofstream file = PrivateFiles::openForWriting(temporary);
        file.write(jpeg.data(), static_cast<std::streamsize>(jpeg.size()));
        if (!file) return Error::unavailable("photo: cannot write " + temporary);
    }
    std::filesystem::rename(temporary, path, error);
    if (error) return Error::unavailable("photo: cannot store the photo: " + error.message());
    return Status::success();
}

// Content-addressed, so writing a photo that is already there just replaces it with the same bytes.
Result<std::optional<std::string>> SetPhotoStore::read(int64_t tenantId, const std::string& key) const {
    if (!validKey(key)) return std::optional<std::string>();
    if (blobs_) return WholeBlob::read(*blobs_, blobKeyOf(tenantId, key));
    std::ifstream file(pathOf(tenantId, key), std::ios::binary);
    if (!file) return std::optional<std::string>();
    std::ostringstream bytes;
    bytes << file.rdbuf();
    return std::optional<std::string>(bytes.str());
}

}  // namespace svc
