// Unit tests of widget/WidgetContent: the content response and its JSON form.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "widget/WidgetContent.hpp"

using svc::ContentItem;
using svc::ContentResponse;
using svc::WidgetContent;

namespace {

ContentItem item(std::string sku, int64_t price, std::optional<int64_t> retail = std::nullopt) {
    ContentItem result;
    result.sku = sku;
    result.mainSku = "M-" + sku;
    result.name = "Name \"" + sku + "\" <b>";
    result.brand = "Brand";
    result.url = "https://shop.example/" + sku + "?a=1&b=2";
    result.image = "https://cdn.example/" + sku + ".jpg";
    result.price = price;
    result.retailPrice = retail;
    return result;
}

void checkSameItem(const ContentItem& actual, const ContentItem& expected) {
    CHECK(actual.sku == expected.sku);
    CHECK(actual.mainSku == expected.mainSku);
    CHECK(actual.name == expected.name);
    CHECK(actual.brand == expected.brand);
    CHECK(actual.url == expected.url);
    CHECK(actual.image == expected.image);
    CHECK(actual.price == expected.price);
    CHECK(actual.retailPrice == expected.retailPrice);
}

}  // namespace

TEST_CASE("ContentResponse: toJson and fromJson round trip") {
    ContentResponse response;
    response.currency = "PLN";
    response.locale = "pl-PL";
    response.widgets.push_back(WidgetContent{{item("A", 4999, 5999), item("B\xC3\xA4", 0)}});
    response.widgets.push_back(WidgetContent{});
    response.widgets.push_back(WidgetContent{{item("C", 9223372036854775807LL, -1)}});
    response.widgets[1].setId = "look";
    response.widgets[1].title = "City weekend";
    response.widgets[1].image = "https://cdn.example/look.jpg";
    response.widgets[1].description = "A relaxed look";

    auto parsed = ContentResponse::fromJson(response.toJson());
    REQUIRE(parsed.ok());
    CHECK(parsed->currency == "PLN");
    CHECK(parsed->locale == "pl-PL");
    REQUIRE(parsed->widgets.size() == 3);
    REQUIRE(parsed->widgets[0].items.size() == 2);
    checkSameItem(parsed->widgets[0].items[0], response.widgets[0].items[0]);
    checkSameItem(parsed->widgets[0].items[1], response.widgets[0].items[1]);
    CHECK(parsed->widgets[1].items.empty());
    CHECK(parsed->widgets[1].setId == "look");
    CHECK(parsed->widgets[1].title == "City weekend");
    CHECK(parsed->widgets[1].image == "https://cdn.example/look.jpg");
    CHECK(parsed->widgets[1].description == "A relaxed look");
    CHECK(parsed->widgets[0].description.empty());
    REQUIRE(parsed->widgets[2].items.size() == 1);
    checkSameItem(parsed->widgets[2].items[0], response.widgets[2].items[0]);
}

TEST_CASE("ContentResponse::toJson shape: retailPrice only when set") {
    ContentResponse response;
    response.widgets.push_back(WidgetContent{{item("A", 100), item("B", 100, 200)}});
    auto json = nlohmann::json::parse(response.toJson());
    CHECK(json["currency"] == "EUR");
    CHECK(json["locale"] == "de-DE");
    REQUIRE(json["widgets"].size() == 1);
    const auto& items = json["widgets"][0]["items"];
    REQUIRE(items.size() == 2);
    CHECK(items[0] == nlohmann::json{{"sku", "A"}, {"mainSku", "M-A"}, {"name", "Name \"A\" <b>"}, {"brand", "Brand"},
                                     {"url", "https://shop.example/A?a=1&b=2"}, {"image", "https://cdn.example/A.jpg"},
                                     {"price", 100}});
    CHECK_FALSE(items[0].contains("retailPrice"));
    CHECK(items[1]["retailPrice"] == 200);
    CHECK_FALSE(items[1].contains("lowestPrice30Days"));
    // Every response carries its language and the full text bundle (docs/adr/0028).
    auto empty = nlohmann::json::parse(ContentResponse{}.toJson());
    CHECK(empty["widgets"] == nlohmann::json::array());
    CHECK(empty["language"] == "en");
    CHECK(empty["texts"].size() == svc::kTextKeyCount);
    CHECK(empty["texts"]["addToCart"] == "Add to cart");
}

