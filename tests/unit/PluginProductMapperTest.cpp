// The shop plugin's JSON contract mapped onto feed records (docs/api/shop-plugin.md); every
// refused product or answer names its JSON path.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "feed/CsvWriter.hpp"
#include "feed/PluginProductMapper.hpp"
#include "text/Utf8.hpp"

using namespace svc;
using nlohmann::json;

namespace {

json attributes() { return {{"data", {{{"name", "material"}}, {{"name", "size"}}, {{"name", "color"}}, {{"name", "fit"}}}}}; }
json dimensions() { return {{"data", {{{"name", "size"}}, {{"name", "fit"}}}}}; }

json product() {
    return {{"sku", "TS-1-M"},
            {"mainSku", "TS-1"},
            {"model", "TS"},
            {"name", "T-shirt"},
            {"stock", 4},
            {"retailPrice", 2999},
            {"discountPrice", 1999},
            {"deeplink", "https://shop.example/p/ts-1"},
            {"image", "https://shop.example/i/ts-1.jpg"},
            {"brand", "Acme"},
            {"color", "blue"},
            {"description", "A \"soft\" shirt;\nline two"},
            {"categories", {"Men > Shirts", "Sale"}},
            {"attributes", {{"material", "cotton"}, {"size", "M"}, {"fit", "regular"}, {"color", "ignored"}}}};
}

PluginProductMapper fullMapper() {
    auto mapper = PluginProductMapper::create(attributes(), dimensions(), false);
    REQUIRE(mapper);
    return *mapper;
}

std::string column(const PluginProductMapper& mapper, const std::vector<std::string>& record, const std::string& name) {
    for (size_t i = 0; i < mapper.header().size(); ++i) {
        if (mapper.header()[i] == name) return record.at(i);
    }
    FAIL("no column " << name);
    return "";
}

}  // namespace

TEST_CASE("plugin products map onto the feed record: base fields, categories, attributes, variant from dimensions") {
    auto mapper = fullMapper();
    // Attributes named like base fields (color) are not columns; the product's own key fills the field.
    CHECK(mapper.header() == std::vector<std::string>{"sku", "main-sku", "model", "variant", "name", "stock", "retail-price",
                                                      "discount-price", "lowest-price-30d", "deeplink", "image", "thumbnail",
                                                      "marke", "farbe", "beschreibung", "category-path", "material", "size", "fit"});
    auto record = mapper.map(product(), "data[0]");
    REQUIRE(record);
    CHECK(column(mapper, *record, "sku") == "TS-1-M");
    CHECK(column(mapper, *record, "variant") == "M / regular");
    CHECK(column(mapper, *record, "stock") == "4");
    CHECK(column(mapper, *record, "discount-price") == "1999");
    CHECK(column(mapper, *record, "lowest-price-30d") == "");
    CHECK(column(mapper, *record, "category-path") == "Men > Shirts,Sale");
    CHECK(column(mapper, *record, "farbe") == "blue");
    CHECK(column(mapper, *record, "material") == "cotton");

    json own = product();
    own["variant"] = "Medium";
    own["stock"] = true;
    own["attributes"]["material"] = json::array({"cotton", 5, false});
    auto second = mapper.map(own, "data[1]");
    REQUIRE(second);
    CHECK(column(mapper, *second, "variant") == "Medium");
    CHECK(column(mapper, *second, "stock") == "1");
    CHECK(column(mapper, *second, "material") == "cotton,5,false");

    std::string csv;
    appendCsvRecord(csv, {"a\"b", "c;d", ""});
    CHECK(csv == "\"a\"\"b\";\"c;d\";\"\"\n");
}

TEST_CASE("a delta mapper carries sku, stock and prices only") {
    auto mapper = PluginProductMapper::create(attributes(), dimensions(), true);
    REQUIRE(mapper);
    CHECK(mapper->header() == std::vector<std::string>{"sku", "stock", "retail-price", "discount-price", "lowest-price-30d"});
    json update = {{"sku", "TS-1-M"}, {"stock", 0}, {"retailPrice", 2999}, {"attributes", {{"unknown", 1}}}};
    auto record = mapper->map(update, "data[0]");
    REQUIRE(record);
    CHECK(*record == std::vector<std::string>{"TS-1-M", "0", "2999", "", ""});
}

