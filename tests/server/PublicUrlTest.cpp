// The public URL (serve --public-url, docs/adr/0068): every URL svc hands out starts with it, and a
// Host header is never put into an answer unless it names loopback and no public URL is set (the
// demo). A real server on port 0, real SQLite, a real client that sends the Host it is told to.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "http/PublicUrl.hpp"
#include "image/ImageCodec.hpp"
#include "operator/OperatorAccounts.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using nlohmann::json;

TEST_CASE("public URL: http and https origins with an optional port are taken, normalised; anything else is refused naming the option") {
    struct Good {
        std::string text, origin;
        bool https;
    };
    for (const auto& c : std::vector<Good>{
             {"https://svc.example.com", "https://svc.example.com", true},
             {"https://svc.example.com/", "https://svc.example.com", true},
             {"HTTPS://SVC.Example.COM:443", "https://svc.example.com", true},  // the default port as browsers omit it
             {"https://svc.example.com:8443", "https://svc.example.com:8443", true},
             {"http://10.0.0.5:8080", "http://10.0.0.5:8080", false},
             {"http://svc.example.com:80", "http://svc.example.com", false},
             {"https://[2001:db8::1]:8443", "https://[2001:db8::1]:8443", true},
             {"https://127.0.0.1:41234", "https://127.0.0.1:41234", true},
         }) {
        CAPTURE(c.text);
        auto url = PublicUrl::parse(c.text);
        REQUIRE(url);
        CHECK(url->origin() == c.origin);
        CHECK(url->https() == c.https);
    }
    struct Bad {
        std::string text, why;
    };
    for (const auto& c : std::vector<Bad>{
             {"svc.example.com", "is not an absolute URL"},
             {"ftp://svc.example.com", "has scheme 'ftp'"},
             {"https://svc.example.com/svc", "has a path"},
             {"https://svc.example.com/?a=1", "has a query or fragment"},
             {"https://svc.example.com#top", "has a query or fragment"},
             {"https://user:pw@svc.example.com", "has user info"},
             {"https://", "has no valid host"},
             {"https://svc_example.com", "has no valid host"},
             {"https://-svc.example.com", "has no valid host"},
             {"https://svc..example.com", "has no valid host"},
             {"https://[not-v6]:443", "has no valid host"},
             {"https://[10.0.0.1]", "has no valid host"},
             {"https://svc.example.com:0", "has a port that is not a number from 1 to 65535"},
             {"https://svc.example.com:65536", "has a port that is not a number from 1 to 65535"},
             {"https://svc.example.com:", "has no valid host"},
             {"https://a:1:2", "has no valid host"},
         }) {
        CAPTURE(c.text);
        auto url = PublicUrl::parse(c.text);
        REQUIRE_FALSE(url);
        CHECK(url.error().message.rfind("--public-url: '" + c.text + "' " + c.why, 0) == 0);
    }
}

TEST_CASE("public URL: only localhost, 127.0.0.0/8 and [::1] (with or without a port) count as loopback Hosts") {
    for (const std::string host : {"localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:8080", "127.45.6.7:1", "[::1]", "[::1]:8080"}) {
        CAPTURE(host);
        CHECK(isLoopbackHost(host));
    }
    for (const std::string host : {"", "evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.evil.example",
                                   "128.0.0.1", "10.0.0.1:80", "[::2]:80", "::1", "[::1]x", "127.0.0.1:http", "127.0.0.1:99999",
                                   "localhost:8080:1", "[::ffff:127.0.0.1]"}) {
        CAPTURE(host);
        CHECK_FALSE(isLoopbackHost(host));
    }
}

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "stock", "name", "retail-price", "deeplink", "image", "category-path",
                                          "marke", "farbe", "abteilung"};

std::vector<std::string> item(const std::string& mainSku, const std::string& name) {
    return {mainSku + "-M", mainSku, "3", name, "4000", "https://shop.example/" + mainSku, "https://shop.example/" + mainSku + ".jpg",
            "Women > Topwear > T-Shirts", "Brand", "Blue", "Women"};
}

std::string jpegBytes() {
    RgbImage image;
    image.width = 32;
    image.height = 24;
    image.pixels.assign(static_cast<size_t>(image.width) * image.height * 3, 90);
    return ImageCodec::encodeJpeg(image, 90);
}

