// Issue 18: a 391-byte PNG made the image decoder allocate 2 GiB (fuzz_image_decode found it: an
// IDAT chunk declaring 1 GiB, which stb makes room for before reading it). Every allocation stb
// makes while decoding is now within a budget (StbAllocationBudget, docs/adr/0060), and PNG chunk
// lengths are checked against the file first. These tests measure what stb allocated.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "image/ImageCodec.hpp"
#include "image/StbBindings.hpp"
#include "support/TestImages.hpp"

using namespace svc;

namespace {

std::string crashingPng() { return test::readBytes(std::string(SVC_SOURCE_DIR) + "/tests/fuzz/corpus/image_decode/regression-png-chunk-alloc.png"); }

void put32(std::string& bytes, size_t at, uint32_t value) {
    for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>((value >> (24 - 8 * i)) & 0xff);
}

}  // namespace

TEST_CASE("Image decode budget: the PNG whose IDAT declares 1 GiB is refused before stb allocates anything") {
    auto png = crashingPng();
    REQUIRE(png.size() == 391);
    ImageDecodeReport report;
    auto decoded = ImageCodec::decode(png, 1'000'000, &report);
    REQUIRE_FALSE(decoded);
    CHECK(decoded.error().code == ErrorCode::InvalidArgument);
    CHECK(decoded.error().message == "image: corrupt png (chunk IDAT at byte 135 declares 1090519130 bytes, the file has 244 after its header)");
    CHECK(report.peakBytes == 0);
    CHECK_FALSE(ImageCodec::probe(png));
}

TEST_CASE("Image decode budget: on its own, the budget stops stb's 2 GiB allocation for that PNG") {
    // stb called directly, without ImageCodec's chunk walk: the allocation fails inside stb.
    auto png = crashingPng();
    StbAllocationBudget budget(ImageCodec::decodeBudgetBytes(png, 9, 13));
    int width = 0, height = 0, channels = 0;
    std::unique_ptr<stbi_uc, void (*)(void*)> data(
        stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()), static_cast<int>(png.size()), &width, &height, &channels, 3),
        stbi_image_free);
    CHECK_FALSE(data);
    CHECK(budget.exceeded());
    CHECK(budget.peakBytes() <= budget.maxBytes());
    CHECK(budget.maxBytes() < size_t{2} << 20);
}

TEST_CASE("Image decode budget: a zlib stream that inflates far past the declared rows is refused within the budget") {
    // A real 2000 x 2000 PNG (12 MB of rows, compressed to a few KB) whose IHDR then says 100 x 100:
    // stb inflates the whole stream into a buffer it grows as it goes.
    RgbImage plain;
    plain.width = 2000;
    plain.height = 2000;
    plain.pixels.assign(size_t{2000} * 2000 * 3, 128);
    auto png = ImageCodec::encodePng(plain);
    put32(png, 16, 100);
    put32(png, 20, 100);
    ImageDecodeReport report;
    auto decoded = ImageCodec::decode(png, 1'000'000, &report);
    REQUIRE_FALSE(decoded);
    CHECK(decoded.error().code == ErrorCode::InvalidArgument);
    CHECK(decoded.error().message == "image: corrupt png (decoding 100 x 100 pixels asked for more than " + std::to_string(report.budgetBytes) +
                                         " bytes of memory)");
    CHECK(report.budgetBytes == ImageCodec::decodeBudgetBytes(png, 100, 100));
    CHECK(report.peakBytes <= report.budgetBytes);
    CHECK(report.budgetBytes < size_t{3} << 20);
}

TEST_CASE("Image decode budget: ordinary images decode well within it") {
    struct Case {
        const char* name;
        std::string bytes;
        int width, height;
    };
    const std::vector<Case> cases{
        {"JPEG 1200 x 900", test::productJpeg(1200, 900, 1), 1200, 900},
        {"JPEG 1 x 1", test::productJpeg(1, 1, 2), 1, 1},
        {"PNG 640 x 480", ImageCodec::encodePng(test::productImage(640, 480, 3)), 640, 480},
        {"PNG 1 x 3000", ImageCodec::encodePng(test::productImage(1, 3000, 5)), 1, 3000},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        ImageDecodeReport report;
        auto decoded = ImageCodec::decode(c.bytes, 50'000'000, &report);
        REQUIRE(decoded);
        CHECK(decoded->width == c.width);
        CHECK(decoded->height == c.height);
        CHECK(report.peakBytes > static_cast<size_t>(c.width) * c.height * 3 - 1);  // at least the pixels went through it
        CHECK(report.peakBytes <= report.budgetBytes / 2);                           // with room to spare
    }
}

TEST_CASE("Image decode budget: PNG chunks are walked as stb reads them") {
    auto png = ImageCodec::encodePng(test::productImage(9, 13, 1));
    REQUIRE(ImageCodec::probe(png));
    struct Case {
        const char* name;
        std::string bytes;
        std::string message;
    };
    std::string noIend = png.substr(0, png.size() - 12);
    std::string firstNotIhdr = png;
    firstNotIhdr.replace(12, 4, "tEXt");
    std::string badType = png;
    badType[37] = '\x01';  // the type of the chunk after IHDR (8 + 25 + 4)
    const std::vector<Case> cases{
        {"no IEND", noIend, "image: corrupt png (truncated before IEND at byte " + std::to_string(noIend.size()) + ")"},
        {"IHDR not first", firstNotIhdr, "image: corrupt png (the first chunk is not a 13-byte IHDR)"},
        {"a chunk type that is not letters", badType, "image: corrupt png (a chunk at byte 33 has no valid type)"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto probed = ImageCodec::probe(c.bytes);
        REQUIRE_FALSE(probed);
        CHECK(probed.error().message == c.message);
    }
}
