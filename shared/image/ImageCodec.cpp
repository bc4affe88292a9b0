#include "image/ImageCodec.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "image/StbBindings.hpp"

namespace svc {
namespace {

constexpr size_t kProbeBudgetBytes = size_t{1} << 20;

std::string_view signatureName(std::string_view bytes) {
    if (bytes.size() >= 3 && static_cast<uint8_t>(bytes[0]) == 0xFF && static_cast<uint8_t>(bytes[1]) == 0xD8 &&
        static_cast<uint8_t>(bytes[2]) == 0xFF) {
        return "jpeg";
    }
    if (bytes.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8)) return "png";
    return {};
}

// stb 2.27 (Debian 12) writes past its Huffman tables when a DHT segment declares more than 256
// codes (fixed upstream later; found by fuzz_image_decode). Every DHT stb could read starts at the
// bytes FF C4, so every such place is checked the way stb reads it (tables while the segment length
// lasts, bytes past the end read as 0), whether or not it is a real segment: a stray FF C4 inside
// other data can only cause a refusal, never let a bad table through.
bool huffmanTablesFit(std::string_view bytes) {
    auto byte = [&bytes](size_t at) -> size_t { return at < bytes.size() ? static_cast<uint8_t>(bytes[at]) : 0; };
    for (size_t marker = bytes.find("\xFF\xC4"); marker != std::string_view::npos; marker = bytes.find("\xFF\xC4", marker + 1)) {
        int64_t remaining = static_cast<int64_t>((byte(marker + 2) << 8) | byte(marker + 3)) - 2;
        size_t at = marker + 4;
        while (remaining > 0 && at < bytes.size()) {
            size_t codes = 0;
            for (size_t i = 1; i <= 16; ++i) codes += byte(at + i);
            if (codes > 256) return false;
            at += 17 + codes;
            remaining -= 17 + static_cast<int64_t>(codes);
        }
    }
    return true;
}

uint32_t bigEndian32(std::string_view bytes, size_t at) {
    return static_cast<uint32_t>(static_cast<uint8_t>(bytes[at])) << 24 | static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 1])) << 16 |
           static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 2])) << 8 | static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 3]));
}

// stb trusts a PNG chunk's declared length: it grows its IDAT buffer to hold the chunk before
// reading it (a 391-byte file declaring a 1 GiB IDAT made it allocate 2 GiB, found by
// fuzz_image_decode). The chunks are walked first, the way stb reads them: IHDR first, every
// chunk inside the file, up to IEND (stb needs it). Empty when they fit, else what does not.
std::string pngChunkProblem(std::string_view bytes) {
    size_t at = 8;  // after the signature
    bool first = true;
    while (true) {
        if (bytes.size() - at < 12) return "truncated before IEND at byte " + std::to_string(at);
        uint32_t length = bigEndian32(bytes, at);
        std::string type(bytes.substr(at + 4, 4));
        bool printable = std::all_of(type.begin(), type.end(), [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); });
        if (!printable) return "a chunk at byte " + std::to_string(at) + " has no valid type";
        if (first && (type != "IHDR" || length != 13)) return "the first chunk is not a 13-byte IHDR";
        first = false;
        if (length > bytes.size() - at - 12) {
            return "chunk " + type + " at byte " + std::to_string(at) + " declares " + std::to_string(length) + " bytes, the file has " +
                   std::to_string(bytes.size() - at - 12) + " after its header";
        }
        at += 12 + size_t{length};
        if (type == "IEND") return {};
    }
}

// What a refused body looks like, so the recorded reason helps the shop ("an HTML page").
std::string describeNonImage(std::string_view bytes) {
    if (bytes.empty()) return "an empty body";
    if (bytes.substr(0, 6) == "GIF87a" || bytes.substr(0, 6) == "GIF89a") return "a GIF image (not supported: use JPEG or PNG)";
    if (bytes.size() >= 12 && bytes.substr(0, 4) == "RIFF" && bytes.substr(8, 4) == "WEBP") return "a WebP image (not supported: use JPEG or PNG)";
    auto head = bytes.substr(0, 512);
    auto lower = std::string(head);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower.find("<html") != std::string::npos || lower.find("<!doctype") != std::string::npos) return "an HTML page";
    if (lower.find("<svg") != std::string::npos) return "an SVG image (not supported: use JPEG or PNG)";
    return "not a JPEG or PNG image";
}

}  // namespace

