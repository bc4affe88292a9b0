// bench-imagebot: what the image bot spends per image after the download, against decoding
// alone, in one run (ratios are steadier than seconds on a noisy machine). Two sets: shop-sized
// JPEGs drawn here (1200 x 1600, quality 85) and, when ../shared/data is present, the fashion photos.
// Per set: (a) decode only; (b) the bot's work: decode, resize to 320 px, JPEG encode, pHash, colours.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "image/DominantColors.hpp"
#include "image/ImageCodec.hpp"
#include "image/PerceptualHash.hpp"

using namespace svc;

namespace {

RgbImage drawn(int width, int height, int seed) {
    RgbImage image{width, height, std::vector<uint8_t>(static_cast<size_t>(width) * height * 3, 255)};
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            double u = (x - width / 2.0) / width, v = (y - height / 2.0) / height;
            if (u * u * 4 + v * v * 3 > 0.5) continue;
            uint8_t* p = image.pixels.data() + (static_cast<size_t>(y) * width + x) * 3;
            p[0] = static_cast<uint8_t>(80 + 40 * seed % 170), p[1] = static_cast<uint8_t>(((x / 7 + y / 5) % 2) * 60 + 40),
            p[2] = static_cast<uint8_t>(120 + 13 * seed % 120);
        }
    }
    return image;
}

template <typename Work>
double perSecond(const std::vector<std::string>& images, int rounds, Work work) {
    auto started = std::chrono::steady_clock::now();
    for (int round = 0; round < rounds; ++round) {
        for (const auto& bytes : images) work(bytes);
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return images.size() * rounds / seconds;
}

void measure(const char* name, const std::vector<std::string>& images, int rounds) {
    if (images.empty()) return;
    uint64_t sink = 0;
    double decodeOnly = perSecond(images, rounds, [&](const std::string& bytes) { sink += ImageCodec::decode(bytes, 40'000'000)->width; });
    double botWork = perSecond(images, rounds, [&](const std::string& bytes) {
        auto image = ImageCodec::decode(bytes, 40'000'000);
        auto [width, height] = ImageCodec::fitWithin(image->width, image->height, 320);
        auto thumbnail = ImageCodec::resize(*image, width, height);
        sink += ImageCodec::encodeJpeg(thumbnail, 80).size() + PerceptualHash::of(thumbnail) + DominantColors::of(thumbnail).size();
    });
    std::printf("%-28s %5zu images x %d: (a) decode only %8.1f/s   (b) thumbnail + facts %8.1f/s   (b)/(a) %.2f   [%llu]\n", name,
                images.size(), rounds, decodeOnly, botWork, botWork / decodeOnly, static_cast<unsigned long long>(sink % 10));
}

}  // namespace

int main() {
    std::vector<std::string> shop;
    for (int i = 0; i < 20; ++i) shop.push_back(ImageCodec::encodeJpeg(drawn(1200, 1600, i), 85));
    measure("drawn 1200x1600 JPEGs", shop, 3);
    std::vector<std::string> fashion;
    std::string dir = std::string(SVC_BUILD_BIN_DIR) + "/../../../shared/data/fashion/images";
    std::error_code error;
    if (std::filesystem::is_directory(dir, error)) {
        for (const auto& entry : std::filesystem::directory_iterator(dir)) {
            std::ifstream in(entry.path(), std::ios::binary);
            std::stringstream bytes;
            bytes << in.rdbuf();
            fashion.push_back(bytes.str());
        }
        measure("fashion photos (60x80)", fashion, 5);
    } else {
        std::printf("fashion photos absent (%s): skipped\n", dir.c_str());
    }
    return 0;
}
