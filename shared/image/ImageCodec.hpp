#pragma once
// Decoding, resizing and JPEG encoding of product images (stb, docs/adr/0037). Pure: bytes in,
// bytes out. Images come from shops' servers, so they are untrusted: the header is read first
// and an image with more pixels than the caller allows is refused before anything is decoded
// (a 100-byte PNG can claim 60000 x 60000 pixels); then PNG chunk lengths are checked against
// the file, and stb decodes within an allocation budget sized from the pixels the header
// declares (docs/adr/0060): no size a file declares reaches the allocator unchecked.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/Result.hpp"
#include "image/RgbImage.hpp"

namespace svc {

struct ImageInfo {
    std::string format;  // "jpeg" or "png"
    int width = 0;
    int height = 0;
};

// What one decode allocated inside stb (docs/adr/0060), for tests and measurements.
struct ImageDecodeReport {
    size_t budgetBytes = 0;
    size_t peakBytes = 0;
};

class ImageCodec {
public:
    // The format (by its signature) and size from the header. InvalidArgument for anything that
    // is not a JPEG or PNG (HTML error pages, GIF, WebP, truncated headers), naming what it looks like.
    static Result<ImageInfo> probe(std::string_view bytes);
    // InvalidArgument (not an image, corrupt: also a file whose data would make stb allocate more
    // than decodeBudgetBytes) or ResourceExhausted (more than maxPixels).
    static Result<RgbImage> decode(std::string_view bytes, int64_t maxPixels, ImageDecodeReport* report = nullptr);
    // The most stb may hold at once while decoding these bytes, which declare width x height pixels.
    static size_t decodeBudgetBytes(std::string_view bytes, int width, int height);
    // The size that fits within longestSide x longestSide keeping the aspect ratio; never
    // enlarges, never below 1 pixel.
    static std::pair<int, int> fitWithin(int width, int height, int longestSide);
    static RgbImage resize(const RgbImage& image, int width, int height);
    // Baseline JPEG; quality 1-100.
    static std::string encodeJpeg(const RgbImage& image, int quality);
    // Lossless PNG (test images and fuzz seeds).
    static std::string encodePng(const RgbImage& image);
};

}  // namespace svc
