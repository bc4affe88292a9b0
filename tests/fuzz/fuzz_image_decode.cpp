// Product images come from shops' servers: any bytes are refused with an error value or
// decoded within the pixel bound and the allocation budget, and every decoded image goes
// through what the image bot does with it (thumbnail resize and JPEG encoding, perceptual
// hash, dominant colours). libFuzzer's -malloc_limit_mb (by default its RSS limit) makes any
// larger allocation a finding.
#include <cstdint>
#include <string_view>

#include "image/DominantColors.hpp"
#include "image/ImageCodec.hpp"
#include "image/PerceptualHash.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto info = svc::ImageCodec::probe(bytes);
    constexpr int64_t kMaxPixels = 1 << 20;  // small: the fuzzer must not spend its time allocating
    svc::ImageDecodeReport report;
    auto image = svc::ImageCodec::decode(bytes, kMaxPixels, &report);
    // Whatever the file declares, stb never held more than the budget (docs/adr/0060).
    if (report.peakBytes > report.budgetBytes) __builtin_trap();
    if (!image) return 0;
    // A decoded image was probed successfully first, with the same size, within the bound.
    if (!info || info->width != image->width || info->height != image->height) __builtin_trap();
    if (int64_t{image->width} * image->height > kMaxPixels) __builtin_trap();
    if (image->pixels.size() != static_cast<size_t>(image->width) * image->height * 3) __builtin_trap();
    auto [width, height] = svc::ImageCodec::fitWithin(image->width, image->height, 64);
    auto thumbnail = svc::ImageCodec::resize(*image, width, height);
    auto jpeg = svc::ImageCodec::encodeJpeg(thumbnail, 80);
    auto again = svc::ImageCodec::decode(jpeg, kMaxPixels);
    if (!again || again->width != width || again->height != height) __builtin_trap();
    (void)svc::PerceptualHash::of(thumbnail);
    double total = 0;
    for (const auto& color : svc::DominantColors::of(thumbnail)) total += color.share;
    if (total > 1.0001) __builtin_trap();
    return 0;
}
