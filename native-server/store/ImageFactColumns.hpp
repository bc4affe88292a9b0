#pragma once
// How an image's dominant colours are kept in a text column, the same on every backend: a JSON
// array [{"hex":"#rrggbb","share":0.625}, ...], shares rounded to three decimals. Damage reads as
// no colours.
#include <string>
#include <vector>

#include "image/DominantColors.hpp"

namespace svc {

class ImageFactColumns {
public:
    static std::string colorsJson(const std::vector<ColorShare>& colors);
    static std::vector<ColorShare> colorsFrom(const std::string& json);
};

}  // namespace svc
