// Unit tests of widget/ContentRequest: the one GET request for all widgets of a page.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "widget/ContentRequest.hpp"

using svc::ContentRequest;
using svc::Touchpoint;
using svc::WidgetSpec;
using svc::WidgetType;

namespace {

WidgetSpec spec(WidgetType type, Touchpoint touchpoint, std::string sku, std::string setId = "") {
    WidgetSpec widget;
    widget.type = type;
    widget.touchpoint = touchpoint;
    widget.sku = std::move(sku);
    widget.setId = std::move(setId);
    return widget;
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percentDecode(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hexDigit(text[i + 1]) >= 0 && hexDigit(text[i + 2]) >= 0) {
            out += static_cast<char>(hexDigit(text[i + 1]) * 16 + hexDigit(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

// Splits a query string the way the server does: repeated w, t, s, i parameters.
struct Parameters {
    std::vector<std::string> types, touchpoints, skus, setIds;
};

Parameters parseQuery(const std::string& query) {
    Parameters parameters;
    size_t start = 0;
    while (start < query.size()) {
        size_t end = query.find('&', start);
        if (end == std::string::npos) end = query.size();
        std::string pair = query.substr(start, end - start);
        size_t equals = pair.find('=');
        REQUIRE(equals != std::string::npos);
        std::string key = pair.substr(0, equals);
        std::string value = percentDecode(pair.substr(equals + 1));
        if (key == "w") parameters.types.push_back(value);
        else if (key == "t") parameters.touchpoints.push_back(value);
        else if (key == "s") parameters.skus.push_back(value);
        else if (key == "i") parameters.setIds.push_back(value);
        else FAIL("unexpected parameter " << key);
        start = end + 1;
    }
    return parameters;
}

}  // namespace

TEST_CASE("ContentRequest::toQueryString: one w,t,s,i group per widget, values URL-encoded") {
    struct QueryCase {
        std::vector<WidgetSpec> widgets;
        std::string query;
    };
    const std::vector<QueryCase> cases{
        {{}, ""},
        {{spec(WidgetType::Similar, Touchpoint::Product, "SKU-1")}, "w=SIMILAR&t=product&s=SKU-1&i="},
        {{spec(WidgetType::Similar, Touchpoint::Product, "A&B C")}, "w=SIMILAR&t=product&s=A%26B%20C&i="},
        {{spec(WidgetType::Set, Touchpoint::CartLayer, "\xC3\xA4")}, "w=SET&t=cart-layer&s=%C3%A4&i="},
        {{spec(WidgetType::Similar, Touchpoint::Product, "x=1"), spec(WidgetType::SetCustom, Touchpoint::Content, "", "look #1"),
          spec(WidgetType::SetCompose, Touchpoint::Search, "")},
         "w=SIMILAR&t=product&s=x%3D1&i=&w=SET-Custom&t=content&s=&i=look%20%231&w=SET-Compose&t=search&s=&i="},
    };
    for (const auto& c : cases) {
        CAPTURE(c.query);
        CHECK(ContentRequest::toQueryString(c.widgets) == c.query);
    }
}

TEST_CASE("ContentRequest: query string and fromParameters round trip") {
    const std::vector<WidgetSpec> widgets{
        spec(WidgetType::Similar, Touchpoint::Product, "A&B C\xC3\xA4%"),
        spec(WidgetType::Set, Touchpoint::Cart, "M-1"),
        spec(WidgetType::SetCustom, Touchpoint::Category, "", "set/7?x"),
        spec(WidgetType::SetCompose, Touchpoint::Search, ""),
    };
    Parameters parameters = parseQuery(ContentRequest::toQueryString(widgets));
    auto parsed = ContentRequest::fromParameters(parameters.types, parameters.touchpoints, parameters.skus, parameters.setIds);
    REQUIRE(parsed.ok());
    REQUIRE(parsed->size() == widgets.size());
    for (size_t i = 0; i < widgets.size(); ++i) {
        CAPTURE(i);
        CHECK((*parsed)[i].type == widgets[i].type);
        CHECK((*parsed)[i].touchpoint == widgets[i].touchpoint);
        CHECK((*parsed)[i].sku == widgets[i].sku);
        CHECK((*parsed)[i].setId == widgets[i].setId);
    }
}

TEST_CASE("ContentRequest::fromParameters errors name the parameter and the widget") {
    using List = std::vector<std::string>;
    auto repeat = [](size_t n, const std::string& value) { return List(n, value); };
    struct ErrorCase {
        const char* name;
        List types, touchpoints, skus, setIds;
        std::string message;
    };
    const std::vector<ErrorCase> cases{
        {"no widgets", {}, {}, {}, {}, "w: at least one widget is required"},
        {"more than kMaxWidgets", repeat(25, "SIMILAR"), repeat(25, "product"), repeat(25, "A"), repeat(25, ""),
         "w: at most 24 widgets per request"},
        {"fewer touchpoints", {"SIMILAR", "SET"}, {"product"}, {"A", "B"}, {"", ""}, "w, t, s, i: each widget needs all four parameters"},
        {"more skus", {"SIMILAR"}, {"product"}, {"A", "B"}, {""}, "w, t, s, i: each widget needs all four parameters"},
        {"no set ids", {"SIMILAR"}, {"product"}, {"A"}, {}, "w, t, s, i: each widget needs all four parameters"},
        {"bad touchpoint at index 2", {"SIMILAR", "SET", "SIMILAR"}, {"product", "cart", "nowhere"}, {"A", "B", "C"}, {"", "", ""},
         "widget 2: data-touchpoint: 'nowhere' is not one of product, cart-layer, cart, content, category, search"},
        {"bad type at index 0", {"RANDOM"}, {"product"}, {"A"}, {""},
         "widget 0: data-svc-widget-id: 'RANDOM' is not one of SET, SIMILAR, SET-Custom, SET-Compose"},
        {"missing sku at index 1", {"SIMILAR", "SET"}, {"product", "cart"}, {"A", ""}, {"", ""}, "widget 1: data-sku: required for SET"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto parsed = ContentRequest::fromParameters(c.types, c.touchpoints, c.skus, c.setIds);
        REQUIRE_FALSE(parsed.ok());
        CHECK(parsed.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(parsed.error().message == c.message);
    }
}

TEST_CASE("ContentRequest::fromParameters accepts exactly kMaxWidgets widgets") {
    const size_t n = ContentRequest::kMaxWidgets;
    CHECK(n == 24);
    std::vector<std::string> types(n, "SIMILAR"), touchpoints(n, "product"), skus, setIds(n, "");
    for (size_t i = 0; i < n; ++i) skus.push_back("S" + std::to_string(i));
    auto parsed = ContentRequest::fromParameters(types, touchpoints, skus, setIds);
    REQUIRE(parsed.ok());
    REQUIRE(parsed->size() == n);
    CHECK(parsed->front().sku == "S0");
    CHECK(parsed->back().sku == "S23");
}
