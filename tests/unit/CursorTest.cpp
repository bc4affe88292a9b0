// Unit tests of graphql/Cursor: opaque pagination cursors bound to their list.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "graphql/Cursor.hpp"
#include "text/Base64.hpp"

using svc::graphql::decodeCursor;
using svc::graphql::encodeCursor;

TEST_CASE("Cursor: encode and decode round trip") {
    for (size_t index : {size_t{0}, size_t{1}, size_t{11}, size_t{99999}}) {
        CAPTURE(index);
        std::string cursor = encodeCursor(index, "similarProducts");
        CHECK(cursor == svc::base64UrlEncode("similarProducts:" + std::to_string(index)));
        auto decoded = decodeCursor(cursor, "similarProducts");
        REQUIRE(decoded.ok());
        CHECK(*decoded == index);
    }
}

TEST_CASE("Cursor: foreign or malformed cursors are refused, naming the argument and list") {
    const std::vector<std::string> refused{
        encodeCursor(3, "otherList"),
        svc::base64UrlEncode("similarProducts"),
        svc::base64UrlEncode("similarProducts:"),
        svc::base64UrlEncode("similarProducts:-1"),
        svc::base64UrlEncode("similarProducts:x"),
        svc::base64UrlEncode("similarProducts:1 "),
        svc::base64UrlEncode("xsimilarProducts:1"),
        "not base64!",
        "",
    };
    for (const auto& cursor : refused) {
        CAPTURE(cursor);
        auto decoded = decodeCursor(cursor, "similarProducts");
        REQUIRE_FALSE(decoded.ok());
        CHECK(decoded.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(decoded.error().message == "after: not a cursor of similarProducts");
    }
}
