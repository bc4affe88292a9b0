#pragma once
// Colour names as shops write them ("Navy Blue", "Off White", "dunkelblau") reduced
// to a few families, the level at which outfits are matched and "same colour
// spectrum" is judged. Neutral families go with everything.
#include <cstdint>
#include <string_view>

namespace svc {

enum class ColorFamily : uint8_t {
    Unknown, Black, White, Grey, Beige, Brown, Blue, Red, Pink, Orange, Yellow, Green, Purple, Metallic, Multi,
};

ColorFamily colorFamilyFromText(std::string_view colorName);
bool isNeutral(ColorFamily family);
// How well two families go together in one outfit: 1 = safe (a neutral, or tone on
// tone), 0.5 = acceptable, 0 = a clash that curated sets avoid.
double colorHarmony(ColorFamily a, ColorFamily b);

}  // namespace svc