TEST_CASE("ContentResponse::fromJson: optional members") {
    auto parsed = ContentResponse::fromJson(
        R"({"widgets":[{"items":[{"sku":"A","name":"N","url":"/a","price":5,"retailPrice":"7","brand":3}]}]})");
    REQUIRE(parsed.ok());
    CHECK(parsed->currency == "EUR");   // defaults stay when absent
    CHECK(parsed->locale == "de-DE");
    const ContentItem& only = parsed->widgets.at(0).items.at(0);
    CHECK(only.mainSku == "");
    CHECK(only.brand == "");           // wrong type is ignored
    CHECK(only.image == "");
    CHECK(only.price == 5);
    CHECK_FALSE(only.retailPrice.has_value());  // a non-integer retail price is ignored
}

TEST_CASE("ContentResponse::fromJson refuses malformed content, naming the path") {
    struct ErrorCase {
        std::string json;
        std::string message;
    };
    const std::string good = R"({"sku":"a","name":"n","url":"u","price":1})";
    const std::vector<ErrorCase> cases{
        {"", "content: not a JSON object"},
        {"not json", "content: not a JSON object"},
        {"{\"widgets\":[}", "content: not a JSON object"},
        {"[]", "content: not a JSON object"},
        {"null", "content: not a JSON object"},
        {"{}", "content.widgets: must be an array"},
        {R"({"widgets":{}})", "content.widgets: must be an array"},
        {R"({"widgets":[1]})", "content.widgets[0]: must be an object"},
        {R"({"widgets":[{}]})", "content.widgets[0].items: must be an array"},
        {R"({"widgets":[{"items":[]},{"items":null}]})", "content.widgets[1].items: must be an array"},
        {R"({"widgets":[{"items":[5]}]})", "content.widgets[0].items[0]: needs string sku, name and url"},
        {R"({"widgets":[{"items":[{"name":"n","url":"u","price":1}]}]})", "content.widgets[0].items[0]: needs string sku, name and url"},
        {R"({"widgets":[{"items":[{"sku":1,"name":"n","url":"u","price":1}]}]})", "content.widgets[0].items[0]: needs string sku, name and url"},
        {R"({"widgets":[{"items":[{"sku":"a","url":"u","price":1}]}]})", "content.widgets[0].items[0]: needs string sku, name and url"},
        {R"({"widgets":[{"items":[{"sku":"a","name":"n","price":1}]}]})", "content.widgets[0].items[0]: needs string sku, name and url"},
        {R"({"widgets":[{"items":[)" + good + R"(,{"sku":"b","name":"n","url":"u","price":"1"}]}]})",
         "content.widgets[0].items[1].price: must be an integer number of cents"},
        {R"({"widgets":[{"items":[{"sku":"a","name":"n","url":"u","price":1.5}]}]})", "content.widgets[0].items[0].price: must be an integer number of cents"},
        {R"({"widgets":[{"items":[{"sku":"a","name":"n","url":"u"}]}]})", "content.widgets[0].items[0].price: must be an integer number of cents"},
        {R"({"widgets":[{"items":[]},{"items":[)" + good + "," + good + R"(,{"sku":"a","name":"n","url":"u","price":null}]}]})",
         "content.widgets[1].items[2].price: must be an integer number of cents"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.json);
        auto parsed = ContentResponse::fromJson(c.json);
        REQUIRE_FALSE(parsed.ok());
        CHECK(parsed.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(parsed.error().message == c.message);
    }
}
