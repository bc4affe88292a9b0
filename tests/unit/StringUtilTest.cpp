// Unit tests of text/StringUtil.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "text/StringUtil.hpp"

TEST_CASE("parseInt64 accepts exactly a whole base-10 integer") {
    struct IntCase {
        std::string text;
        std::optional<int64_t> value;
    };
    const std::vector<IntCase> cases{
        {"0", 0},
        {"42", 42},
        {"+7", 7},
        {"-5", -5},
        {"007", 7},
        {"9223372036854775807", std::numeric_limits<int64_t>::max()},
        {"-9223372036854775808", std::numeric_limits<int64_t>::min()},
        {"9223372036854775808", std::nullopt},   // overflow is refused, not clamped
        {"-9223372036854775809", std::nullopt},
        {"", std::nullopt},
        {" 1", std::nullopt},
        {"1 ", std::nullopt},
        {"12,99", std::nullopt},
        {"12.99", std::nullopt},
        {"1.0", std::nullopt},
        {"0x10", std::nullopt},
        {"1e3", std::nullopt},
        {"+", std::nullopt},
        {"-", std::nullopt},
        {"++1", std::nullopt},
        {"abc", std::nullopt},
        {"12abc", std::nullopt},
        {std::string("1\0", 2), std::nullopt},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        CHECK(svc::parseInt64(c.text) == c.value);
    }
}

// Regression test (bug found and fixed): text/StringUtil.cpp parseInt64 skips one '+' and then lets std::from_chars read
// a '-', so "+-1" is parsed as -1 instead of being refused.
TEST_CASE("parseInt64 refuses a plus sign followed by a minus sign") {
    CHECK(svc::parseInt64("+-1") == std::optional<int64_t>());
    CHECK(svc::parseInt64("+-0") == std::optional<int64_t>());
}

TEST_CASE("splitList splits, trims and drops empty parts") {
    struct SplitCase {
        std::string text;
        char separator;
        std::vector<std::string> parts;
    };
    const std::vector<SplitCase> cases{
        {"a,b,c", ',', {"a", "b", "c"}},
        {" a , b ,c ", ',', {"a", "b", "c"}},
        {"Women > Jeans, Men > Jeans", ',', {"Women > Jeans", "Men > Jeans"}},
        {" , a,,b , ", ',', {"a", "b"}},
        {"a,b,", ',', {"a", "b"}},
        {",", ',', {}},
        {"", ',', {}},
        {"   ", ',', {}},
        {"single", ',', {"single"}},
        {"a;b,c", ';', {"a", "b,c"}},
        {"\ta\t|\nb\n", '|', {"a", "b"}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        CHECK(svc::splitList(c.text, c.separator) == c.parts);
    }
}

TEST_CASE("splitListInto reuses the vector's strings and ends with exactly the parts") {
    std::vector<std::string> parts = {"old one", "old two", "old three", "old four"};
    svc::splitListInto(" a , bb,,ccc ", ',', parts);
    CHECK(parts == std::vector<std::string>{"a", "bb", "ccc"});
    svc::splitListInto("one, two, three, four, five", ',', parts);
    CHECK(parts == std::vector<std::string>{"one", "two", "three", "four", "five"});
    svc::splitListInto("", ',', parts);
    CHECK(parts.empty());
}

TEST_CASE("trim and toLower") {
    CHECK(svc::trim(" \t a b \r\n") == "a b");
    CHECK(svc::trim("   ") == "");
    CHECK(svc::trim("") == "");
    CHECK(svc::trim("x") == "x");
    CHECK(svc::toLower("SKU-Main") == "sku-main");
    CHECK(svc::toLower("\xC3\x84" "BC") == "\xC3\x84" "bc");  // non-ASCII bytes are left alone
}

TEST_CASE("urlEncode keeps RFC 3986 unreserved characters and percent-encodes the rest") {
    struct EncodeCase {
        std::string text;
        std::string encoded;
    };
    const std::vector<EncodeCase> cases{
        {"", ""},
        {"AZaz09-_.~", "AZaz09-_.~"},
        {"a b&c=d", "a%20b%26c%3Dd"},
        {"/?#+%", "%2F%3F%23%2B%25"},
        {"\xC3\xA4", "%C3%A4"},
        {std::string("\0\xFF", 2), "%00%FF"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        CHECK(svc::urlEncode(c.text) == c.encoded);
    }
}
