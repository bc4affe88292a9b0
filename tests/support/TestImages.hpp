#pragma once
// Images the tests make themselves (so the image bot is covered without ../shared/data): a
// product-like picture, a garment shape in one colour on white, varied by a seed; and where the
// real fashion photos are when present.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "image/ImageCodec.hpp"

namespace svc::test {

// seed picks the shape (tall/wide, sleeves, stripes); red/green/blue the garment's colour.
inline RgbImage productImage(int width, int height, uint32_t seed, int red = 200, int green = 30, int blue = 40) {
    RgbImage image;
    image.width = width;
    image.height = height;
    image.pixels.assign(static_cast<size_t>(width) * height * 3, 255);
    uint32_t state = seed * 2654435761u + 12345u;
    auto next = [&state] { state = state * 1664525u + 1013904223u; return (state >> 8) / 16777216.0; };
    double cx = 0.35 + 0.3 * next(), cy = 0.35 + 0.3 * next();
    double rx = 0.15 + 0.25 * next(), ry = 0.15 + 0.3 * next();
    double stripe = 4 + 20 * next();
    bool striped = next() < 0.5;
    double angle = next() * 3.14159;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            double u = static_cast<double>(x) / width - cx, v = static_cast<double>(y) / height - cy;
            double ru = u * std::cos(angle) + v * std::sin(angle), rv = -u * std::sin(angle) + v * std::cos(angle);
            bool inside = (ru * ru) / (rx * rx) + (rv * rv) / (ry * ry) <= 1 || (std::abs(rv) < ry * 0.3 && std::abs(ru) < rx * 1.4);
            if (!inside) continue;
            double shade = striped && static_cast<int>((x + y) / (stripe * width / 400.0)) % 2 ? 0.75 : 1.0;
            uint8_t* p = image.pixels.data() + (static_cast<size_t>(y) * width + x) * 3;
            p[0] = static_cast<uint8_t>(red * shade), p[1] = static_cast<uint8_t>(green * shade), p[2] = static_cast<uint8_t>(blue * shade);
        }
    }
    return image;
}

inline std::string productJpeg(int width, int height, uint32_t seed, int quality = 85) {
    return ImageCodec::encodeJpeg(productImage(width, height, seed), quality);
}

// ../shared/data/fashion/images next to the repository: absent on a user's clone.
inline std::string fashionImagesDir() { return std::string(SVC_SOURCE_DIR) + "/../shared/data/fashion/images"; }

// The first `count` fashion images (sorted by name) as file paths; empty when the directory is absent.
inline std::vector<std::string> fashionImages(size_t count) {
    std::vector<std::string> paths;
    std::error_code error;
    if (!std::filesystem::is_directory(fashionImagesDir(), error)) return paths;
    for (const auto& entry : std::filesystem::directory_iterator(fashionImagesDir(), error)) {
        if (entry.path().extension() == ".jpg") paths.push_back(entry.path().string());
    }
    std::sort(paths.begin(), paths.end());
    if (paths.size() > count) paths.resize(count);
    return paths;
}

inline std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

}  // namespace svc::test
