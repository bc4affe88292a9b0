// Unit tests of text/BoundedJson: the one reader of JSON from outside (docs/adr/0054). One table
// of texts with the limits they are read under and the exact outcome; then the cases a table
// cannot hold (a 200,000-level body, order of members, the linear depth scan on its own).
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "text/BoundedJson.hpp"
#include "text/JsonReader.hpp"

using svc::BoundedJson;
using svc::ErrorCode;
using svc::JsonLimits;

namespace {

std::string nested(size_t levels, const std::string& inner = "") {
    return std::string(levels, '[') + inner + std::string(levels, ']');
}

}  // namespace

TEST_CASE("BoundedJson: what is read, and what is refused with the place and the limit") {
    struct Case {
        const char* name;
        std::string text;
        JsonLimits limits;
        std::string message;  // empty: read
        ErrorCode code = ErrorCode::InvalidArgument;
    };
    const JsonLimits standard;
    const JsonLimits shallow{4, 1024};
    const JsonLimits small{64, 16};
    const std::vector<Case> cases{
        {"an object", R"({"a":[1,{"b":null}]})", standard, ""},
        {"exactly the depth limit", nested(64), standard, ""},
        {"one level over it", nested(65), standard, "body: line 1, column 65: nesting deeper than 64"},
        {"objects count like arrays", R"({"a":{"b":{"c":{"d":{}}}}})", shallow, "body: line 1, column 21: nesting deeper than 4"},
        {"the line and column of a deep bracket", "{\n \"a\":\n  [[[[1]]]]}", shallow, "body: line 3, column 6: nesting deeper than 4"},
        {"brackets in strings do not nest", R"(["[[[[[[","{{{{{{"])", shallow, ""},
        {"an escaped quote does not end a string", R"(["\"[[[[[[","\\",[]])", shallow, ""},
        {"closing brackets in strings do not unnest", R"([[["]]]]]]"],[[[]]]]])", shallow, "body: line 1, column 16: nesting deeper than 4"},
        {"exactly the size limit", "[\"" + std::string(12, 'x') + "\"]", small, ""},
        {"one byte over it", "[\"" + std::string(13, 'x') + "\"]", small, "body: 17 bytes, more than the limit of 16",
         ErrorCode::ResourceExhausted},
        {"syntax: the place and nlohmann's reason, never the text read", R"({"a": tru})", standard,
         "body: line 1, column 10: not valid JSON (syntax error while parsing value - invalid literal)"},
        {"syntax on a later line", "{\n\"a\": 1,\n}", standard,
         "body: line 3, column 1: not valid JSON (syntax error while parsing object key - unexpected '}'; expected string literal)"},
        {"empty", "", standard,
         "body: line 1, column 1: not valid JSON (syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal)"},
        {"unbalanced closing brackets are nlohmann's to refuse", "]]]]]][[[[", shallow,
         "body: line 1, column 1: not valid JSON (syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal)"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto read = BoundedJson::parse(c.text, "body", c.limits);
        if (c.message.empty()) {
            CHECK(read.ok());
            if (read.ok()) CHECK(*read == nlohmann::json::parse(c.text));
        } else {
            REQUIRE_FALSE(read.ok());
            CHECK(read.error().message == c.message);
            CHECK(read.error().code == c.code);
        }
    }
}

TEST_CASE("BoundedJson: a 200,000-level body is refused at its 65th bracket, in linear time") {
    // The reproduction of issue 18: {"query":"{__typename}","variables":{"x":[[[[...]]]]}} made the
    // GraphQL service's copy of `variables` recurse once per level and crash the server.
    std::string body = R"({"query":"{__typename}","variables":{"x":)" + nested(200000) + "}}";
    auto started = std::chrono::steady_clock::now();
    auto read = BoundedJson::parse(body, "body");
    auto elapsed = std::chrono::steady_clock::now() - started;
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "body: line 1, column 104: nesting deeper than 64");
    CHECK(elapsed < std::chrono::milliseconds(200));
    // Nothing deeper than the limit is ever built, so a copy and a dump of what is read cannot recurse far.
    auto deepest = BoundedJson::parse(nested(64, "1"), "body");
    REQUIRE(deepest.ok());
    nlohmann::json copy = *deepest;
    CHECK(copy.dump() == nested(64, "1"));
}

TEST_CASE("BoundedJson: parseOrdered keeps the members in the order written") {
    auto read = BoundedJson::parseOrdered(R"({"b":1,"a":2})", "file");
    REQUIRE(read.ok());
    CHECK(read->dump() == R"({"b":1,"a":2})");
    CHECK(BoundedJson::parseOrdered(nested(65), "file").error().message == "file: line 1, column 65: nesting deeper than 64");
}

TEST_CASE("BoundedJson::firstTooDeep and positionOf") {
    CHECK(BoundedJson::firstTooDeep("[[[]]]", 3) == std::string_view::npos);
    CHECK(BoundedJson::firstTooDeep("[[[]]]", 2) == 2);
    CHECK(BoundedJson::firstTooDeep(R"(["\\"[[[]]]])", 2) == 6);  // the string ends at the quote after the escaped backslash
    CHECK(BoundedJson::positionOf("ab\ncd\nef", 0) == "line 1, column 1");
    CHECK(BoundedJson::positionOf("ab\ncd\nef", 4) == "line 2, column 2");
    CHECK(BoundedJson::positionOf("ab\ncd\nef", 6) == "line 3, column 1");
}

TEST_CASE("JsonReader (the SDK's reader) applies the same limits") {
    CHECK(svc::JsonReader::kMaxDepth == JsonLimits::kDefaultMaxDepth);
    CHECK(svc::JsonReader::kMaxBytes == JsonLimits::kDefaultMaxBytes);
    CHECK(svc::JsonReader::parse(nested(64)).ok());
    CHECK(svc::JsonReader::parse(nested(200000)).error().message == "JSON at byte 64: nesting deeper than 64");
    auto large = svc::JsonReader::parse("\"" + std::string(JsonLimits::kDefaultMaxBytes, 'x') + "\"");
    REQUIRE_FALSE(large.ok());
    CHECK(large.error().code == ErrorCode::ResourceExhausted);
}