TEST_CASE("bad plugin products are refused naming the JSON path") {
    struct Case {
        const char* name;
        std::function<void(json&)> change;
        const char* message;
    };
    std::vector<Case> cases = {
        {"not an object", [](json& p) { p = json::array(); }, "data[7]: must be an object"},
        {"no sku", [](json& p) { p.erase("sku"); }, "data[7].sku: required"},
        {"empty sku", [](json& p) { p["sku"] = " "; }, "data[7].sku: must not be empty"},
        {"numeric sku", [](json& p) { p["sku"] = 12; }, "data[7].sku: must be a string"},
        {"long sku", [](json& p) { p["sku"] = std::string(201, 's'); }, "data[7].sku: longer than 200 bytes"},
        {"float price", [](json& p) { p["retailPrice"] = 29.99; }, "data[7].retailPrice: must be an integer number of cents, not 29.99"},
        {"negative price", [](json& p) { p["discountPrice"] = -1; }, "data[7].discountPrice: must be a non-negative integer number of cents"},
        {"string price", [](json& p) { p["lowestPrice30d"] = "1999"; }, "data[7].lowestPrice30d: must be a non-negative integer number of cents"},
        {"huge price", [](json& p) { p["retailPrice"] = json(uint64_t{18446744073709551615ull}); },
         "data[7].retailPrice: must be a non-negative integer number of cents"},
        {"negative stock", [](json& p) { p["stock"] = -3; }, "data[7].stock: must be a non-negative integer quantity or a boolean"},
        {"relative deeplink", [](json& p) { p["deeplink"] = "/p/1"; }, "data[7].deeplink: must be an absolute http(s) URL"},
        {"javascript image", [](json& p) { p["image"] = "javascript:alert(1)"; }, "data[7].image: must be an absolute http(s) URL"},
        {"categories a string", [](json& p) { p["categories"] = "Men"; }, "data[7].categories: must be an array of category paths"},
        {"category with comma", [](json& p) { p["categories"][1] = "Shoes, Boots"; }, "data[7].categories[1]: must not contain ','"},
        {"category a number", [](json& p) { p["categories"][0] = 3; }, "data[7].categories[0]: must be a string"},
        {"name with NUL", [](json& p) { p["name"] = std::string("a\0b", 3); }, "data[7].name: contains a NUL character"},
        {"attributes an array", [](json& p) { p["attributes"] = json::array(); }, "data[7].attributes: must be an object"},
        {"unannounced attribute", [](json& p) { p["attributes"]["heel"] = "5 cm"; }, "data[7].attributes.heel: not announced by the attributes endpoint"},
        {"attribute an object", [](json& p) { p["attributes"]["material"] = json::object(); },
         "data[7].attributes.material: must be a string, number, boolean or an array of them"},
        {"attribute nested array", [](json& p) { p["attributes"]["material"] = json::array({json::array()}); },
         "data[7].attributes.material[0]: must be a string, number or boolean"},
    };
    auto mapper = fullMapper();
    for (const auto& bad : cases) {
        CAPTURE(bad.name);
        json changed = product();
        bad.change(changed);
        auto record = mapper.map(changed, "data[7]");
        REQUIRE_FALSE(record);
        CHECK(record.error().message == bad.message);
    }
}

