// Every reader of outside JSON in the core refuses a deeply nested text with the depth in its
// message, and none of them crashes on it (issue 18: 200,000 levels in GraphQL `variables` made the
// service's copy of them recurse until the stack ran out). The HTTP routes are tested on the real
// server in tests/server/DeepJsonTest.cpp; this is the core behind them, and the SDK's readers.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "graphql/GraphqlService.hpp"
#include "sets/SetJson.hpp"
#include "shop/ShopRegistration.hpp"
#include "tracking/EventParser.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetTexts.hpp"

using namespace svc;

namespace {

const size_t kLevels = 200000;

std::string deep() { return std::string(kLevels, '[') + std::string(kLevels, ']'); }

}  // namespace

TEST_CASE("deep JSON: every core entry point refuses it, naming the depth") {
    struct Case {
        std::string entry;
        std::function<std::string()> refusal;  // the error message (empty when it was read)
        std::string expected;
    };
    auto messageOf = [](const auto& result) { return result ? std::string() : result.error().message; };
    const std::vector<Case> cases{
        {"GraphqlService::parseRequestBody (variables)",
         [&] { return messageOf(graphql::GraphqlService::parseRequestBody(R"({"query":"{__typename}","variables":{"x":)" + deep() + "}}")); },
         "body: line 1, column 104: nesting deeper than 64"},
        {"GraphqlService::parseRequestBody (extensions)",
         [&] { return messageOf(graphql::GraphqlService::parseRequestBody(R"({"query":"{__typename}","extensions":{"x":)" + deep() + "}}")); },
         "body: line 1, column 105: nesting deeper than 64"},
        {"GraphqlService::parseQueryParameters (variables)",
         [&] {
             return messageOf(graphql::GraphqlService::parseQueryParameters({{"query", "{__typename}"}, {"variables", R"({"x":)" + deep() + "}"}}));
         },
         "variables: line 1, column 69: nesting deeper than 64"},
        {"GraphqlService::parseQueryParameters (extensions)",
         [&] {
             return messageOf(graphql::GraphqlService::parseQueryParameters({{"query", "{__typename}"}, {"extensions", R"({"x":)" + deep() + "}"}}));
         },
         "extensions: line 1, column 69: nesting deeper than 64"},
        {"setFileFromJson", [&] { return messageOf(setFileFromJson(R"({"customSets":)" + deep() + "}")); },
         "file: line 1, column 78: nesting deeper than 64"},
        {"parseShopRegistration", [&] { return messageOf(parseShopRegistration(R"({"plugin":{"config":{"x":)" + deep() + "}}}")); },
         "body: line 1, column 87: nesting deeper than 64"},
        // Events keep their own, tighter structure check (EventLimits::maxDepth) before the reader.
        {"parseEvents",
         [&] {
             auto parsed = parseEvents(R"({"type":"view","x":)" + deep() + "}");
             return parsed.ok() ? std::string() : eventProblemsError(parsed).message;
         },
         "x[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: nested too deeply"},
        // The SDK's own reader, on the content answer (whose message in the console stays the
        // same for every unreadable answer) and the operator's texts.
        {"ContentResponse::fromJson", [&] { return messageOf(ContentResponse::fromJson(R"({"widgets":)" + deep() + "}")); },
         "content: not a JSON object"},
        {"WidgetTexts::applyJson",
         [&] {
             WidgetTexts texts;
             auto status = texts.applyJson(R"({"addToCart":)" + deep() + "}");
             return status ? std::string() : status.error().message;
         },
         "texts: not valid JSON (JSON at byte 76: nesting deeper than 64)"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.entry);
        CHECK(c.refusal() == c.expected);
    }
}

TEST_CASE("deep JSON: a body of 64 levels (62 in `variables`) is read and copied like any other") {
    std::string variables = std::string(62, '[') + "1" + std::string(62, ']');
    auto request = graphql::GraphqlService::parseRequestBody(R"({"query":"{__typename}","variables":{"x":)" + variables + "}}");
    REQUIRE(request.ok());
    graphql::GraphqlRequest copy = *request;
    CHECK(copy.variables["x"].dump() == variables);
}