ServerOptions withPublicUrl(const std::string& text) {
    ServerOptions options;
    options.console.passwordCost = PasswordCost::minimal();
    if (!text.empty()) options.publicUrl = *PublicUrl::parse(text);
    return options;
}

// A tenant with a catalog, an operator key and an operator account on a server with or without a public URL.
struct PublicUrlFixture {
    test::TempDir dir;
    test::RunningServer server;
    Tenant tenant;
    std::string secret;
    const std::string key = "operator-key-for-tests-0123456789";

    explicit PublicUrlFixture(const std::string& publicUrl) : PublicUrlFixture(withPublicUrl(publicUrl)) {}
    explicit PublicUrlFixture(ServerOptions options) : server(dir.path(), nullptr, std::move(options)) {
        auto created = TenantService(server.storage->tenants()).create("Shop");
        tenant = created->tenant;
        secret = created->apiSecret;
        REQUIRE(server.storage->operatorKeys().addOperatorKey({"tests", SecretHasher::hash(key)}));
        auto feed = test::feedCsv({kHeader, item("TEE", "Linen tee"), item("SHIRT", "Linen shirt"), item("TOP", "Linen top")});
        REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("feed.csv", feed)));
        auto storeStorage = test::openStorage(dir.path());
        auto* store = &storeStorage->operators();
        REQUIRE(store);
        REQUIRE(OperatorAccounts(*store, storeStorage->rateLimits(), server.storage->clock(), PasswordCost::minimal())
                    .createOperator("operator@example.com", "correct horse battery"));
    }
    std::string listenOrigin() const { return "http://127.0.0.1:" + std::to_string(server.server->port()); }

    // Every answer that carries a URL svc hands out, asked with `host` as the Host header; each
    // answer's body, named by what it is.
    std::vector<std::pair<std::string, std::string>> answersFor(const std::string& host) {
        auto client = server.client();
        httplib::Headers asHost{{"Host", host}};
        httplib::Headers tenantCredentials{{"Host", host}, {"x-api-id", tenant.apiId}, {"x-api-secret", secret}};
        httplib::Headers operatorKey{{"Host", host}, {"Authorization", "Bearer " + key}};
        std::string tenantApi = "/operator/api/tenants/" + tenant.apiId;
        std::vector<std::pair<std::string, std::string>> answers;
        auto keep = [&answers](const std::string& what, const httplib::Result& response, int status = 200) {
            REQUIRE_MESSAGE(response, what);
            INFO(what << ": " << response->body);
            REQUIRE(response->status == status);
            answers.emplace_back(what, response->body);
        };
        keep("loader.js", client.Get("/" + tenant.apiId + "/loader.js", asHost));
        keep("content", client.Get("/" + tenant.apiId + "/content?w=SIMILAR&t=product&s=TEE-M&i=", asHost));
        keep("widgets.css", client.Get("/" + tenant.apiId + "/widgets.css", asHost));
        std::string uploadRequest = R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":";"}},"delta":false})";
        keep("POST /feeds/uploads", client.Post("/feeds/uploads", tenantCredentials, uploadRequest, "application/json"));
        std::string query = R"({"query":"{ product(id: \"TEE-M\") { id url similarProducts(first: 5) { edges { node { id url } } } } }"})";
        keep("GraphQL", client.Post("/graphql", tenantCredentials, query, "application/json"));
        keep("console feeds (push URLs)", client.Get(tenantApi + "/feeds", operatorKey));
        std::string photo = jpegBytes();
        keep("console photo upload", client.Post(tenantApi + "/sets/photos", operatorKey, photo, "image/jpeg"), 201);
        std::string draft = R"({"title":"Draft","skus":["TEE-M","SHIRT-M"]})";
        auto preview = client.Post(tenantApi + "/sets/previews", operatorKey, draft, "application/json");
        keep("console set preview", preview, 201);
        std::string previewUrl = json::parse(preview->body)["url"];
        std::string previewPath = previewUrl.substr(previewUrl.find("/set-preview/"));
        keep("set preview page", client.Get(previewPath, asHost));
        keep("set preview config.js", client.Get(previewPath + "config.js", asHost));
        keep("unknown API ID", client.Get("/00000000-0000-4000-8000-000000000000/loader.js", asHost), 404);
        return answers;
    }
};

