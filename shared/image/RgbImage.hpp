#pragma once
// A decoded image: 8-bit sRGB, 3 bytes per pixel, rows top to bottom, no padding.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace svc {

struct RgbImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> pixels;  // width * height * 3

    const uint8_t* at(int x, int y) const { return pixels.data() + (static_cast<size_t>(y) * width + x) * 3; }
};

}  // namespace svc