TEST_CASE("bad attribute and variant dimension answers are refused naming the endpoint and path") {
    struct Case {
        json attributes;
        json dimensions;
        const char* message;
    };
    std::vector<Case> cases = {
        {json::array(), dimensions(), "attributes: the answer must be a JSON object with data"},
        {json{{"items", json::array()}}, dimensions(), "attributes: data: required, an array"},
        {json{{"data", {"size"}}}, dimensions(), "attributes: data[0]: must be an object with name"},
        {json{{"data", {{{"label", "Size"}}}}}, dimensions(), "attributes: data[0].name: required, a string"},
        {json{{"data", {{{"name", " size"}}}}}, dimensions(), "attributes: data[0].name: must be non-empty without surrounding spaces"},
        {json{{"data", {{{"name", "size"}}, {{"name", "Size"}}}}}, dimensions(), "attributes: data[1].name: 'Size' is listed twice"},
        {json{{"data", {{{"name", std::string(65, 'a')}}}}}, dimensions(), "attributes: data[0].name: longer than 64 bytes"},
        {attributes(), json{{"data", {{{"name", "length"}}}}}, "variantDimensions: data[0].name: 'length' is not announced by the attributes endpoint"},
        {attributes(), json{{"data", 3}}, "variantDimensions: data: required, an array"},
    };
    for (const auto& bad : cases) {
        CAPTURE(bad.message);
        auto mapper = PluginProductMapper::create(bad.attributes, bad.dimensions, false);
        REQUIRE_FALSE(mapper);
        CHECK(mapper.error().message == bad.message);
    }
}

TEST_CASE("product pages are checked against the request") {
    json page = {{"limit", 50}, {"offset", 50}, {"total", 120}, {"data", json::array({product()})}};
    auto parsed = parsePluginProductPage(page, 50, 50);
    REQUIRE(parsed);
    CHECK(parsed->total == 120);
    CHECK(parsed->data->size() == 1);

    struct Case {
        std::function<void(json&)> change;
        const char* message;
    };
    std::vector<Case> cases = {
        {[](json& p) { p.erase("total"); }, "total: required, a non-negative integer"},
        {[](json& p) { p["limit"] = "50"; }, "limit: required, a non-negative integer"},
        {[](json& p) { p["total"] = -1; }, "total: must be a non-negative integer"},
        {[](json& p) { p["offset"] = 0; }, "offset: the answer is for offset 0; svc asked for 50"},
        {[](json& p) { p["data"] = json::object(); }, "data: required, an array of products"},
        {[](json& p) { p["data"] = json::array({1, 2, 3}); }, "data: 3 products, more than the limit of 2 svc asked for"},
        {[](json& p) { p = "x"; }, "the answer must be a JSON object with limit, offset, total and data"},
    };
    for (const auto& bad : cases) {
        CAPTURE(bad.message);
        json changed = page;
        bad.change(changed);
        auto result = parsePluginProductPage(changed, 50, 2);
        REQUIRE_FALSE(result);
        CHECK(result.error().message == bad.message);
    }
}

TEST_CASE("plugin error answers become one clean line") {
    CHECK(pluginErrorText(json{{"error", "AUTH_ERROR"}, {"message", "token\nrevoked"}}) == "AUTH_ERROR: token revoked");
    CHECK(pluginErrorText(json{{"error", "GENERAL_ERROR"}}) == "GENERAL_ERROR");
    CHECK(pluginErrorText(json{{"data", json::array()}}) == "");
    CHECK(pluginErrorText(json::array()) == "");
    std::string longMessage;
    for (int i = 0; i < 200; ++i) longMessage += "é";
    std::string text = pluginErrorText(json{{"error", "GENERAL_ERROR"}, {"message", longMessage}});
    CHECK(text.size() <= 300);
    CHECK(json(text).dump().size() > 0);  // still valid UTF-8 after the cut

    // An error code that fills the limit alone leaves no room for the message (found by
    // fuzz_plugin_json: the ": " used to be added past the limit).
    std::string longCode(299, 'E');
    longCode += "\xC3\xA9";  // an e-acute that straddles byte 300
    text = pluginErrorText(json{{"error", longCode}, {"message", "token revoked"}});
    CHECK(text == std::string(299, 'E'));
    text = pluginErrorText(json{{"error", std::string(290, 'E')}, {"message", longMessage}});
    CHECK(text.size() <= 300);
    CHECK(text.substr(0, 292) == std::string(290, 'E') + ": ");
    CHECK(svc::findInvalidUtf8(text) == std::string::npos);
}
