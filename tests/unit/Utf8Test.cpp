// Unit tests of text/Utf8: the offset of the first invalid UTF-8 sequence.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "text/Utf8.hpp"

namespace {
constexpr size_t kValid = std::string_view::npos;
}

TEST_CASE("findInvalidUtf8 accepts valid text and names the first bad byte otherwise") {
    struct Utf8Case {
        const char* name;
        std::string bytes;
        size_t offset;
    };
    const std::vector<Utf8Case> cases{
        {"empty", "", kValid},
        {"ASCII", "plain ASCII ~\x7F", kValid},
        {"NUL byte is valid", std::string("a\0b", 3), kValid},
        {"2-byte a-umlaut", "\xC3\xA4", kValid},
        {"smallest 2-byte U+0080", "\xC2\x80", kValid},
        {"3-byte euro sign", "\xE2\x82\xAC", kValid},
        {"smallest 3-byte U+0800", "\xE0\xA0\x80", kValid},
        {"U+D7FF just below the surrogates", "\xED\x9F\xBF", kValid},
        {"U+E000 just above the surrogates", "\xEE\x80\x80", kValid},
        {"U+FFFF", "\xEF\xBF\xBF", kValid},
        {"4-byte G clef U+1D11E", "\xF0\x9D\x84\x9E", kValid},
        {"smallest 4-byte U+10000", "\xF0\x90\x80\x80", kValid},
        {"largest code point U+10FFFF", "\xF4\x8F\xBF\xBF", kValid},
        {"mixed text", "Gr\xC3\xB6\xC3\x9F" "e \xE2\x82\xAC \xF0\x9F\x98\x80", kValid},
        {"overlong 2-byte NUL", "\xC0\x80", 0},
        {"overlong 2-byte slash", "\xC1\xBF", 0},
        {"overlong 3-byte after text", "ab\xE0\x80\xAF", 2},
        {"overlong 4-byte", "\xF0\x8F\xBF\xBF", 0},
        {"high surrogate U+D800", "\xED\xA0\x80", 0},
        {"low surrogate U+DFFF after one byte", "x\xED\xBF\xBF", 1},
        {"U+110000 above the maximum", "\xF4\x90\x80\x80", 0},
        {"lead byte F5", "\xF5\x80\x80\x80", 0},
        {"5-byte lead F8", "ok\xF8\x88\x80\x80\x80", 2},
        {"lead byte FF", "\xFF", 0},
        {"lone continuation byte", "a\x80", 1},
        {"truncated 2-byte at end", "abc\xC3", 3},
        {"truncated 3-byte at end", "ab\xE2\x82", 2},
        {"truncated 4-byte at end", "\xF0\x9F\x98", 0},
        {"truncated after valid multi-byte", "\xC3\xA4\xE2\x82", 2},
        {"2-byte lead followed by ASCII", "\xC3\x28", 0},
        {"3-byte with bad second continuation", "a\xE2\x28\xA1", 1},
        {"4-byte with bad last continuation", "\xF0\x9F\x98\x28", 0},
        {"first of two errors", "\xE2\x82\xAC\xE2\x82\xAC\xFE\xFF", 6},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        CHECK(svc::findInvalidUtf8(c.bytes) == c.offset);
    }
}

TEST_CASE("findInvalidUtf8 never reads past the end of the view") {
    // The bytes after the view would complete the sequence; the view itself ends inside it.
    const std::string buffer = "ab\xC3\xA4 \xE2\x82\xAC";
    CHECK(svc::findInvalidUtf8(std::string_view(buffer).substr(0, 3)) == 2);
    CHECK(svc::findInvalidUtf8(std::string_view(buffer).substr(0, 4)) == kValid);
    CHECK(svc::findInvalidUtf8(std::string_view(buffer).substr(0, 6)) == 5);
    CHECK(svc::findInvalidUtf8(std::string_view(buffer).substr(0, 7)) == 5);
    CHECK(svc::findInvalidUtf8(std::string_view(buffer)) == kValid);
}

TEST_CASE("utf8PrefixLength cuts at the last character boundary within the limit") {
    struct PrefixCase {
        const char* name;
        std::string text;
        size_t maxBytes;
        size_t length;
    };
    const std::string euros = "\xE2\x82\xAC\xE2\x82\xAC";  // two 3-byte characters
    const std::vector<PrefixCase> cases{
        {"shorter than the limit", "abc", 10, 3},
        {"exactly the limit", "abc", 3, 3},
        {"ASCII cut", "abcdef", 4, 4},
        {"limit zero", "abc", 0, 0},
        {"limit at a boundary", euros, 3, 3},
        {"limit inside the second character", euros, 5, 3},
        {"limit inside the first character", euros, 2, 0},
        {"4-byte character kept whole or dropped", "a\xF0\x9F\x98\x80", 4, 1},
        {"2-byte character after ASCII", "ab\xC3\xA4", 3, 2},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        size_t length = svc::utf8PrefixLength(c.text, c.maxBytes);
        CHECK(length == c.length);
        CHECK(svc::findInvalidUtf8(std::string_view(c.text).substr(0, length)) == kValid);
    }
}
