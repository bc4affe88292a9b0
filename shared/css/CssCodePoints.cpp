#include "css/CssCodePoints.hpp"

namespace svc::css {

std::u32string preprocessCss(std::string_view text) {
    std::u32string out;
    out.reserve(text.size());
    size_t i = 0;
    auto byte = [&](size_t at) { return static_cast<unsigned char>(text[at]); };
    auto continuation = [&](size_t at) { return at < text.size() && (byte(at) & 0xC0) == 0x80; };
    while (i < text.size()) {
        unsigned char lead = byte(i);
        char32_t c = kReplacementCharacter;
        size_t length = 1;
        if (lead < 0x80) {
            c = lead;
        } else if (lead >= 0xC2 && lead <= 0xDF && continuation(i + 1)) {
            c = ((lead & 0x1F) << 6) | (byte(i + 1) & 0x3F);
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF && continuation(i + 1) && continuation(i + 2)) {
            c = ((lead & 0x0F) << 12) | ((byte(i + 1) & 0x3F) << 6) | (byte(i + 2) & 0x3F);
            length = 3;
            if (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF)) c = kReplacementCharacter;
        } else if (lead >= 0xF0 && lead <= 0xF4 && continuation(i + 1) && continuation(i + 2) && continuation(i + 3)) {
            c = ((lead & 0x07) << 18) | ((byte(i + 1) & 0x3F) << 12) | ((byte(i + 2) & 0x3F) << 6) | (byte(i + 3) & 0x3F);
            length = 4;
            if (c < 0x10000 || c > 0x10FFFF) c = kReplacementCharacter;
        }
        i += length;
        if (c == '\r') {
            if (i < text.size() && text[i] == '\n') ++i;
            c = '\n';
        } else if (c == '\f') {
            c = '\n';
        } else if (c == 0) {
            c = kReplacementCharacter;
        }
        out.push_back(c);
    }
    return out;
}

void appendUtf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

std::string asciiLower(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

}  // namespace svc::css
