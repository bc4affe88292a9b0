#include "text/StringUtil.hpp"

#include <cctype>
#include <charconv>

namespace svc {

std::string_view trim(std::string_view text) {
    size_t start = 0;
    size_t end = text.size();
    while (start < end && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
    while (end > start && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    return text.substr(start, end - start);
}

std::string toLower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<std::string> splitList(std::string_view text, char separator) {
    std::vector<std::string> parts;
    splitListInto(text, separator, parts);
    return parts;
}

void splitListInto(std::string_view text, char separator, std::vector<std::string>& parts) {
    size_t used = 0;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(separator, start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view part = trim(text.substr(start, end - start));
        if (!part.empty()) {
            if (used < parts.size()) parts[used].assign(part);  // keeps the element's buffer
            else parts.emplace_back(part);
            ++used;
        }
        start = end + 1;
    }
    parts.resize(used);
}

std::optional<int64_t> parseInt64(std::string_view text) {
    if (text.empty()) return std::nullopt;
    int64_t value = 0;
    const char* begin = text.data();
    // One leading '+' is allowed, and only before a digit ("+-1" is not a number).
    if (*begin == '+') {
        ++begin;
        if (begin == text.data() + text.size() || !std::isdigit(static_cast<unsigned char>(*begin))) return std::nullopt;
    }
    auto [end, error] = std::from_chars(begin, text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::string urlEncode(std::string_view text) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::optional<std::string> urlDecode(std::string_view text) {
    auto hexValue = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '+') {
            out += ' ';
        } else if (c == '%') {
            int high = i + 1 < text.size() ? hexValue(text[i + 1]) : -1;
            int low = i + 2 < text.size() ? hexValue(text[i + 2]) : -1;
            if (high < 0 || low < 0) return std::nullopt;
            out += static_cast<char>(high * 16 + low);
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace svc
