// Unit tests of graphql/Cursor: opaque pagination cursors bound to their list and checked
// against tampering.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "graphql/Cursor.hpp"
#include "text/Base64.hpp"

using svc::testing::testCursors;

TEST_CASE("Cursor: encode and decode round trip; the cursor carries list, index and tag") {
    for (size_t index : {size_t{0}, size_t{1}, size_t{11}, size_t{99999}}) {
        CAPTURE(index);
        std::string cursor = testCursors().encode(index, "similarProducts");
        auto text = svc::base64UrlDecode(cursor);
        REQUIRE(text);
        CHECK(text->rfind("similarProducts:" + std::to_string(index) + ":", 0) == 0);
        auto decoded = testCursors().decode(cursor, "similarProducts");
        REQUIRE(decoded.ok());
        CHECK(*decoded == index);
    }
}

TEST_CASE("Cursor: foreign, forged, edited or malformed cursors are refused, naming the argument and list") {
    std::string valid = *svc::base64UrlDecode(testCursors().encode(3, "similarProducts"));
    std::string tag = valid.substr(valid.rfind(':') + 1);
    const std::vector<std::string> refused{
        testCursors().encode(3, "otherList"),
        svc::base64UrlEncode("similarProducts:3"),                 // no tag (the unsigned format)
        svc::base64UrlEncode("similarProducts:4:" + tag),          // index edited, tag kept
        svc::base64UrlEncode("similarProducts:3:" + tag + "0"),    // tag edited
        svc::base64UrlEncode("similarProducts:03:" + tag),
        svc::base64UrlEncode("similarProducts:"),
        svc::base64UrlEncode("similarProducts:-1:" + tag),
        svc::base64UrlEncode("xsimilarProducts:3:" + tag),
        svc::graphql::CursorCodec([](std::string_view) { return std::string("0000"); }).encode(3, "similarProducts"),  // another key
        "not base64!",
        "",
    };
    for (const auto& cursor : refused) {
        CAPTURE(cursor);
        auto decoded = testCursors().decode(cursor, "similarProducts");
        REQUIRE_FALSE(decoded.ok());
        CHECK(decoded.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(decoded.error().message == "after: not a cursor of similarProducts");
    }
}
