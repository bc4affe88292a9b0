// Unit tests of image/ (decoding with a pixel bound, thumbnails, the perceptual hash, dominant
// colours) and net/PoliteFetchPolicy (per-host slots, backoff, Retry-After), on images the
// tests draw themselves and, when ../shared/data is present, the real fashion photos.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "image/DominantColors.hpp"
#include "image/ImageCodec.hpp"
#include "image/PerceptualHash.hpp"
#include "net/PoliteFetchPolicy.hpp"
#include "support/TestImages.hpp"
#include "support/Skip.hpp"

using namespace svc;

TEST_CASE("Image codec: decodes JPEG and PNG, refuses what is not one with a clear reason") {
    auto jpeg = test::productJpeg(120, 80, 1);
    auto decoded = ImageCodec::decode(jpeg, 1'000'000);
    REQUIRE(decoded);
    CHECK(decoded->width == 120);
    CHECK(decoded->height == 80);
    CHECK(decoded->pixels.size() == 120u * 80 * 3);
    auto png = ImageCodec::encodePng(test::productImage(30, 40, 2));
    auto info = ImageCodec::probe(png);
    REQUIRE(info);
    CHECK(info->format == "png");
    CHECK(ImageCodec::decode(png, 1200)->pixels == test::productImage(30, 40, 2).pixels);  // lossless

    struct Case {
        std::string bytes;
        ErrorCode code;
        std::string reason;
    };
    const std::vector<Case> cases{
        {"", ErrorCode::InvalidArgument, "an empty body"},
        {"<!DOCTYPE html><html><body>Not found</body></html>", ErrorCode::InvalidArgument, "an HTML page"},
        {std::string("RIFF\x10\0\0\0WEBPVP8 ", 16), ErrorCode::InvalidArgument, "WebP"},
        {"RIFF", ErrorCode::InvalidArgument, "not a JPEG or PNG"},
        {"GIF89a\x01\0\x01\0", ErrorCode::InvalidArgument, "a GIF image (not supported"},
        {"<svg xmlns=\"http://www.w3.org/2000/svg\"/>", ErrorCode::InvalidArgument, "SVG"},
        {jpeg.substr(0, 40), ErrorCode::InvalidArgument, "corrupt jpeg"},
        {png.substr(0, 30), ErrorCode::InvalidArgument, "corrupt png"},
        {jpeg, ErrorCode::ResourceExhausted, "120 x 80 pixels is more than the limit of 9000"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.reason);
        auto result = ImageCodec::decode(c.bytes, 9000);
        REQUIRE_FALSE(result);
        CHECK(result.error().code == c.code);
        CHECK(result.error().message.find(c.reason) != std::string::npos);
    }
}

TEST_CASE("Image codec: a PNG header claiming 16000 x 16000 pixels is refused before decoding") {
    // A real 1x1 PNG whose IHDR claims a huge size (CRC is not checked before the size is read).
    auto png = ImageCodec::encodePng(test::productImage(1, 1, 3));
    auto put32 = [&png](size_t at, uint32_t value) {
        for (int i = 0; i < 4; ++i) png[at + i] = static_cast<char>((value >> (24 - 8 * i)) & 0xff);
    };
    put32(16, 16000);
    put32(20, 16000);
    auto result = ImageCodec::decode(png, 50'000'000);
    REQUIRE_FALSE(result);
    CHECK(result.error().code == ErrorCode::ResourceExhausted);
    CHECK(result.error().message.find("16000 x 16000") != std::string::npos);
}

TEST_CASE("Image codec: a JPEG Huffman table with more than 256 codes is refused before stb builds it") {
    // stb 2.27 writes past its tables for such a DHT segment (found by fuzz_image_decode).
    auto jpeg = test::productJpeg(32, 32, 6);
    size_t dht = jpeg.find("\xFF\xC4");
    REQUIRE(dht != std::string::npos);
    auto bad = jpeg;
    for (size_t i = 0; i < 16; ++i) bad[dht + 5 + i] = static_cast<char>(0x20);  // 16 x 32 = 512 codes
    for (const auto* bytes : {&bad}) {
        auto probed = ImageCodec::probe(*bytes);
        REQUIRE_FALSE(probed);
        CHECK(probed.error().message == "image: corrupt jpeg (a Huffman table with more than 256 codes)");
        CHECK_FALSE(ImageCodec::decode(*bytes, 1'000'000));
    }
    CHECK(ImageCodec::decode(jpeg, 1'000'000));  // the untouched file still decodes
}

