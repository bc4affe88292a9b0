#include "store/ImageFactColumns.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "text/BoundedJson.hpp"

namespace svc {

std::string ImageFactColumns::colorsJson(const std::vector<ColorShare>& colors) {
    auto list = nlohmann::json::array();
    for (const auto& c : colors) list.push_back({{"hex", c.hex()}, {"share", std::round(c.share * 1000) / 1000}});
    return list.dump();
}

std::vector<ColorShare> ImageFactColumns::colorsFrom(const std::string& json) {
    std::vector<ColorShare> colors;
    auto list = BoundedJson::parse(json, "colors");
    if (!list || !list->is_array()) return colors;
    for (const auto& item : *list) {
        std::string hex = item.value("hex", "");
        if (hex.size() != 7) continue;
        ColorShare c;
        unsigned value = static_cast<unsigned>(std::stoul(hex.substr(1), nullptr, 16));
        c.red = static_cast<int>(value >> 16), c.green = static_cast<int>((value >> 8) & 0xff), c.blue = static_cast<int>(value & 0xff);
        c.share = item.value("share", 0.0);
        colors.push_back(c);
    }
    return colors;
}

}  // namespace svc
