#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "text/JsonWriter.hpp"

TEST_CASE("JsonWriter: string arrays round-trip through a real JSON parser, whatever the content") {
    std::string allControlCharacters;
    for (char c = 1; c < 0x20; ++c) allControlCharacters += c;
    const std::vector<std::vector<std::string>> cases{
        {},
        {""},
        {"plain", "two words"},
        {"quote \" inside", "back\\slash", "slash / stays"},
        {"line\nbreak", "tab\there", "carriage\rreturn", allControlCharacters},
        {"UTF-8: \xC3\xA4\xC3\xB6\xC3\xBC \xE2\x82\xAC \xF0\x9F\x91\x97"},
        {"Men > Shirts", "Sale > Men, casual"},
    };
    for (const auto& items : cases) {
        std::string json = svc::jsonStringArray(items);
        CAPTURE(json);
        auto parsed = nlohmann::json::parse(json, nullptr, false);
        REQUIRE_FALSE(parsed.is_discarded());
        CHECK(parsed.get<std::vector<std::string>>() == items);
    }
    CHECK(svc::jsonStringArray({"a\"b", "\x01"}) == R"(["a\"b","\u0001"])");
}