TEST_CASE("Image codec: thumbnails keep the aspect ratio within the longest side and never enlarge") {
    struct Case {
        int width, height, longest, expectedWidth, expectedHeight;
    };
    for (const auto& c : std::vector<Case>{{1200, 1600, 320, 240, 320},
                                           {1600, 1200, 320, 320, 240},
                                           {200, 100, 320, 200, 100},
                                           {5000, 10, 320, 320, 1},
                                           {320, 320, 320, 320, 320}}) {
        auto [width, height] = ImageCodec::fitWithin(c.width, c.height, c.longest);
        CHECK(width == c.expectedWidth);
        CHECK(height == c.expectedHeight);
    }
    auto small = ImageCodec::resize(test::productImage(400, 300, 4), 80, 60);
    CHECK(small.width == 80);
    CHECK(small.pixels.size() == 80u * 60 * 3);
    auto reread = ImageCodec::decode(ImageCodec::encodeJpeg(small, 80), 1'000'000);
    REQUIRE(reread);
    CHECK(reread->width == 80);
}

TEST_CASE("Image perceptual hash: resized and re-encoded copies are near, other products far") {
    std::vector<uint64_t> hashes;
    for (uint32_t seed = 10; seed < 20; ++seed) {
        auto original = test::productImage(300, 400, seed);
        uint64_t hash = PerceptualHash::of(original);
        auto copy = ImageCodec::decode(ImageCodec::encodeJpeg(ImageCodec::resize(original, 150, 200), 50), 1'000'000);
        REQUIRE(copy);
        CAPTURE(seed);
        CHECK(PerceptualHash::distance(hash, PerceptualHash::of(*copy)) <= 4);
        hashes.push_back(hash);
    }
    int nearPairs = 0;
    for (size_t i = 0; i < hashes.size(); ++i) {
        for (size_t j = i + 1; j < hashes.size(); ++j) nearPairs += PerceptualHash::distance(hashes[i], hashes[j]) <= PerceptualHash::kNearDuplicateDistance;
    }
    CHECK(nearPairs == 0);
    CHECK(PerceptualHash::distance(0, ~uint64_t{0}) == 64);
}

TEST_CASE("Image perceptual hash: a list keeps the first of each picture and every entry without a hash") {
    const uint64_t a = 0x0123456789abcdefULL, b = ~a;
    const uint64_t nearA = a ^ 0b101101;  // 4 bits differ
    const uint64_t edgeB = b ^ 0x3f;      // 6 bits: still the same picture
    const uint64_t farB = b ^ 0x7f;       // 7 bits: another
    struct Case {
        std::vector<std::optional<uint64_t>> hashes;
        std::vector<bool> keep;
    };
    for (const auto& c : std::vector<Case>{
             {{a, nearA, b}, {true, false, true}},
             {{std::nullopt, a, std::nullopt, nearA}, {true, true, true, false}},
             {{b, edgeB, farB}, {true, false, true}},
             {{a, b, nearA, a}, {true, true, false, false}},
             {{}, {}},
         }) {
        CHECK(PerceptualHash::firstOfEachPicture(c.hashes) == c.keep);
    }
}

TEST_CASE("Image dominant colours: a red garment on white is white and red, with shares") {
    auto colors = DominantColors::of(test::productImage(300, 300, 5, 210, 20, 30));
    REQUIRE(colors.size() >= 2);
    double total = 0;
    bool red = false, white = false;
    for (const auto& c : colors) {
        CAPTURE(c.hex());
        total += c.share;
        red = red || (c.red > 150 && c.green < 60 && c.blue < 70);
        white = white || (c.red > 240 && c.green > 240 && c.blue > 240);
    }
    CHECK(red);
    CHECK(white);
    CHECK(total == doctest::Approx(1.0).epsilon(0.05));
    CHECK(std::is_sorted(colors.begin(), colors.end(), [](const auto& p, const auto& q) { return p.share > q.share; }));

    RgbImage blue{64, 64, std::vector<uint8_t>(64 * 64 * 3)};
    for (size_t i = 0; i < blue.pixels.size(); i += 3) blue.pixels[i + 2] = 200;
    auto single = DominantColors::of(blue);
    REQUIRE(single.size() == 1);
    CHECK(single[0].hex() == "#0000c8");
    CHECK(single[0].share == doctest::Approx(1.0));
}

