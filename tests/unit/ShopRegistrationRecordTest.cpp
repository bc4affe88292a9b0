// The shop registration record (spec endpoint 6): each bad body is refused with the field it is about.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "shop/ShopRegistration.hpp"

using namespace svc;
using nlohmann::json;

namespace {

json goodBody() {
    return {{"api",
             {{"attributes", "https://shop.example/svc/attributes"},
              {"products", "https://shop.example/svc/products"},
              {"variantDimensions", "https://shop.example/svc/variant-dimensions"}}},
            {"plugin", {{"version", "1.4.2"}}},
            {"shop", {{"software", "Shopware"}, {"url", "https://shop.example"}, {"version", "6.5.8"}}}};
}

struct BadBody {
    const char* name;
    std::function<void(json&)> change;
    const char* message;
};

}  // namespace

TEST_CASE("a complete registration is parsed and written back in the same shape") {
    json body = goodBody();
    body["plugin"]["config"] = {{"customerGroup", "retail"}, {"taxIncluded", true}};
    body["extra"] = "ignored";
    auto parsed = parseShopRegistration(body.dump());
    REQUIRE(parsed);
    CHECK(parsed->productsUrl == "https://shop.example/svc/products");
    CHECK(parsed->variantDimensionsUrl == "https://shop.example/svc/variant-dimensions");
    CHECK(parsed->pluginConfig->at("customerGroup") == "retail");
    json echoed = toJson(*parsed);
    body.erase("extra");
    CHECK(echoed == body);
    auto again = shopRegistrationFromJson(echoed);
    REQUIRE(again);
    CHECK(*again == *parsed);
}

TEST_CASE("registration bodies are refused field by field") {
    std::vector<BadBody> cases = {
        {"not JSON", nullptr, "body: line 1, column 3: not valid JSON (syntax error while parsing object key - invalid literal)"},
        {"an array", [](json& b) { b = json::array(); }, "body: must be a JSON object with api, plugin and shop"},
        {"no api", [](json& b) { b.erase("api"); }, "api: required"},
        {"api a string", [](json& b) { b["api"] = "x"; }, "api: must be an object"},
        {"no products", [](json& b) { b["api"].erase("products"); }, "api.products: required"},
        {"relative products", [](json& b) { b["api"]["products"] = "/svc/products"; }, "api.products: must be an absolute http(s) URL"},
        {"ftp products", [](json& b) { b["api"]["products"] = "ftp://shop.example/p"; }, "api.products: must be an absolute http(s) URL"},
        {"products a number", [](json& b) { b["api"]["products"] = 7; }, "api.products: must be an absolute http(s) URL"},
        {"products without host", [](json& b) { b["api"]["products"] = "https:///p"; }, "api.products: must be an absolute http(s) URL with a host"},
        {"products with user info", [](json& b) { b["api"]["products"] = "https://u:p@shop.example/p"; },
         "api.products: must not contain user information"},
        {"attributes with a space", [](json& b) { b["api"]["attributes"] = "https://shop.example/a b"; },
         "api.attributes: contains spaces or control characters"},
        {"no variantDimensions", [](json& b) { b["api"].erase("variantDimensions"); }, "api.variantDimensions: required"},
        {"null variantDimensions", [](json& b) { b["api"]["variantDimensions"] = nullptr; }, "api.variantDimensions: required"},
        {"long URL", [](json& b) { b["api"]["attributes"] = "https://shop.example/" + std::string(2100, 'a'); },
         "api.attributes: longer than 2048 characters"},
        {"no plugin", [](json& b) { b.erase("plugin"); }, "plugin: required"},
        {"no plugin version", [](json& b) { b["plugin"].erase("version"); }, "plugin.version: required"},
        {"plugin version a number", [](json& b) { b["plugin"]["version"] = 1; }, "plugin.version: must be a string"},
        {"empty plugin version", [](json& b) { b["plugin"]["version"] = "  "; }, "plugin.version: must not be empty"},
        {"config an array", [](json& b) { b["plugin"]["config"] = json::array(); }, "plugin.config: must be an object"},
        {"config too large", [](json& b) { b["plugin"]["config"] = {{"k", std::string(17000, 'x')}}; }, "plugin.config: larger than 16384 bytes"},
        {"config too deep",
         [](json& b) {
             json deep = json::object();
             for (int i = 0; i < 20; ++i) deep = json{{"k", deep}};
             b["plugin"]["config"] = deep;
         },
         "plugin.config: nested deeper than 16 levels"},
        {"no shop", [](json& b) { b.erase("shop"); }, "shop: required"},
        {"no shop software", [](json& b) { b["shop"].erase("software"); }, "shop.software: required"},
        {"shop software with newline", [](json& b) { b["shop"]["software"] = "Shop\nware"; }, "shop.software: contains control characters"},
        {"long shop version", [](json& b) { b["shop"]["version"] = std::string(201, '1'); }, "shop.version: longer than 200 characters"},
        {"shop url relative", [](json& b) { b["shop"]["url"] = "shop.example"; }, "shop.url: must be an absolute http(s) URL"},
        {"no shop version", [](json& b) { b["shop"].erase("version"); }, "shop.version: required"},
    };
    for (const auto& bad : cases) {
        CAPTURE(bad.name);
        json body = goodBody();
        std::string text = "{not json";
        if (bad.change) {
            bad.change(body);
            text = body.dump();
        }
        auto parsed = parseShopRegistration(text);
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().code == ErrorCode::InvalidArgument);
        CHECK(parsed.error().message == bad.message);
    }
}

TEST_CASE("registration URLs: hosts with ports and IPv6 literals are absolute") {
    CHECK(validateAbsoluteHttpUrl("http://127.0.0.1:8080/p?x=1", "f"));
    CHECK(validateAbsoluteHttpUrl("HTTPS://[::1]:443/p", "f"));
    CHECK(validateAbsoluteHttpUrl("https://[::1]", "f"));
    CHECK_FALSE(validateAbsoluteHttpUrl("http://:80/p", "f"));
    CHECK_FALSE(validateAbsoluteHttpUrl("javascript:alert(1)", "f"));
}
