#include "text/Utf8.hpp"

namespace svc {

size_t findInvalidUtf8(std::string_view text) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    size_t size = text.size();
    size_t i = 0;
    while (i < size) {
        unsigned char lead = bytes[i];
        if (lead < 0x80) { ++i; continue; }
        size_t length;
        unsigned int codePoint;
        if ((lead & 0xE0) == 0xC0) { length = 2; codePoint = lead & 0x1F; }
        else if ((lead & 0xF0) == 0xE0) { length = 3; codePoint = lead & 0x0F; }
        else if ((lead & 0xF8) == 0xF0) { length = 4; codePoint = lead & 0x07; }
        else return i;
        if (i + length > size) return i;
        for (size_t k = 1; k < length; ++k) {
            if ((bytes[i + k] & 0xC0) != 0x80) return i;
            codePoint = (codePoint << 6) | (bytes[i + k] & 0x3F);
        }
        bool overlong = (length == 2 && codePoint < 0x80) || (length == 3 && codePoint < 0x800) ||
                        (length == 4 && codePoint < 0x10000);
        bool surrogate = codePoint >= 0xD800 && codePoint <= 0xDFFF;
        if (overlong || surrogate || codePoint > 0x10FFFF) return i;
        i += length;
    }
    return std::string_view::npos;
}

size_t utf8PrefixLength(std::string_view text, size_t maxBytes) {
    if (text.size() <= maxBytes) return text.size();
    size_t end = maxBytes;
    // Continuation bytes (10xxxxxx) belong to the character that starts before them.
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return end;
}

}  // namespace svc