TEST_CASE("Image politeness: per-host slots, host pauses, backoff and Retry-After") {
    PoliteFetchOptions options;
    options.perHostLimit = 2;
    options.maxAttempts = 4;
    options.backoffBaseMs = 100;
    options.backoffMaxMs = 350;
    options.maxRetryAfterMs = 60'000;
    PoliteFetchPolicy policy(options);
    CHECK(policy.tryAcquire("a.example", 0));
    CHECK(policy.tryAcquire("a.example", 0));
    CHECK_FALSE(policy.tryAcquire("a.example", 0));  // the limit is per host...
    CHECK(policy.tryAcquire("b.example", 0));        // ...not global
    policy.release("a.example");
    CHECK(policy.inFlight("a.example") == 1);
    policy.pauseHost("a.example", 5'000);
    CHECK_FALSE(policy.tryAcquire("a.example", 4'999));
    CHECK(policy.tryAcquire("a.example", 5'000));

    CHECK(policy.backoffMs(1) == 100);
    CHECK(policy.backoffMs(2) == 200);
    CHECK(policy.backoffMs(3) == 350);  // capped

    const int64_t now = 1'445'412'480;  // Wed, 21 Oct 2015 07:28:00 GMT
    struct Case {
        int attempt;
        long status;
        std::string retryAfter;
        std::optional<int64_t> delay;
    };
    const std::vector<Case> cases{
        {1, 429, "3", 3000},
        {1, 503, "Wed, 21 Oct 2015 07:28:07 GMT", 7000},
        {1, 503, "Wed, 21 Oct 2015 07:27:00 GMT", 0},  // in the past
        {1, 429, "soon", 100},                         // unreadable: backoff
        {2, 429, "", 200},
        {1, 429, "61", std::nullopt},  // longer than we wait: the round ends
        {1, 500, "30", 100},           // Retry-After only counts with 429 and 503
        {1, 0, "", 100},               // transport failure
        {4, 503, "1", std::nullopt},   // attempts used up
        {1, 404, "", std::nullopt},
        {1, 403, "", std::nullopt},
    };
    for (const auto& c : cases) {
        CAPTURE(c.status);
        CAPTURE(c.retryAfter);
        CHECK(policy.retryDelayMs(c.attempt, c.status, c.retryAfter, now) == c.delay);
    }
    CHECK(PoliteFetchPolicy::parseRetryAfterMs(" 120 ", now) == 120'000);
    CHECK(PoliteFetchPolicy::parseRetryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT", 784111777 - 10) == 10'000);
    CHECK_FALSE(PoliteFetchPolicy::parseRetryAfterMs("Sunday, 06-Nov-94 08:49:37 GMT", now));
    CHECK_FALSE(PoliteFetchPolicy::parseRetryAfterMs("-5", now));
    CHECK_FALSE(PoliteFetchPolicy::parseRetryAfterMs("99999999999999999999999", now));
}

TEST_CASE("Image facts on the real fashion photos: near-duplicates are found, different products are not" *
          svc::test::needs(svc::test::SkipReason::DataOutsideTheRepository, std::filesystem::exists(test::fashionImagesDir()), "the fashion images of ../shared are absent")) {
    auto paths = test::fashionImages(60);
    if (paths.empty()) {
        SVC_SKIP(svc::test::SkipReason::DataOutsideTheRepository, "the fashion images of ../shared are absent (" << test::fashionImagesDir() << ")");
    }
    std::vector<uint64_t> hashes;
    int worstCopy = 0;
    for (const auto& path : paths) {
        auto image = ImageCodec::decode(test::readBytes(path), 40'000'000);
        REQUIRE(image);
        uint64_t hash = PerceptualHash::of(*image);
        // A copy as a shop or CDN makes one: three quarters of the size, re-encoded at quality 70.
        auto copy = ImageCodec::decode(ImageCodec::encodeJpeg(ImageCodec::resize(*image, image->width * 3 / 4, image->height * 3 / 4), 70), 40'000'000);
        REQUIRE(copy);
        worstCopy = std::max(worstCopy, PerceptualHash::distance(hash, PerceptualHash::of(*copy)));
        hashes.push_back(hash);
        CHECK_FALSE(DominantColors::of(*image).empty());
    }
    int nearPairs = 0, pairs = 0;
    std::vector<int> distances;
    for (size_t i = 0; i < hashes.size(); ++i) {
        for (size_t j = i + 1; j < hashes.size(); ++j, ++pairs) {
            int d = PerceptualHash::distance(hashes[i], hashes[j]);
            distances.push_back(d);
            nearPairs += d <= PerceptualHash::kNearDuplicateDistance;
        }
    }
    std::sort(distances.begin(), distances.end());
    MESSAGE(paths.size() << " photos: worst resized-copy distance " << worstCopy << "; between different photos min " << distances.front()
                         << ", median " << distances[distances.size() / 2] << ", " << nearPairs << " of " << pairs << " pairs within "
                         << PerceptualHash::kNearDuplicateDistance);
    CHECK(worstCopy <= PerceptualHash::kNearDuplicateDistance);
    // Product photos share a pose and a white background, so a few different ones may look alike;
    // what matters is that copies are far nearer than almost every other pair.
    CHECK(nearPairs <= pairs / 100);
}

TEST_CASE("Image codec: the fuzz seeds are valid images of each format") {
    const std::string dir = std::string(SVC_SOURCE_DIR) + "/tests/fuzz/corpus/image_decode/";
    struct Case {
        const char* file;
        const char* format;
        int width, height;
    };
    for (const auto& c : std::vector<Case>{{"product-16x12.jpg", "jpeg", 16, 12}, {"product-9x13.png", "png", 9, 13}, {"grey-1x1.jpg", "jpeg", 1, 1}}) {
        CAPTURE(c.file);
        auto bytes = test::readBytes(dir + c.file);
        auto info = ImageCodec::probe(bytes);
        REQUIRE(info);
        CHECK(info->format == c.format);
        auto image = ImageCodec::decode(bytes, 1000);
        REQUIRE(image);
        CHECK(image->width == c.width);
        CHECK(image->height == c.height);
    }
}
