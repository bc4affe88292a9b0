#include "recommend/CategoryPath.hpp"

#include "recommend/Department.hpp"
#include "recommend/TextTokenizer.hpp"

namespace svc {

std::string_view CategoryPath::ofProduct(const Product& product) {
    auto pool = product.properties.find("kategorie1");
    if (pool == product.properties.end() || pool->second.empty()) return product.primaryCategory();
    std::string_view first(pool->second);
    return first.substr(0, first.find(','));
}

bool CategoryPath::isGenericKey(const std::string& key) {
    return key.empty() || key == "sale" || key == "new" || key == "neu" || key == "other" || key == "misc" || key == "home" ||
           key == "all" || key == "shop" || key == "na";
}

std::vector<std::string> CategoryPath::levels(std::string_view path) {
    std::vector<std::string> levels;
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find('>', start);
        if (end == std::string_view::npos) end = path.size();
        std::string_view level = path.substr(start, end - start);
        size_t first = level.find_first_not_of(" \t\r\n");
        size_t last = level.find_last_not_of(" \t\r\n");
        level = first == std::string_view::npos ? std::string_view() : level.substr(first, last - first + 1);
        if (!isGenericKey(TextTokenizer::key(level))) levels.emplace_back(level);
        start = end + 1;
    }
    return levels;
}

size_t CategoryPath::kindLevel(const std::vector<std::string>& levels) {
    for (size_t i = levels.size(); i-- > 0;) {
        if (departmentFromToken(TextTokenizer::key(levels[i])) == Department::Unknown) return i;
    }
    return npos;
}

}  // namespace svc