// Answers that name svc's own URL (the rest only must not echo the Host).
bool carriesSvcUrl(const std::string& what) {
    return what == "loader.js" || what == "POST /feeds/uploads" || what == "console feeds (push URLs)" || what == "console photo upload" ||
           what == "set preview config.js";
}

}  // namespace

TEST_CASE("public URL: without one, a foreign Host never appears in any answer; the listen address stands in, loopback Hosts as asked") {
    PublicUrlFixture fixture("");
    for (const auto& [what, body] : fixture.answersFor("evil.example")) {
        CAPTURE(what);
        CHECK(body.find("evil.example") == std::string::npos);
        if (carriesSvcUrl(what)) CHECK(body.find(fixture.listenOrigin()) != std::string::npos);
    }
    // The demo on this machine: a loopback Host is echoed as today (the browser's own origin).
    std::string local = "localhost:" + std::to_string(fixture.server.server->port());
    for (const auto& [what, body] : fixture.answersFor(local)) {
        CAPTURE(what);
        if (carriesSvcUrl(what)) CHECK(body.find("http://" + local) != std::string::npos);
    }
}

TEST_CASE("public URL: with https://svc.example.com every URL svc hands out is https on that host, whatever Host the request named") {
    PublicUrlFixture fixture("https://svc.example.com");
    for (const std::string& host : std::vector<std::string>{"evil.example", "localhost:" + std::to_string(fixture.server.server->port())}) {
        for (const auto& [what, body] : fixture.answersFor(host)) {
            CAPTURE(host);
            CAPTURE(what);
            CHECK(body.find("evil.example") == std::string::npos);
            CHECK(body.find("http://") == std::string::npos);  // the feed's own https URLs only, and svc's
            if (carriesSvcUrl(what)) CHECK(body.find("\"https://svc.example.com") != std::string::npos);
        }
    }
    auto loader = fixture.server.client().Get("/" + fixture.tenant.apiId + "/loader.js", {{"Host", "evil.example"}});
    CHECK(loader->body.find("base: \"https://svc.example.com\"") != std::string::npos);
}

TEST_CASE("public URL: the console's session cookie is Secure for an https public URL or --secure-cookies, never because a request asks") {
    struct Case {
        std::string publicUrl;
        bool secureCookies;
        httplib::Headers extra;
        bool secure;
    };
    for (const auto& c : std::vector<Case>{
             {"", false, {}, false},
             {"", false, {{"X-Forwarded-Proto", "https"}}, false},  // any client can send it
             {"", true, {}, true},
             {"http://svc.example.com", false, {}, false},
             {"https://svc.example.com", false, {}, true},
             {"https://svc.example.com", true, {}, true},
         }) {
        CAPTURE(c.publicUrl);
        CAPTURE(c.secureCookies);
        CAPTURE(c.extra.size());
        ServerOptions options = withPublicUrl(c.publicUrl);
        options.console.secureCookies = c.secureCookies;
        PublicUrlFixture fixture(options);
        httplib::Headers headers = c.extra;
        if (!c.publicUrl.empty()) headers.emplace("Origin", PublicUrl::parse(c.publicUrl)->origin());
        auto signedIn = fixture.server.client().Post("/operator/api/session", headers,
                                             R"({"email":"operator@example.com","password":"correct horse battery"})", "application/json");
        REQUIRE(signedIn);
        REQUIRE(signedIn->status == 200);
        CHECK((signedIn->get_header_value("Set-Cookie").find("; Secure") != std::string::npos) == c.secure);
    }
}

TEST_CASE("public URL: the console's Origin check compares with the public URL, not with the Host the proxy passed on") {
    PublicUrlFixture fixture("https://svc.example.com");
    auto signIn = [&](const std::string& origin) {
        return fixture.server.client().Post("/operator/api/session", {{"Origin", origin}},
                                            R"({"email":"operator@example.com","password":"correct horse battery"})", "application/json");
    };
    CHECK(signIn("https://svc.example.com")->status == 200);
    // What the Host header says (the proxy's upstream address) is not the console's origin.
    auto viaHost = signIn(fixture.listenOrigin());
    CHECK(viaHost->status == 403);
    CHECK(viaHost->body.find("Origin: " + fixture.listenOrigin() + " is not this server") != std::string::npos);
    CHECK(signIn("http://svc.example.com")->status == 403);  // the same host over plain http
    CHECK(signIn("https://svc.example.com.evil.example")->status == 403);
}
