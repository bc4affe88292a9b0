// Unit tests of text/JsonReader, the SDK's small JSON parser (the fuzz target
// fuzz_json_reader compares it with nlohmann/json on random input).
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "text/JsonReader.hpp"

using svc::JsonReader;
using svc::JsonValue;

TEST_CASE("JsonReader: values of every kind, nested") {
    auto parsed = JsonReader::parse(R"( {"a": [1, -2, 3.5e2, true, false, null, "x\u00e9\ud83d\ude00\n"], "b": {}, "c": []} )");
    REQUIRE(parsed.ok());
    const JsonValue& root = *parsed;
    REQUIRE(root.isObject());
    REQUIRE(root.members().size() == 3);
    const JsonValue* a = root.find("a");
    REQUIRE(a);
    REQUIRE(a->items().size() == 7);
    CHECK(a->items()[0].integer() == std::optional<int64_t>(1));
    CHECK(a->items()[1].integer() == std::optional<int64_t>(-2));
    CHECK(a->items()[2].isNumber());
    CHECK_FALSE(a->items()[2].isInteger());
    CHECK(a->items()[2].text() == "3.5e2");
    CHECK(a->items()[3].isBool());
    CHECK(a->items()[3].boolean());
    CHECK_FALSE(a->items()[4].boolean());
    CHECK(a->items()[5].isNull());
    CHECK(a->items()[6].text() == "x\xC3\xA9\xF0\x9F\x98\x80\n");
    CHECK(root.find("b")->isObject());
    CHECK(root.find("c")->isArray());
    CHECK(root.find("d") == nullptr);
    CHECK(root.stringMember("a") == std::nullopt);
    CHECK(a->find("x") == nullptr);  // not an object
}

TEST_CASE("JsonReader: integers are exact within int64, everything else is a number that is not an integer") {
    CHECK(JsonReader::parse("9223372036854775807")->integer() == std::optional<int64_t>(INT64_MAX));
    CHECK(JsonReader::parse("-9223372036854775808")->integer() == std::optional<int64_t>(INT64_MIN));
    for (const char* text : {"9223372036854775808", "-9223372036854775809", "1.0", "1e2", "12345678901234567890123"}) {
        CAPTURE(text);
        auto parsed = JsonReader::parse(text);
        REQUIRE(parsed.ok());
        CHECK(parsed->isNumber());
        CHECK_FALSE(parsed->isInteger());
    }
    CHECK(JsonReader::parse("-0")->integer() == std::optional<int64_t>(0));
}

TEST_CASE("JsonReader: refuses what RFC 8259 refuses, naming the byte") {
    const std::vector<std::string> bad{
        "", " ", "{", "[1,]", "{\"a\":1,}", "{'a':1}", "01", "1.", ".5", "-", "+1", "1e", "0x10", "NaN", "Infinity",
        "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
        "\"tab\there\"", "\"\xC3\"", "\"\xED\xA0\x80\"", "\"\xC0\xAF\"", "[1] 2", "{\"a\" 1}", "{1:2}", "[1 2]",
        std::string("\"a\0b\"", 5)};
    for (const auto& text : bad) {
        CAPTURE(text);
        auto parsed = JsonReader::parse(text);
        CHECK_FALSE(parsed.ok());
        if (!parsed.ok()) CHECK(parsed.error().message.rfind("JSON at byte ", 0) == 0);
    }
    CHECK(JsonReader::parse("[1,]").error().message == "JSON at byte 3: unexpected character");
}

TEST_CASE("JsonReader: a byte order mark is skipped; depth is limited") {
    CHECK(JsonReader::parse("\xEF\xBB\xBF{}").ok());
    std::string deep(JsonReader::kMaxDepth, '[');
    deep += std::string(JsonReader::kMaxDepth, ']');
    CHECK(JsonReader::parse(deep).ok());
    std::string tooDeep = "[" + deep + "]";
    auto refused = JsonReader::parse(tooDeep);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message == "JSON at byte " + std::to_string(JsonReader::kMaxDepth) + ": nesting deeper than 64");
}

TEST_CASE("JsonReader: repeated names are kept; find gives the first") {
    auto parsed = JsonReader::parse(R"({"a":"1","a":"2"})");
    REQUIRE(parsed.ok());
    CHECK(parsed->members().size() == 2);
    CHECK(parsed->stringMember("a") == std::optional<std::string>("1"));
}
