#include "text/HtmlEscape.hpp"

#include <cctype>

namespace svc {

std::string escapeHtml(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string safeUrl(std::string_view url) {
    // Leading whitespace and control characters are ignored by browsers when
    // they parse a scheme, so they are not allowed to hide one here either.
    size_t start = 0;
    while (start < url.size() && static_cast<unsigned char>(url[start]) <= 0x20) ++start;
    std::string_view trimmed = url.substr(start);
    size_t colon = trimmed.find(':');
    size_t firstDelimiter = trimmed.find_first_of("/?#");
    bool hasScheme = colon != std::string_view::npos && (firstDelimiter == std::string_view::npos || colon < firstDelimiter);
    if (!hasScheme) return std::string(trimmed);
    std::string scheme;
    for (char c : trimmed.substr(0, colon)) scheme += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (scheme == "http" || scheme == "https") return std::string(trimmed);
    return {};
}

}  // namespace svc
