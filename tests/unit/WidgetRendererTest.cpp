// Unit tests of widget/WidgetRenderer: content to escaped HTML.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "widget/WidgetRenderer.hpp"

using svc::ContentItem;
using svc::MoneyFormatter;
using svc::WidgetContent;
using svc::WidgetRenderer;
using svc::WidgetSpec;
using svc::WidgetType;

namespace {

const std::string kNbsp = "\xC2\xA0";
const std::string kEuro = "\xE2\x82\xAC";

ContentItem basicItem() {
    ContentItem item;
    item.sku = "SKU-1";
    item.mainSku = "M-1";
    item.name = "Jeans";
    item.brand = "Acme";
    item.url = "https://shop.example/p/1";
    item.image = "https://cdn.example/1.jpg";
    item.price = 3999;
    item.retailPrice = 5999;
    return item;
}

std::string renderOne(const ContentItem& item, WidgetType type = WidgetType::Similar) {
    WidgetSpec spec;
    spec.type = type;
    return WidgetRenderer(MoneyFormatter("EUR", "de-DE")).render(spec, WidgetContent{{item}});
}

size_t count(const std::string& text, const std::string& part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
    return n;
}

}  // namespace

TEST_CASE("WidgetRenderer: the complete markup of one card") {
    const std::string expected =
        "<section class=\"svc-widget svc-widget--similar\" aria-label=\"Similar products\" aria-roledescription=\"carousel\">"
        "<ul class=\"svc-widget__list\" data-svc-part=\"list\">"
        "<li class=\"svc-card\" data-svc-pos=\"0\" data-svc-part=\"p0\" data-svc-sku=\"SKU-1\" aria-roledescription=\"slide\" "
        "aria-label=\"1 of 1\">"
        "<div class=\"svc-card__body\" data-svc-part=\"c0\">"
        "<a class=\"svc-card__link\" href=\"https://shop.example/p/1\" data-svc-action=\"open\">"
        "<img class=\"svc-card__image\" src=\"https://cdn.example/1.jpg\" alt=\"Jeans\" loading=\"lazy\" decoding=\"async\" "
        "width=\"240\" height=\"320\"><span class=\"svc-card__brand\">Acme</span><span class=\"svc-card__name\">Jeans</span></a>"
        "<p class=\"svc-card__price\"><s class=\"svc-card__retail\">59,99" + kNbsp + kEuro + "</s> "
        "<span class=\"svc-card__selling\">39,99" + kNbsp + kEuro + "</span></p></div></li></ul></section>";
    CHECK(renderOne(basicItem()) == expected);
}

TEST_CASE("WidgetRenderer: add-to-cart buttons and their status only when the shop can add to cart") {
    WidgetSpec spec;
    ContentItem item = basicItem();
    item.name = "Jeans \"Slim\" <b>";
    WidgetRenderer renderer(MoneyFormatter("EUR", "de-DE"));
    svc::RenderOptions withCart;
    withCart.cartButtons = true;
    std::string html = renderer.render(spec, WidgetContent{{item, basicItem()}}, withCart);
    // The accessible name names the product; the visible text is the same everywhere.
    CHECK(html.find("<button type=\"button\" class=\"svc-card__cart\" data-svc-action=\"cart\" data-svc-part=\"b0\" "
                    "aria-label=\"Add to cart: Jeans &quot;Slim&quot; &lt;b&gt;\">Add to cart</button>"
                    "<p class=\"svc-card__status\" role=\"status\" data-svc-part=\"s0\"></p></div>") != std::string::npos);
    CHECK(count(html, "data-svc-action=\"cart\"") == 2);
    CHECK(html.find("<p class=\"svc-card__status\" role=\"status\" data-svc-part=\"s0\"></p>") != std::string::npos);
    CHECK(html.find("data-svc-part=\"s1\"") != std::string::npos);
    CHECK(html.find("data-svc-part=\"b1\"") != std::string::npos);
    std::string without = renderer.render(spec, WidgetContent{{item}}, svc::RenderOptions{});
    CHECK(without.find("<button") == std::string::npos);
    CHECK(without.find("role=\"status\"") == std::string::npos);
    // A card rendered again (an alternative picked, the shop's plugin arrived late) brings its button and status.
    std::string body = renderer.renderCardBody(item, 3, withCart);
    CHECK(body.find("data-svc-part=\"b3\"") != std::string::npos);
    CHECK(body.find("<p class=\"svc-card__status\" role=\"status\" data-svc-part=\"s3\"></p>") != std::string::npos);
    CHECK(renderer.renderCardBody(item, 3, svc::RenderOptions{}).find("svc-card__") != std::string::npos);
    CHECK(renderer.renderCardBody(item, 3, svc::RenderOptions{}).find("svc-card__cart") == std::string::npos);
    CHECK(renderer.renderCardBody(item, 3, svc::RenderOptions{}).find("role=\"status\"") == std::string::npos);
}

