// Unit tests of text/Base64: URL-safe base64 without padding.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <optional>
#include <string>
#include <vector>

#include "text/Base64.hpp"

TEST_CASE("base64UrlEncode matches the RFC 4648 test vectors (URL alphabet, no padding)") {
    struct Vector {
        std::string bytes;
        std::string encoded;
    };
    const std::vector<Vector> vectors{
        {"", ""},
        {"f", "Zg"},
        {"fo", "Zm8"},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg"},
        {"fooba", "Zm9vYmE"},
        {"foobar", "Zm9vYmFy"},
        {"\xFB\xFF", "-_8"},        // '+' and '/' of the standard alphabet become '-' and '_'
        {"\xFF\xFF\xFF", "____"},
        {std::string("\0\0\0", 3), "AAAA"},
        {"similarProducts:11", "c2ltaWxhclByb2R1Y3RzOjEx"},
    };
    for (const auto& v : vectors) {
        CAPTURE(v.encoded);
        CHECK(svc::base64UrlEncode(v.bytes) == v.encoded);
        CHECK(svc::base64UrlDecode(v.encoded) == std::optional<std::string>(v.bytes));
    }
}

TEST_CASE("base64Url round trip over all byte values and every length") {
    std::string all;
    for (int byte = 0; byte < 256; ++byte) all += static_cast<char>(byte);
    for (size_t length = 0; length <= all.size(); ++length) {
        CAPTURE(length);
        // Rotate so that every byte value appears at every position modulo 3.
        for (size_t rotation = 0; rotation < 3; ++rotation) {
            std::string bytes = all.substr(rotation) + all.substr(0, rotation);
            bytes.resize(length);
            std::string encoded = svc::base64UrlEncode(bytes);
            CHECK(encoded.size() == (length * 4 + 2) / 3);
            CHECK(encoded.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
                  std::string::npos);
            CHECK(svc::base64UrlDecode(encoded) == std::optional<std::string>(bytes));
        }
    }
}

TEST_CASE("base64UrlDecode refuses characters outside the URL alphabet and impossible lengths") {
    const std::vector<std::string> invalid{
        "Zm9v=",     // padding is not part of the format
        "Zg==",
        "Zm+v",      // standard alphabet
        "Zm/v",
        "Zm9 v",
        "Zm9v\n",
        "Z",         // one character cannot hold a byte
        "Zm9vY",     // 4n+1 characters
        "Zm9v\xC3\xA4",
    };
    for (const auto& text : invalid) {
        CAPTURE(text);
        CHECK(svc::base64UrlDecode(text) == std::nullopt);
    }
}