Result<ImageInfo> ImageCodec::probe(std::string_view bytes) {
    auto format = signatureName(bytes);
    if (format.empty()) return Error::invalidArgument("image: " + describeNonImage(bytes));
    if (bytes.size() > static_cast<size_t>(INT32_MAX)) return Error::resourceExhausted("image: larger than 2 GiB");
    if (format == "jpeg" && !huffmanTablesFit(bytes)) return Error::invalidArgument("image: corrupt jpeg (a Huffman table with more than 256 codes)");
    if (format == "png") {
        if (std::string problem = pngChunkProblem(bytes); !problem.empty()) return Error::invalidArgument("image: corrupt png (" + problem + ")");
    }
    // Reading a header needs stb's decoder state (the JPEG one is some 20 KB), nothing in proportion to the file.
    StbAllocationBudget budget(kProbeBudgetBytes);
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()), &width, &height, &channels)) {
        return Error::invalidArgument("image: corrupt " + std::string(format) + " header (" + stbi_failure_reason() + ")");
    }
    if (width <= 0 || height <= 0) return Error::invalidArgument("image: " + std::string(format) + " without pixels");
    return ImageInfo{std::string(format), width, height};
}

size_t ImageCodec::decodeBudgetBytes(std::string_view bytes, int width, int height) {
    // What stb holds at once, with room to spare: the compressed data gathered (PNG: IDAT chunks,
    // grown by doubling), per pixel of the MCU-padded image up to 4 components of 16 bits twice
    // over (PNG: the inflated rows and the image made from them; JPEG: component planes and a
    // progressive image's coefficients), the converted copy, and fixed decoder state.
    size_t padded = (static_cast<size_t>(width) + 32) * (static_cast<size_t>(height) + 32);
    return 2 * bytes.size() + 24 * padded + (size_t{1} << 20);
}

Result<RgbImage> ImageCodec::decode(std::string_view bytes, int64_t maxPixels, ImageDecodeReport* report) {
    auto info = probe(bytes);
    if (!info) return info.error();
    int64_t pixels = int64_t{info->width} * info->height;
    if (pixels > maxPixels) {
        return Error::resourceExhausted("image: " + std::to_string(info->width) + " x " + std::to_string(info->height) + " pixels is more than the limit of " +
                                        std::to_string(maxPixels));
    }
    // Declared before the pixels: they are given back to stb while the budget is still in force.
    StbAllocationBudget budget(decodeBudgetBytes(bytes, info->width, info->height));
    int width = 0, height = 0, channels = 0;
    std::unique_ptr<stbi_uc, void (*)(void*)> data(
        stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()), &width, &height, &channels, 3),
        stbi_image_free);
    if (report) *report = {budget.maxBytes(), budget.peakBytes()};
    if (!data && budget.exceeded()) {
        // The file's data asked for more than its declared pixels can need (a zlib stream that
        // inflates past its rows, say): it contradicts its own header, so it is corrupt rather
        // than too large, and callers report it like any other undecodable file.
        return Error::invalidArgument("image: corrupt " + info->format + " (decoding " + std::to_string(info->width) + " x " +
                                      std::to_string(info->height) + " pixels asked for more than " + std::to_string(budget.maxBytes()) +
                                      " bytes of memory)");
    }
    if (!data) return Error::invalidArgument("image: corrupt " + info->format + " (" + stbi_failure_reason() + ")");
    // The header was read twice: a decoder that disagrees with its own probe is not trusted further.
    if (width != info->width || height != info->height) return Error::invalidArgument("image: corrupt " + info->format + " (size changed while decoding)");
    RgbImage image;
    image.width = width;
    image.height = height;
    image.pixels.assign(data.get(), data.get() + static_cast<size_t>(pixels) * 3);
    return image;
}

std::pair<int, int> ImageCodec::fitWithin(int width, int height, int longestSide) {
    int longest = std::max(width, height);
    if (longest <= longestSide) return {width, height};
    double scale = static_cast<double>(longestSide) / longest;
    int fittedWidth = std::max(1, static_cast<int>(std::lround(width * scale)));
    int fittedHeight = std::max(1, static_cast<int>(std::lround(height * scale)));
    return {std::min(fittedWidth, longestSide), std::min(fittedHeight, longestSide)};
}

RgbImage ImageCodec::resize(const RgbImage& image, int width, int height) {
    RgbImage out;
    out.width = width;
    out.height = height;
    out.pixels.resize(static_cast<size_t>(width) * height * 3);
    // sRGB-aware filtering: averaging gamma-encoded values darkens edges between light and dark.
    stbir_resize_uint8_srgb(image.pixels.data(), image.width, image.height, 0, out.pixels.data(), width, height, 0, 3, STBIR_ALPHA_CHANNEL_NONE, 0);
    return out;
}

namespace {
void appendTo(void* context, void* data, int size) { static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size)); }
}  // namespace

std::string ImageCodec::encodeJpeg(const RgbImage& image, int quality) {
    std::string out;
    stbi_write_jpg_to_func(appendTo, &out, image.width, image.height, 3, image.pixels.data(), std::clamp(quality, 1, 100));
    return out;
}

std::string ImageCodec::encodePng(const RgbImage& image) {
    std::string out;
    stbi_write_png_to_func(appendTo, &out, image.width, image.height, 3, image.pixels.data(), image.width * 3);
    return out;
}

}  // namespace svc
