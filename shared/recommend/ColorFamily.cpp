#include "recommend/ColorFamily.hpp"

#include <array>
#include <string>
#include <utility>

#include "recommend/TextTokenizer.hpp"

namespace svc {
namespace {

// Word stems (singular, lower case) to families; English and German, as feeds mix both.
constexpr std::array<std::pair<std::string_view, ColorFamily>, 72> kWords{{
    {"black", ColorFamily::Black}, {"schwarz", ColorFamily::Black}, {"charcoal", ColorFamily::Grey},
    {"white", ColorFamily::White}, {"weis", ColorFamily::White}, {"weiss", ColorFamily::White}, {"weiß", ColorFamily::White},
    {"ivory", ColorFamily::White}, {"cream", ColorFamily::Beige}, {"offwhite", ColorFamily::White},
    {"grey", ColorFamily::Grey}, {"gray", ColorFamily::Grey}, {"grau", ColorFamily::Grey}, {"melange", ColorFamily::Grey},
    {"beige", ColorFamily::Beige}, {"khaki", ColorFamily::Beige}, {"nude", ColorFamily::Beige}, {"skin", ColorFamily::Beige},
    {"camel", ColorFamily::Beige}, {"sand", ColorFamily::Beige}, {"taupe", ColorFamily::Beige}, {"natural", ColorFamily::Beige},
    {"brown", ColorFamily::Brown}, {"braun", ColorFamily::Brown}, {"tan", ColorFamily::Brown}, {"coffee", ColorFamily::Brown},
    {"bronze", ColorFamily::Brown}, {"mushroom", ColorFamily::Brown}, {"cognac", ColorFamily::Brown},
    {"blue", ColorFamily::Blue}, {"blau", ColorFamily::Blue}, {"navy", ColorFamily::Blue}, {"turquoise", ColorFamily::Blue},
    {"teal", ColorFamily::Blue}, {"denim", ColorFamily::Blue}, {"petrol", ColorFamily::Blue}, {"aqua", ColorFamily::Blue},
    {"red", ColorFamily::Red}, {"rot", ColorFamily::Red}, {"maroon", ColorFamily::Red}, {"burgundy", ColorFamily::Red},
    {"bordeaux", ColorFamily::Red}, {"rust", ColorFamily::Red}, {"wine", ColorFamily::Red},
    {"pink", ColorFamily::Pink}, {"rosa", ColorFamily::Pink}, {"rose", ColorFamily::Pink}, {"peach", ColorFamily::Pink},
    {"magenta", ColorFamily::Pink}, {"fuchsia", ColorFamily::Pink},
    {"orange", ColorFamily::Orange}, {"coral", ColorFamily::Orange},
    {"yellow", ColorFamily::Yellow}, {"gelb", ColorFamily::Yellow}, {"mustard", ColorFamily::Yellow}, {"lemon", ColorFamily::Yellow},
    {"green", ColorFamily::Green}, {"grun", ColorFamily::Green}, {"grün", ColorFamily::Green}, {"olive", ColorFamily::Green},
    {"lime", ColorFamily::Green}, {"mint", ColorFamily::Green}, {"sea", ColorFamily::Green},
    {"purple", ColorFamily::Purple}, {"lila", ColorFamily::Purple}, {"violet", ColorFamily::Purple}, {"lavender", ColorFamily::Purple},
    {"mauve", ColorFamily::Purple},
    {"silver", ColorFamily::Metallic}, {"gold", ColorFamily::Metallic}, {"steel", ColorFamily::Metallic},
    {"multi", ColorFamily::Multi},
}};

}  // namespace

ColorFamily colorFamilyFromText(std::string_view colorName) {
    // The last colour word decides: "Navy Blue" is blue, "Sea Green" green, "Rose Gold" metallic.
    ColorFamily found = ColorFamily::Unknown;
    for (const auto& token : TextTokenizer::tokens(colorName)) {
        for (const auto& [word, family] : kWords) {
            if (token == word) found = family;
        }
        if (token == "multicolour" || token == "multicolor" || token == "multicoloured" || token == "bunt") found = ColorFamily::Multi;
    }
    return found;
}

bool isNeutral(ColorFamily family) {
    return family == ColorFamily::Black || family == ColorFamily::White || family == ColorFamily::Grey ||
           family == ColorFamily::Beige || family == ColorFamily::Brown || family == ColorFamily::Metallic;
}

double colorHarmony(ColorFamily a, ColorFamily b) {
    if (a == ColorFamily::Unknown || b == ColorFamily::Unknown) return 0.5;
    if (isNeutral(a) || isNeutral(b) || a == b) return 1.0;
    if (a == ColorFamily::Multi || b == ColorFamily::Multi) return 0.5;
    // Denim blue is the other neutral of fashion.
    if (a == ColorFamily::Blue || b == ColorFamily::Blue) return 0.5;
    return 0.0;
}

}  // namespace svc
