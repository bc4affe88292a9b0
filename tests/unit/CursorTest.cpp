// Unit tests of graphql/Cursor: opaque pagination cursors bound to their list (name and
// scope: tenant, owner, arguments) and checked against tampering.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "graphql/Cursor.hpp"
#include "text/Base64.hpp"

using svc::graphql::CursorList;
using svc::testing::testCursors;

namespace {

const CursorList kSimilarOfA{"similarProducts", "tenant 1 Product A"};

}  // namespace

TEST_CASE("Cursor: encode and decode round trip; the cursor shows list and index, not the scope") {
    for (size_t index : {size_t{0}, size_t{1}, size_t{11}, size_t{99999}}) {
        CAPTURE(index);
        std::string cursor = testCursors().encode(index, kSimilarOfA);
        auto text = svc::base64UrlDecode(cursor);
        REQUIRE(text);
        CHECK(text->rfind("similarProducts:" + std::to_string(index) + ":", 0) == 0);
        CHECK(text->find("tenant") == std::string::npos);
        auto decoded = testCursors().decode(cursor, kSimilarOfA);
        REQUIRE(decoded.ok());
        CHECK(*decoded == index);
    }
}

TEST_CASE("Cursor: foreign, forged, edited or malformed cursors are refused, naming the argument and list") {
    std::string valid = *svc::base64UrlDecode(testCursors().encode(3, kSimilarOfA));
    std::string tag = valid.substr(valid.rfind(':') + 1);
    const std::vector<std::string> refused{
        testCursors().encode(3, {"otherList", "tenant 1 Product A"}),
        svc::base64UrlEncode("similarProducts:3"),                 // no tag (the unsigned format)
        svc::base64UrlEncode("similarProducts:4:" + tag),          // index edited, tag kept
        svc::base64UrlEncode("similarProducts:3:" + tag + "0"),    // tag edited
        svc::base64UrlEncode("similarProducts:03:" + tag),
        svc::base64UrlEncode("similarProducts:"),
        svc::base64UrlEncode("similarProducts:-1:" + tag),
        svc::base64UrlEncode("xsimilarProducts:3:" + tag),
        svc::graphql::CursorCodec([](std::string_view) { return std::string("0000"); }).encode(3, kSimilarOfA),  // another key
        "not base64!",
        "",
    };
    for (const auto& cursor : refused) {
        CAPTURE(cursor);
        auto decoded = testCursors().decode(cursor, kSimilarOfA);
        REQUIRE_FALSE(decoded.ok());
        CHECK(decoded.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(decoded.error().message == "after: not a cursor of this similarProducts list");
    }
}

// Regression test (issue 18): a cursor named only its list ("similarProducts:3:<tag of that>"),
// so one from tenant A's list, or from another product's or filter's list of the same name, was
// accepted on tenant B's or the other list.
TEST_CASE("Cursor: a cursor of one list is refused by a list of the same name with another scope") {
    std::string cursor = testCursors().encode(3, kSimilarOfA);
    const std::vector<CursorList> others{
        {"similarProducts", "tenant 2 Product A"},  // the same product id at another tenant
        {"similarProducts", "tenant 1 Product B"},  // another product's list
        {"similarProducts", "tenant 1 Product A "},
        {"similarProducts", ""},
    };
    for (const auto& other : others) {
        CAPTURE(other.scope);
        auto decoded = testCursors().decode(cursor, other);
        REQUIRE_FALSE(decoded.ok());
        CHECK(decoded.error().message == "after: not a cursor of this similarProducts list");
    }
    CHECK(testCursors().decode(cursor, CursorList{"similarProducts", "tenant 1 Product A"}).value() == 3);
}
