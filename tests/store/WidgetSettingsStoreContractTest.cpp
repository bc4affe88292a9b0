// The WidgetSettingsStore contract (shared/store/WidgetSettingsStore.hpp) on every backend.
#include "StoreBackends.hpp"

namespace svc::contract {

TEST_CASE("WidgetSettingsStore: defaults until set; a refused write changes nothing; tenants never see each other's") {
    forEachBackend([](Backend& backend) {
        WidgetSettingsStore& settings = backend.storage->widgetSettings();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        auto defaults = settings.load(a.id);
        REQUIRE(defaults);
        CHECK(defaults->country.empty());
        CHECK(defaults->css.empty());
        CHECK(defaults->textBundles.empty());

        WidgetSettingsChange change;
        change.country = "DE";
        change.css = ".svc-card { color: red; }";
        REQUIRE(settings.change(a.id, change, 100));
        REQUIRE(settings.setTexts(a.id, "de", R"({"addToCart":"In den Warenkorb"})", 100));

        WidgetSettingsChange bad;
        bad.country = "FR";
        bad.defaultLanguage = "not a language";
        auto refused = settings.change(a.id, bad, 101);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code == ErrorCode::InvalidArgument);
        CHECK(refused.error().message.find("default language") != std::string::npos);

        auto stored = settings.load(a.id).value();
        CHECK(stored.country == "DE");  // the whole change was refused, its country too
        CHECK(stored.css == ".svc-card { color: red; }");
        CHECK(stored.textBundles.count("de") == 1);
        auto other = settings.load(b.id).value();
        CHECK(other.country.empty());
        CHECK(other.css.empty());
        CHECK(other.textBundles.empty());
    });
}

TEST_CASE("WidgetSettingsStore: removing a bundle that is not there is NotFound naming the language") {
    forEachBackend([](Backend& backend) {
        WidgetSettingsStore& settings = backend.storage->widgetSettings();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        REQUIRE(settings.setTexts(a.id, "fr", R"({"addToCart":"Ajouter"})", 1));
        auto missing = settings.removeTexts(b.id, "fr");  // a's bundle, not b's
        REQUIRE_FALSE(missing);
        CHECK(missing.error().code == ErrorCode::NotFound);
        CHECK(missing.error().message.find("'fr'") != std::string::npos);
        REQUIRE(settings.removeTexts(a.id, "fr"));
        CHECK(settings.load(a.id)->textBundles.empty());
    });
}

TEST_CASE("WidgetSettingsStore: accepted CSS and texts read back byte for byte") {
    forEachBackend([](Backend& backend) {
        WidgetSettingsStore& settings = backend.storage->widgetSettings();
        Tenant a = newTenant(*backend.storage, "A");
        std::string css = ".svc-card::after { content: \"'; DROP TABLE widget_settings; -- \\00e4 \xE2\x82\xAC\"; }";
        WidgetSettingsChange change;
        change.css = css;
        REQUIRE(settings.change(a.id, change, 1));
        std::string texts = R"({"addToCart":"'; DROP TABLE t; -- \"q\" \u00e4 €"})";
        REQUIRE(settings.setTexts(a.id, "de", texts, 1));
        auto stored = settings.load(a.id).value();
        CHECK(stored.css == css);
        REQUIRE(stored.textBundles.count("de") == 1);
        CHECK(stored.textBundles.at("de").find("DROP TABLE t") != std::string::npos);
    });
}

}  // namespace svc::contract
