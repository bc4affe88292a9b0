#pragma once
// The few colours that cover most of an image, with their shares: k-means in CIELAB (where
// distances follow perceived differences), seeded from a coarse histogram so the result is
// deterministic. Product photos on white show white as one colour; the recommender decides
// what to ignore.
#include <string>
#include <vector>

#include "image/RgbImage.hpp"

namespace svc {

struct ColorShare {
    int red = 0, green = 0, blue = 0;  // sRGB 0-255
    double share = 0;                  // of the image's pixels, 0-1
    std::string hex() const;           // "#rrggbb"
};

class DominantColors {
public:
    // At most maxColors colours, largest share first; colours under 3 % are left out.
    static std::vector<ColorShare> of(const RgbImage& image, int maxColors = 4);
};

}  // namespace svc
