// Unit tests of the operator's widget presentation in the core: text bundles and their
// validation, the language rule, country price rules, and how the renderer uses them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tenant/LanguageRule.hpp"
#include "tenant/WidgetSettings.hpp"
#include "widget/WidgetTexts.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetRenderer.hpp"

using namespace svc;

namespace {

const std::string kNbsp = "\xC2\xA0";
const std::string kEuro = "\xE2\x82\xAC";

ContentItem reducedItem() {
    ContentItem item;
    item.sku = "SKU-1";
    item.mainSku = "M-1";
    item.name = "Jeans";
    item.url = "https://shop.example/p/1";
    item.image = "https://cdn.example/1.jpg";
    item.price = 3999;
    item.retailPrice = 5999;
    item.lowestPrice30Days = 3499;
    return item;
}

std::string render(const WidgetTexts& texts, const std::vector<ContentItem>& items, WidgetType type = WidgetType::Similar) {
    WidgetSpec spec;
    spec.type = type;
    RenderOptions options;
    options.cartButtons = true;
    return WidgetRenderer(MoneyFormatter("EUR", "de-DE"), texts).render(spec, WidgetContent{items}, options);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("WidgetTexts: built-in English and German bundles cover every key; other languages have none") {
    auto english = WidgetTexts::builtIn("en");
    auto german = WidgetTexts::builtIn("de");
    REQUIRE(english);
    REQUIRE(german);
    CHECK(*english == WidgetTexts());
    CHECK(german->get(TextKey::AddToCart) == "In den Warenkorb");
    for (size_t k = 0; k < kTextKeyCount; ++k) {
        auto key = static_cast<TextKey>(k);
        CAPTURE(WidgetTexts::nameOf(key));
        CHECK(!english->get(key).empty());
        CHECK(!german->get(key).empty());
        CHECK(WidgetTexts::keyNamed(WidgetTexts::nameOf(key)) == key);
    }
    CHECK(!WidgetTexts::builtIn("fr"));
    CHECK(!WidgetTexts::builtIn("EN"));
}

TEST_CASE("WidgetTexts: a bundle changes only its keys; bad bundles are refused naming the key, changing nothing") {
    WidgetTexts texts;
    REQUIRE(texts.applyJson(R"({"addToCart": "Ajouter au panier", "slideOf": "{index} sur {count}"})"));
    CHECK(texts.get(TextKey::AddToCart) == "Ajouter au panier");
    CHECK(texts.format(TextKey::SlideOf, {}, {}, "2", "5") == "2 sur 5");
    CHECK(texts.get(TextKey::TitleSimilar) == "Similar products");

    struct Bad {
        std::string json;
        std::string message;
    };
    const std::vector<Bad> cases{
        {R"({"addToKart": "x"})", "texts.addToKart: unknown text key"},
        {R"({"addToCart": 5})", "texts.addToCart: must be a string"},
        {R"({"addToCart": ""})", "texts.addToCart: must not be empty"},
        {R"({"addToCart": "Buy {name}"})", "texts.addToCart: placeholder {name} is not allowed (this text has none)"},
        {R"({"alternativesFor": "Instead of {product}"})", "texts.alternativesFor: placeholder {product} is not allowed (allowed: {name})"},
        {R"({"next": "x", "addToCart": "line\nbreak"})", "texts.next: unknown text key"},
        {R"({"addToCart": "line\nbreak"})", "texts.addToCart: contains a control character"},
        {"{\"addToCart\": \"" + std::string(201, 'x') + "\"}", "texts.addToCart: longer than 200 bytes"},
        {R"(["addToCart"])", "texts: must be a JSON object"},
        {R"({"addToCart": "x")", "texts: not valid JSON"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.json);
        WidgetTexts before = texts;
        auto status = texts.applyJson(c.json);
        REQUIRE(!status);
        CHECK(status.error().message.rfind(c.message, 0) == 0);
        CHECK(texts == before);
    }
}

TEST_CASE("WidgetTexts: placeholders are filled in one pass, so values are never re-read as placeholders") {
    WidgetTexts texts;
    CHECK(texts.format(TextKey::AlternativesFor, "Shirt {price}") == "Alternatives for Shirt {price}");
    CHECK(texts.format(TextKey::LowestPrice30Days, {}, "9,99 €") == "Lowest price of the last 30 days: 9,99 €");
}

TEST_CASE("LanguageRule: the page's language where the rule reads it and texts exist, else the default") {
    auto known = [](const std::string& language) { return language == "en" || language == "de" || language == "fr"; };
    struct Case {
        LanguageSource source;
        std::string defaultLanguage;
        std::string htmlLang;
        std::string pathSegment;
        std::string expected;
    };
    const std::vector<Case> cases{
        {LanguageSource::HtmlLang, "en", "de-AT", "fr", "de"},
        {LanguageSource::HtmlLang, "en", "FR", "", "fr"},
        {LanguageSource::HtmlLang, "de", "it", "", "de"},  // no texts for Italian
        {LanguageSource::HtmlLang, "de", "", "", "de"},
        {LanguageSource::HtmlLang, "en", "d3", "", "en"},  // not a language code
        {LanguageSource::PathSegment, "en", "de", "fr", "fr"},
        {LanguageSource::PathSegment, "en", "de", "de_ch", "de"},
        {LanguageSource::PathSegment, "en", "de", "products", "en"},
        {LanguageSource::Fixed, "de", "fr", "fr", "de"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.htmlLang);
        CAPTURE(c.pathSegment);
        LanguageRule rule{c.source, c.defaultLanguage};
        CHECK(rule.resolve(c.htmlLang, c.pathSegment, known) == c.expected);
    }
    CHECK(!LanguageRule::parseSource("browser", "--language-rule"));
    CHECK(LanguageRule::parseSource("browser", "--language-rule").error().message.rfind("--language-rule: 'browser'", 0) == 0);
}

TEST_CASE("WidgetSettings: the tenant's bundle over the language's built-in one; EU countries require the 30-day price") {
    WidgetSettings settings;
    settings.textBundles["de"] = R"({"addToCart": "Ab in den Korb"})";
    settings.textBundles["fr"] = R"({"addToCart": "Ajouter"})";
    CHECK(settings.textsFor("de").get(TextKey::AddToCart) == "Ab in den Korb");
    CHECK(settings.textsFor("de").get(TextKey::AddedToCart) == "Zum Warenkorb hinzugefügt");
    CHECK(settings.textsFor("fr").get(TextKey::AddToCart) == "Ajouter");
    CHECK(settings.textsFor("fr").get(TextKey::AddedToCart) == "Added to cart");  // English underneath
    CHECK(settings.hasTexts("fr"));
    CHECK(!settings.hasTexts("it"));

    for (const char* country : {"DE", "AT", "FR", "PL"}) {
        settings.country = country;
        CHECK(settings.requiresLowestPrice30Days());
    }
    for (const char* country : {"", "CH", "GB", "US"}) {
        settings.country = country;
        CHECK(!settings.requiresLowestPrice30Days());
    }
    CHECK(*WidgetSettings::validCountry("de", "--country") == "DE");
    CHECK(WidgetSettings::validCountry("DEU", "--country").error().message.rfind("--country: 'DEU'", 0) == 0);
    CHECK(WidgetSettings::validCss(".svc-widget { color: red }", "css").ok());
    CHECK(WidgetSettings::validCss("</style><script>", "css").error().message.rfind("css: contains '<'", 0) == 0);
    CHECK(WidgetSettings::validCss("@import url(x.css);", "css").error().message.rfind("css: line 1, column 1: @import", 0) == 0);
}

TEST_CASE("ContentResponse: texts, language and the 30-day price survive the trip from server to SDK") {
    ContentResponse response;
    response.language = "de";
    response.texts = *WidgetTexts::builtIn("de");
    response.texts.set(TextKey::TitleSimilar, "Das könnte passen \"<b>\"");
    response.widgets.push_back(WidgetContent{{reducedItem()}});
    auto back = ContentResponse::fromJson(response.toJson());
    REQUIRE(back);
    CHECK(back->language == "de");
    CHECK(back->texts == response.texts);
    REQUIRE(back->widgets.size() == 1);
    CHECK(back->widgets[0].items[0].lowestPrice30Days == 3499);

    // An older server sends no texts: the built-in English ones apply.
    auto old = ContentResponse::fromJson(R"({"widgets": []})");
    REQUIRE(old);
    CHECK(old->texts == WidgetTexts());
}

TEST_CASE("WidgetRenderer: every visible text and accessible name comes from the bundle") {
    WidgetTexts german = *WidgetTexts::builtIn("de");
    ContentItem item = reducedItem();
    item.alternatives = {reducedItem()};
    std::string html = render(german, {item, reducedItem()}, WidgetType::Set);
    CHECK(contains(html, "aria-label=\"Komplettiere den Look\" aria-roledescription=\"Karussell\""));
    CHECK(contains(html, "aria-roledescription=\"Folie\" aria-label=\"1 von 2\""));
    CHECK(contains(html, "aria-label=\"2 von 2\""));
    CHECK(contains(html, "aria-label=\"In den Warenkorb: Jeans\">In den Warenkorb</button>"));
    CHECK(contains(html, "aria-label=\"Alternativen zu Jeans\""));
    CHECK(contains(html, "Niedrigster Preis der letzten 30 Tage: 34,99" + kNbsp + kEuro));
    CHECK(!contains(html, "Add to cart"));
    CHECK(!contains(html, "Complete the look"));
}

TEST_CASE("WidgetRenderer: the operator's texts are escaped like feed values") {
    WidgetTexts texts;
    REQUIRE(texts.applyJson(R"({"titleSimilar": "<img src=x onerror=alert(1)>", "addToCart": "Buy \"now\" & <b>save</b>",
                                "alternativesFor": "\"><script>{name}"})"));
    ContentItem item = reducedItem();
    item.name = "<i>Jeans</i>";
    item.alternatives = {reducedItem()};
    std::string html = render(texts, {item});
    CHECK(contains(html, "aria-label=\"&lt;img src=x onerror=alert(1)&gt;\""));
    CHECK(contains(html, ">Buy &quot;now&quot; &amp; &lt;b&gt;save&lt;/b&gt;</button>"));
    // The accessible name starts with the visible text, then the (escaped) product name.
    CHECK(contains(html, "aria-label=\"Buy &quot;now&quot; &amp; &lt;b&gt;save&lt;/b&gt;: &lt;i&gt;Jeans&lt;/i&gt;\""));
    CHECK(contains(html, "aria-label=\"&quot;&gt;&lt;script&gt;&lt;i&gt;Jeans&lt;/i&gt;\""));
    CHECK(!contains(html, "<script"));
    CHECK(!contains(html, "<img src=x"));
}

TEST_CASE("WidgetRenderer: price rules (crossed-out retail, lowest 30-day price only for a reduction)") {
    struct Case {
        const char* name;
        std::optional<int64_t> retail;
        std::optional<int64_t> lowest;
        bool crossedOut;
        bool lowestShown;
    };
    const std::vector<Case> cases{
        {"reduced with a known lowest price", 5999, 3499, true, true},
        {"reduced, no history (or country without the rule)", 5999, std::nullopt, true, false},
        {"retail equal to the price: no reduction", 3999, 3499, false, false},
        {"retail below the price: never crossed out", 2999, 3499, false, false},
        {"no retail price", std::nullopt, 3499, false, false},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        ContentItem item = reducedItem();
        item.retailPrice = c.retail;
        item.lowestPrice30Days = c.lowest;
        std::string html = render(WidgetTexts(), {item});
        CHECK(contains(html, "<s class=\"svc-card__retail\">") == c.crossedOut);
        CHECK(contains(html, "<p class=\"svc-card__lowest\">Lowest price of the last 30 days: 34,99" + kNbsp + kEuro + "</p>") ==
              c.lowestShown);
    }
}