TEST_CASE("WidgetRenderer: a position with alternatives shows its item and one pressed-state button per choice") {
    ContentItem item = basicItem();
    ContentItem first = basicItem();
    first.sku = "ALT-1";
    first.name = "Chinos <1>";
    ContentItem second = basicItem();
    second.sku = "ALT-2";
    second.name = "Cargo";
    item.alternatives = {first, second};
    WidgetSpec spec;
    spec.type = WidgetType::Set;
    std::string html = WidgetRenderer(MoneyFormatter("EUR", "de-DE")).render(spec, WidgetContent{{basicItem(), item}});
    // The second position (1): its own item is shown, the alternatives are choices.
    CHECK(html.find("<li class=\"svc-card\" data-svc-pos=\"1\" data-svc-part=\"p1\" data-svc-sku=\"SKU-1\" aria-roledescription=\"slide\" aria-label=\"2 of 2\">") != std::string::npos);
    CHECK(html.find("<div class=\"svc-card__choices\" role=\"group\" aria-label=\"Alternatives for Jeans\">"
                    "<button type=\"button\" class=\"svc-card__choice\" data-svc-action=\"alt\" data-svc-alt=\"0\" "
                    "data-svc-part=\"a1-0\" aria-pressed=\"true\">Jeans</button>"
                    "<button type=\"button\" class=\"svc-card__choice\" data-svc-action=\"alt\" data-svc-alt=\"1\" "
                    "data-svc-part=\"a1-1\" aria-pressed=\"false\">Chinos &lt;1&gt;</button>"
                    "<button type=\"button\" class=\"svc-card__choice\" data-svc-action=\"alt\" data-svc-alt=\"2\" "
                    "data-svc-part=\"a1-2\" aria-pressed=\"false\">Cargo</button></div></li>") != std::string::npos);
    CHECK(count(html, "svc-card__choices") == 1);  // the first position has no alternatives
    CHECK(html.find("ALT-1") == std::string::npos);  // not shown until chosen
    CHECK(&svc::choiceAt(item, 0) == &item);
    CHECK(svc::choiceAt(item, 2).sku == "ALT-2");
    CHECK(&svc::choiceAt(item, 3) == &item);  // out of range: the item itself
}

TEST_CASE("WidgetRenderer: feed text is escaped in element content and in attributes") {
    ContentItem item = basicItem();
    item.name = "<script>alert(\"x\")</script> & 'y'";
    item.brand = "<b>Brand</b>";
    item.sku = "\"><img src=x>";
    std::string html = renderOne(item);
    const std::string escapedName = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;";
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("<b>") == std::string::npos);
    CHECK(html.find("<span class=\"svc-card__name\">" + escapedName + "</span>") != std::string::npos);
    CHECK(html.find("alt=\"" + escapedName + "\"") != std::string::npos);
    CHECK(html.find("<span class=\"svc-card__brand\">&lt;b&gt;Brand&lt;/b&gt;</span>") != std::string::npos);
    CHECK(html.find("data-svc-sku=\"&quot;&gt;&lt;img src=x&gt;\"") != std::string::npos);
    CHECK(count(html, "<img") == 1);
}

TEST_CASE("WidgetRenderer: URLs are checked and escaped") {
    struct UrlCase {
        std::string url;
        std::string href;
    };
    const std::vector<UrlCase> cases{
        {"javascript:alert(1)", "href=\"\""},
        {" JAVASCRIPT:alert(1)", "href=\"\""},
        {"data:text/html,x", "href=\"\""},
        {"https://shop.example/?a=1&b=\"2\"", "href=\"https://shop.example/?a=1&amp;b=&quot;2&quot;\""},
        {"/p/1?x=y", "href=\"/p/1?x=y\""},
    };
    for (const auto& c : cases) {
        CAPTURE(c.url);
        ContentItem item = basicItem();
        item.url = c.url;
        std::string html = renderOne(item);
        CHECK(html.find("<a class=\"svc-card__link\" " + c.href + " data-svc-action=\"open\">") != std::string::npos);
        CHECK(html.find("javascript") == std::string::npos);
    }
    SUBCASE("an unsafe image is left out, not written with an empty src") {
        ContentItem item = basicItem();
        item.image = "javascript:alert(1)";
        std::string html = renderOne(item);
        CHECK(html.find("<img") == std::string::npos);
        CHECK(html.find("javascript") == std::string::npos);
    }
    SUBCASE("no image, no brand") {
        ContentItem item = basicItem();
        item.image = "";
        item.brand = "";
        std::string html = renderOne(item);
        CHECK(html.find("<img") == std::string::npos);
        CHECK(html.find("svc-card__brand") == std::string::npos);
        CHECK(html.find("href=\"https://shop.example/p/1\" data-svc-action=\"open\"><span class=\"svc-card__name\">Jeans</span></a>") != std::string::npos);
    }
}

TEST_CASE("WidgetRenderer: the retail price is crossed out only when above the selling price") {
    struct PriceCase {
        std::optional<int64_t> retail;
        int64_t price;
        bool crossedOut;
    };
    const std::vector<PriceCase> cases{
        {std::nullopt, 1000, false},
        {1000, 1000, false},
        {999, 1000, false},
        {1001, 1000, true},
        {0, 0, false},
    };
    for (const auto& c : cases) {
        CAPTURE(c.price);
        CAPTURE(c.retail.value_or(-1));
        ContentItem item = basicItem();
        item.price = c.price;
        item.retailPrice = c.retail;
        std::string html = renderOne(item);
        std::string selling = "<span class=\"svc-card__selling\">" + MoneyFormatter("EUR", "de-DE").format(c.price) + "</span>";
        CHECK(html.find(selling) != std::string::npos);
        if (c.crossedOut) {
            std::string retail = "<s class=\"svc-card__retail\">" + MoneyFormatter("EUR", "de-DE").format(*c.retail) + "</s> ";
            CHECK(html.find("<p class=\"svc-card__price\">" + retail + selling + "</p>") != std::string::npos);
        } else {
            CHECK(html.find("<s ") == std::string::npos);
            CHECK(html.find("<p class=\"svc-card__price\">" + selling + "</p>") != std::string::npos);
        }
    }
}

TEST_CASE("WidgetRenderer: heading and modifier per widget type") {
    struct TypeCase {
        WidgetType type;
        std::string opening;
    };
    const std::vector<TypeCase> cases{
        {WidgetType::Similar, "<section class=\"svc-widget svc-widget--similar\" aria-label=\"Similar products\" aria-roledescription=\"carousel\">"},
        {WidgetType::Set, "<section class=\"svc-widget svc-widget--set\" aria-label=\"Complete the look\" aria-roledescription=\"carousel\">"},
        {WidgetType::SetCustom, "<section class=\"svc-widget svc-widget--set-custom\" aria-label=\"Shop the look\" aria-roledescription=\"carousel\">"},
        {WidgetType::SetCompose, "<section class=\"svc-widget svc-widget--set-compose\" aria-label=\"Complete the look\" aria-roledescription=\"carousel\">"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.opening);
        CHECK(renderOne(basicItem(), c.type).rfind(c.opening, 0) == 0);
    }
}

TEST_CASE("WidgetRenderer: items in order, formatted with the given currency and locale; empty content renders nothing") {
    ContentItem first = basicItem();
    ContentItem second = basicItem();
    second.sku = "SKU-2";
    second.price = 123456;
    second.retailPrice.reset();
    WidgetRenderer renderer(MoneyFormatter("USD", "en-US"));
    std::string html = renderer.render(WidgetSpec{}, WidgetContent{{first, second}});
    CHECK(count(html, "<li class=\"svc-card\"") == 2);
    size_t one = html.find("data-svc-sku=\"SKU-1\"");
    size_t two = html.find("data-svc-sku=\"SKU-2\"");
    REQUIRE(one != std::string::npos);
    REQUIRE(two != std::string::npos);
    CHECK(one < two);
    CHECK(html.find("<span class=\"svc-card__selling\">$1,234.56</span>") != std::string::npos);
    CHECK(html.find("<s class=\"svc-card__retail\">$59.99</s>") != std::string::npos);
    CHECK(renderer.render(WidgetSpec{}, WidgetContent{}) == "");
}

TEST_CASE("WidgetRenderer: SET-Custom shows the set's photo, described by the set, and its title before its products") {
    WidgetSpec spec;
    spec.type = WidgetType::SetCustom;
    WidgetRenderer renderer(MoneyFormatter("EUR", "de-DE"));
    struct Case {
        std::string image, title, description, figure;
    };
    const std::vector<Case> cases = {
        {"https://cdn.example/look.jpg", "City <weekend>", "A \"relaxed\" look",
         "<figure class=\"svc-widget__look\"><img class=\"svc-widget__photo\" src=\"https://cdn.example/look.jpg\" "
         "alt=\"A &quot;relaxed&quot; look\" decoding=\"async\" width=\"480\" height=\"640\">"
         "<figcaption class=\"svc-widget__title\">City &lt;weekend&gt;</figcaption></figure>"},
        // Without a description the title names the photo.
        {"https://cdn.example/look.jpg", "City", "",
         "<figure class=\"svc-widget__look\"><img class=\"svc-widget__photo\" src=\"https://cdn.example/look.jpg\" alt=\"City\" "
         "decoding=\"async\" width=\"480\" height=\"640\"><figcaption class=\"svc-widget__title\">City</figcaption></figure>"},
        {"", "City", "A look", "<figure class=\"svc-widget__look\"><figcaption class=\"svc-widget__title\">City</figcaption></figure>"},
        // A photo URL with a script scheme is no photo.
        {"javascript:alert(1)", "", "A look", ""},
        {"", "", "", ""},
    };
    for (const auto& c : cases) {
        CAPTURE(c.image);
        CAPTURE(c.title);
        WidgetContent content{{basicItem()}};
        content.image = c.image;
        content.title = c.title;
        content.description = c.description;
        std::string html = renderer.render(spec, content);
        size_t list = html.find("<ul class=\"svc-widget__list\"");
        REQUIRE(list != std::string::npos);
        if (c.figure.empty()) {
            CHECK(html.find("<figure") == std::string::npos);
            continue;
        }
        size_t figure = html.find(c.figure);
        REQUIRE(figure != std::string::npos);
        CHECK(figure < list);
    }
    // Only SET-Custom is a photo with its products.
    WidgetContent content{{basicItem()}};
    content.image = "https://cdn.example/look.jpg";
    content.title = "City";
    spec.type = WidgetType::Set;
    CHECK(renderer.render(spec, content).find("<figure") == std::string::npos);
}
