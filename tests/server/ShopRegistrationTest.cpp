// Shop plugin registration end to end (spec endpoint 6, docs/adr/0035): PUT /shops/:apiId/:feedId
// on the real server, the registration and its pull source in the real store, the pull scheduler
// woken by the registration, the fetcher (SSRF guard) against the reference shop plugin on
// loopback, imports into the real catalog and the shared import history.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "LoopbackFeedServer.hpp"
#include "ReferenceShopPlugin.hpp"
#include "ServerFixture.hpp"
#include "feed/PullRuntime.hpp"

using namespace svc;
using nlohmann::json;

namespace {

json attributes() { return {{{"name", "size"}}, {{"name", "material"}}, {{"name", "color"}}}; }
json dimensions() { return {{{"name", "size"}}}; }

json product(const std::string& mainSku, const std::string& size, int64_t stock = 3, int64_t price = 2999) {
    return {{"sku", mainSku + "-" + size},
            {"mainSku", mainSku},
            {"name", "Shirt " + mainSku},
            {"stock", stock},
            {"retailPrice", price},
            {"deeplink", "https://shop.example/p/" + mainSku},
            {"image", "https://shop.example/i/" + mainSku + ".jpg"},
            {"brand", "Acme"},
            {"color", "blue"},
            {"categories", {"Men > Shirts"}},
            {"attributes", {{"size", size}, {"material", "cotton"}}}};
}

std::vector<json> products(int count) {
    std::vector<json> out;
    for (int i = 0; i < count; ++i) out.push_back(product("M" + std::to_string(i), i % 2 ? "L" : "M"));
    return out;
}

// A server with the pull runtime of `serve`: the registration route wakes the scheduler, whose
// tick is an hour, so any pull seen within seconds was asked for by the registration.
struct ShopServer {
    test::TempDir dir;
    std::optional<test::RunningServer> server;
    std::unique_ptr<PullRuntime> runtime;
    Tenant tenant;

    explicit ShopServer(std::vector<std::string> allowList = {"127.0.0.1:*"}, ServerOptions options = {}, PluginPullLimits pluginLimits = {}) {
        server.emplace(dir.path(), nullptr, options);
        FetchLimits limits;
        limits.totalTimeoutMs = 20'000;
        auto opened = PullRuntime::open(dir.path(), *server->storage, *server->keys, allowList, limits, pluginLimits, &server->services->catalogChanged());
        REQUIRE(opened);
        runtime = std::move(*opened);
        auto created = TenantService(server->storage->tenants()).create("Plugin shop");
        REQUIRE(created);
        tenant = created->tenant;
        ApiServer* api = server->server.get();
        PullScheduler* scheduler = &runtime->scheduler();
        api->setPullWaker([scheduler] { scheduler->wake(); });
        runtime->scheduler().start(std::chrono::hours(1));
    }
    ~ShopServer() { runtime->scheduler().stop(); }

    httplib::Result put(const std::string& apiId, const std::string& feedId, const std::string& body, const httplib::Headers& headers) {
        return server->client().Put("/shops/" + apiId + "/" + feedId, headers, body, "application/json");
    }
    httplib::Result registerShop(const json& body) {
        return put(tenant.apiId, tenant.feedId, body.dump(), {{"svc-com-tid", tenant.apiId}, {"svc-com-fid", tenant.feedId}});
    }
    std::vector<FeedImportRecord> history() {
        auto records = server->storage->imports().list(tenant.id, "", 100);
        REQUIRE(records);
        return *records;
    }
    // Waits for the first pull to end (it runs on the scheduler's thread) and gives the history.
    // Its end is the pull source's last write: the history entry is written whole before it (its
    // rejected products and a failure's reason included), and the registration's result after that.
    std::vector<FeedImportRecord> waitForFirstPull() {
        for (int attempt = 0; attempt < 500; ++attempt) {
            auto source = runtime->sources().find(tenant.id, "default");
            REQUIRE(source);
            if (*source && (*source)->lastRunAt != 0) return history();
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        FAIL("no pull within 5 s");
        return {};
    }
    StoredShopRegistration registration() {
        auto found = runtime->registrations().find(tenant.id);
        REQUIRE(found);
        REQUIRE(*found);
        return **found;
    }
    std::vector<Product> variants(const std::string& mainSku) {
        auto found = server->storage->catalog().articleVariants(tenant.id, mainSku);
        REQUIRE(found);
        return *found;
    }
};

std::string errorMessage(const httplib::Result& response) { return json::parse(response->body)["error"]["message"].get<std::string>(); }

}  // namespace

TEST_CASE("shop registration: headers, tenant, feed and body decide the status; re-registration updates") {
    ShopServer shop;
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, shop.tenant.feedId);
    plugin.setCatalog(attributes(), dimensions(), products(2));
    std::string good = plugin.registration().dump();
    const std::string& api = shop.tenant.apiId;
    const std::string& feed = shop.tenant.feedId;
    const std::string otherUuid = "0b6f3c1e-8a3e-4c56-9d7a-2f4b1e9c7a11";
    json badBody = plugin.registration();
    badBody["api"]["products"] = "/svc/products";

    struct Case {
        const char* name;
        std::string apiId, feedId, body;
        httplib::Headers headers;
        int status;
        std::string message;
    };
    std::vector<Case> cases = {
        {"no svc-com-tid", api, feed, good, {{"svc-com-fid", feed}}, 404, "svc-com-tid: header required (the API ID)"},
        {"no svc-com-fid", api, feed, good, {{"svc-com-tid", api}}, 404, "svc-com-fid: header required (the feed ID)"},
        {"svc-com-tid differs", api, feed, good, {{"svc-com-tid", otherUuid}, {"svc-com-fid", feed}}, 403,
         "svc-com-tid: does not match the API ID in the path"},
        {"svc-com-fid differs", api, feed, good, {{"svc-com-tid", api}, {"svc-com-fid", otherUuid}}, 403,
         "svc-com-fid: does not match the feed ID in the path"},
        {"unknown tenant", otherUuid, feed, good, {{"svc-com-tid", otherUuid}, {"svc-com-fid", feed}}, 404,
         "no tenant has this API ID and feed ID"},
        {"unknown feed", api, otherUuid, good, {{"svc-com-tid", api}, {"svc-com-fid", otherUuid}}, 404,
         "no tenant has this API ID and feed ID"},
        {"relative products URL", api, feed, badBody.dump(), {{"svc-com-tid", api}, {"svc-com-fid", feed}}, 400,
         "api.products: must be an absolute http(s) URL"},
        {"not JSON", api, feed, "{", {{"svc-com-tid", api}, {"svc-com-fid", feed}}, 400,
         "body: line 1, column 2: not valid JSON (syntax error while parsing object key - unexpected end of input; expected string literal)"},
        {"too large", api, feed, std::string(70 * 1024, ' '), {{"svc-com-tid", api}, {"svc-com-fid", feed}}, 413,
         "[svc.http.102] the body is larger than 65536 bytes"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto response = shop.put(c.apiId, c.feedId, c.body, c.headers);
        REQUIRE(response);
        CHECK(response->status == c.status);
        CHECK(errorMessage(response) == c.message);
    }
    // Nothing refused was stored.
    auto none = shop.runtime->registrations().find(shop.tenant.id);
    REQUIRE(none);
    CHECK_FALSE(*none);

    json body = plugin.registration();
    body["plugin"]["config"] = {{"customerGroup", "retail"}};
    auto response = shop.registerShop(body);
    REQUIRE(response);
    CHECK(response->status == 200);
    CHECK(json::parse(response->body) == body);
    auto first = shop.registration();
    CHECK(first.feedId == shop.tenant.feedId);
    CHECK(first.record.pluginConfig->at("customerGroup") == "retail");

    body["shop"]["version"] = "2.2";
    body["plugin"].erase("config");
    response = shop.registerShop(body);
    REQUIRE(response);
    CHECK(response->status == 200);
    CHECK(json::parse(response->body) == body);
    auto second = shop.registration();
    CHECK(second.record.shopVersion == "2.2");
    CHECK_FALSE(second.record.pluginConfig);
    CHECK(second.createdAt == first.createdAt);
    auto all = shop.runtime->registrations().list();
    REQUIRE(all);
    CHECK(all->size() == 1);
    shop.waitForFirstPull();  // the prompt pull, before the plugin goes away
}

TEST_CASE("shop registration: a tenant the operator disabled takes no registration") {
    ShopServer shop;
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, shop.tenant.feedId);
    plugin.setCatalog(attributes(), dimensions(), products(2));
    REQUIRE(shop.server->storage->tenants().setDisabled(shop.tenant.id, true));
    auto response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    CHECK(response->status == 403);
    CHECK(errorMessage(response) == "the tenant is disabled: ask the service operator");
    auto none = shop.runtime->registrations().find(shop.tenant.id);
    REQUIRE(none);
    CHECK_FALSE(*none);
    // Enabled again, it does.
    REQUIRE(shop.server->storage->tenants().setDisabled(shop.tenant.id, false));
    response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    CHECK(response->status == 200);
    shop.waitForFirstPull();  // the prompt pull, before the plugin goes away
}

TEST_CASE("shop registration: a registration is followed by a prompt pull that imports the plugin's products") {
    ShopServer shop;
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, shop.tenant.feedId);
    plugin.setCatalog(attributes(), dimensions(), {product("TS1", "M"), product("TS1", "L", 0), product("TS2", "S")});
    auto response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    REQUIRE(response->status == 200);

    auto history = shop.waitForFirstPull();
    REQUIRE(history.size() == 1);
    CHECK(history[0].status == ImportStatus::Applied);
    CHECK(history[0].source == "plugin " + plugin.url("/svc/products"));
    CHECK_FALSE(history[0].delta);
    CHECK(history[0].counts.inserted == 3);
    CHECK(plugin.attributeRequests == 1);
    CHECK(plugin.dimensionRequests == 1);
    CHECK(plugin.productRequests == 1);
    CHECK(plugin.refused == 0);  // every call carried svc-com-tid and svc-com-fid

    auto variants = shop.variants("TS1");
    REQUIRE(variants.size() == 2);
    for (const auto& variant : variants) {
        CHECK(variant.name == "Shirt TS1");
        CHECK(variant.retailPrice == 2999);
        CHECK(variant.brand == "Acme");
        CHECK(variant.properties.at("material") == "cotton");
        CHECK((variant.variant == "M" || variant.variant == "L"));  // from the variant dimension "size"
        CHECK(variant.stock == (variant.sku == "TS1-M" ? 3 : 0));
    }
    // The catalog the widgets and GraphQL read.
    auto graphql = shop.server->client().Post("/graphql", {{"x-api-id", shop.tenant.apiId}},
                                              json{{"query", "{ product(id: \"TS2\") { id name } }"}}.dump(), "application/json");
    REQUIRE(graphql);
    CHECK(json::parse(graphql->body)["data"]["product"]["name"] == "Shirt TS2");

    auto registration = shop.registration();
    CHECK(registration.lastPullResult == "applied");
    CHECK(registration.lastContactAt > 0);
    CHECK(registration.lastFullPullAt > 0);
    auto source = shop.runtime->sources().find(shop.tenant.id, "default");
    REQUIRE(source);
    REQUIRE(*source);
    CHECK((*source)->kind == "plugin");
    CHECK((*source)->lastResult == "applied");
    CHECK((*source)->nextRunAt >= (*source)->lastRunAt + kPluginPullInterval);
}

TEST_CASE("shop registration: plugin pulls page through the products; bad products are rejected by JSON path; later pulls are deltas") {
    ShopServer shop;
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, shop.tenant.feedId);
    auto catalog = products(230);
    catalog[120]["retailPrice"] = 19.99;
    plugin.setCatalog(attributes(), dimensions(), catalog);
    auto response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    REQUIRE(response->status == 200);

    auto history = shop.waitForFirstPull();
    REQUIRE(history.size() == 1);
    CHECK(history[0].status == ImportStatus::Applied);
    CHECK(plugin.productRequests == 3);  // 100 + 100 + 30
    CHECK(plugin.lastLimit == 100);
    CHECK(history[0].counts.inserted == 229);
    CHECK(history[0].rejected == 1);
    auto entry = shop.server->storage->imports().find(shop.tenant.id, history[0].id);  // with its row errors
    REQUIRE(entry);
    REQUIRE(*entry);
    const auto& errors = (*entry)->rowErrors;
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].kind == RowErrorKind::InvalidProduct);
    CHECK(errors[0].line == 121);
    CHECK(errors[0].message == "products (offset 100): data[20].retailPrice: must be an integer number of cents, not 19.99");
    auto stats = shop.server->storage->catalog().stats(shop.tenant.id);
    REQUIRE(stats);
    CHECK(stats->products == 229);

    // Within a day of a full pull, the next is a delta: only the changed products, nothing deleted.
    plugin.setChanged({json{{"sku", "M0-M"}, {"stock", 0}, {"retailPrice", 2500}}});
    auto source = shop.runtime->sources().find(shop.tenant.id, "default");
    REQUIRE(source);
    auto outcome = shop.runtime->puller().pull(**source);
    REQUIRE(outcome);
    CHECK(outcome->result == PullResult::Imported);
    CHECK(outcome->record.delta);
    CHECK(plugin.deltaRequests == 1);
    auto changed = shop.variants("M0");
    REQUIRE(changed.size() == 1);
    CHECK(changed[0].stock == 0);
    CHECK(changed[0].retailPrice == 2500);
    CHECK(changed[0].name == "Shirt M0");  // a delta leaves the rest of the record alone
    stats = shop.server->storage->catalog().stats(shop.tenant.id);
    REQUIRE(stats);
    CHECK(stats->products == 229);
}

TEST_CASE("shop registration: a full plugin list that would delete most of the catalog is held, and the feed rests until the operator decides") {
    ShopServer shop;
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, shop.tenant.feedId);
    plugin.setCatalog(attributes(), dimensions(), products(10));
    auto response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    REQUIRE(response->status == 200);
    REQUIRE(shop.waitForFirstPull().front().status == ImportStatus::Applied);

    // The plugin suddenly lists 2 of 10 products; re-registering makes the next pull full.
    plugin.setCatalog(attributes(), dimensions(), products(2));
    response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    REQUIRE(response->status == 200);
    auto source = shop.runtime->sources().find(shop.tenant.id, "default");
    REQUIRE(source);
    auto held = shop.runtime->puller().pull(**source);
    REQUIRE(held);
    CHECK(held->record.status == ImportStatus::Held);
    CHECK_FALSE(held->record.delta);
    CHECK(shop.registration().lastPullResult == "held");
    auto stats = shop.server->storage->catalog().stats(shop.tenant.id);
    REQUIRE(stats);
    CHECK(stats->products == 10);

    int requests = plugin.productRequests;
    auto resting = shop.runtime->puller().pull(**source);
    REQUIRE(resting);
    CHECK(resting->result == PullResult::Unchanged);
    CHECK(plugin.productRequests == requests);
    CHECK(shop.history().size() == 2);
    CHECK(shop.registration().lastPullResult == "held: import " + std::to_string(held->record.id) + " awaits the operator's confirm or discard");
}

TEST_CASE("shop registration: a plugin's error answer is the reason of the failed pull in the history") {
    ShopServer shop;
    // The shop's plugin is connected to another svc account: it answers 403 {AUTH_ERROR}.
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, "5e0c2a7d-1111-4a2b-8c3d-9e8f7a6b5c4d");
    plugin.setCatalog(attributes(), dimensions(), products(2));
    auto response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    REQUIRE(response->status == 200);

    auto history = shop.waitForFirstPull();
    REQUIRE(history.size() == 1);
    CHECK(history[0].status == ImportStatus::Failed);
    CHECK(history[0].message.find("pull failed: attributes: auth: 127.0.0.1 answered 403") == 0);
    CHECK(history[0].message.find("(AUTH_ERROR: this shop is connected to another svc account)") != std::string::npos);
    CHECK(history[0].message.find(shop.tenant.feedId) == std::string::npos);  // the credential is never written out
    CHECK(plugin.refused == 1);
    CHECK(plugin.productRequests == 0);
    auto registration = shop.registration();
    CHECK(registration.lastPullResult.find("failed: attributes: auth:") == 0);
    CHECK(registration.lastContactAt > 0);  // the plugin did answer
    CHECK(registration.lastFullPullAt == 0);
}

TEST_CASE("shop registration: a plugin answer nested 200,000 levels deep fails the pull naming the depth (docs/adr/0054)") {
    ShopServer shop;
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, shop.tenant.feedId);
    plugin.setCatalog(attributes(), dimensions(), products(2));
    plugin.setRawAttributes(R"({"data":)" + std::string(200000, '[') + std::string(200000, ']') + "}");
    auto response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    REQUIRE(response->status == 200);
    auto history = shop.waitForFirstPull();
    REQUIRE(history.size() == 1);
    CHECK(history[0].status == ImportStatus::Failed);
    CHECK(history[0].message == "pull failed: attributes answer: line 1, column 72: nesting deeper than 64");
    CHECK(plugin.productRequests == 0);
    CHECK(shop.server->client().Get("/healthz")->status == 200);
}

TEST_CASE("shop registration: each plugin call has its own time limit (5 s by default; shortened here)") {
    PluginPullLimits limits;
    limits.callTimeoutMs = 300;
    ShopServer shop({"127.0.0.1:*"}, {}, limits);
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, shop.tenant.feedId);
    plugin.setCatalog(attributes(), dimensions(), products(2));
    plugin.delayMs = 1000;
    auto started = std::chrono::steady_clock::now();
    auto response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    REQUIRE(response->status == 200);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(500));  // the answer never waits for the pull
    auto history = shop.waitForFirstPull();
    REQUIRE(history.size() == 1);
    CHECK(history[0].status == ImportStatus::Failed);
    CHECK(history[0].message.find("pull failed: attributes: timeout:") == 0);
    CHECK(plugin.productRequests == 0);
    CHECK(PluginPullLimits{}.callTimeoutMs == 5000);
}

TEST_CASE("shop registration: the SSRF guard refuses a registered plugin on a private address that is not allow-listed") {
    ShopServer shop(std::vector<std::string>{});
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, shop.tenant.feedId);
    plugin.setCatalog(attributes(), dimensions(), products(2));
    auto response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    REQUIRE(response->status == 200);

    auto history = shop.waitForFirstPull();
    REQUIRE(history.size() == 1);
    CHECK(history[0].status == ImportStatus::Failed);
    CHECK(history[0].message.find("pull failed: attributes: SSRF:") == 0);
    CHECK(plugin.attributeRequests == 0);
    auto registration = shop.registration();
    CHECK(registration.lastContactAt == 0);
    CHECK(registration.lastPullResult.find("failed: attributes: SSRF:") == 0);
}

TEST_CASE("shop registration: a feed pulled from a file is not taken over; registrations are rate limited") {
    ServerOptions options;
    options.shops.rateLimit = TokenBucketLimit{0.001, 3};
    ShopServer shop({"127.0.0.1:*"}, options);
    test::ReferenceShopPlugin plugin(shop.tenant.apiId, shop.tenant.feedId);
    PullSource file;
    file.tenantId = shop.tenant.id;
    file.url = "https://feeds.example/feed.csv";
    file.intervalSeconds = defaultPullInterval(false);
    file.nextRunAt = std::numeric_limits<int64_t>::max();
    REQUIRE(shop.runtime->sources().add(file));

    auto response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    CHECK(response->status == 409);
    CHECK(errorMessage(response).find("feedId: the feed is pulled from a file") == 0);
    REQUIRE(shop.runtime->sources().remove(shop.tenant.id, "default"));
    response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    CHECK(response->status == 200);
    response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    CHECK(response->status == 200);
    response = shop.registerShop(plugin.registration());
    REQUIRE(response);
    CHECK(response->status == 429);
    CHECK_FALSE(response->get_header_value("Retry-After").empty());
    shop.waitForFirstPull();
}

TEST_CASE("shop registration: re-registering asks for a prompt pull at most every 5 minutes and makes the next pull full") {
    test::TempDir dir;
    auto storage = test::openStorage(dir.path());
    auto created = TenantService(storage->tenants()).create("Store shop");
    REQUIRE(created);
    const Tenant& tenant = created->tenant;
    auto* registrations = &storage->shopRegistrations();
    auto* sources = &storage->pullSources();
    auto record = shopRegistrationFromJson(test::ReferenceShopPlugin(tenant.apiId, tenant.feedId).registration());
    REQUIRE(record);
    auto nextRun = [&] {
        auto source = sources->find(tenant.id, "default");
        REQUIRE(source);
        REQUIRE(*source);
        CHECK((*source)->kind == "plugin");
        CHECK((*source)->url == record->productsUrl);
        return (*source)->nextRunAt;
    };

    REQUIRE(registrations->save(tenant.id, "default", tenant.feedId, *record, 1000));
    CHECK(nextRun() == 1000);
    REQUIRE(registrations->recordPull(tenant.id, 1010, "applied", 1010, true));
    auto pulled = registrations->find(tenant.id);
    REQUIRE(pulled);
    CHECK((**pulled).lastFullPullAt == 1010);
    CHECK((**pulled).lastContactAt == 1010);

    REQUIRE(registrations->save(tenant.id, "default", tenant.feedId, *record, 1100));
    CHECK(nextRun() == 1010 + kPluginPromptPullSpacing);
    auto again = registrations->find(tenant.id);
    REQUIRE(again);
    CHECK((**again).lastFullPullAt == 0);  // the next pull is full
    CHECK((**again).updatedAt == 1100);
    CHECK((**again).lastContactAt == 1010);

    REQUIRE(registrations->save(tenant.id, "default", tenant.feedId, *record, 5000));
    CHECK(nextRun() == 5000);
}

TEST_CASE("shop registration: svc-server serve: a registration wakes its scheduler, which pulls the plugin through the operator's allow-list") {
    test::TempDir dir;
    auto runCli = [&](std::vector<std::string> arguments) {
        arguments = test::TestStorage::withDatabaseUrl(std::move(arguments));
        arguments.insert(arguments.begin(), SVC_SERVER_BINARY);
        std::string out = dir.path() + "/out.txt";
        test::ChildProcess child(arguments, out);
        CHECK(child.wait() == 0);
        std::ifstream file(out);
        std::stringstream text;
        text << file.rdbuf();
        return json::parse(text.str());
    };
    json tenant = runCli({"tenant", "create", "--data-dir", dir.path(), "--name", "Serve shop"});
    std::string apiId = tenant["apiId"];
    std::string feedId = tenant["feedId"];
    test::ReferenceShopPlugin plugin(apiId, feedId);
    plugin.setCatalog(attributes(), dimensions(), products(3));

    int port = test::unusedLoopbackPort();
    test::ChildProcess serve(test::TestStorage::withDatabaseUrl(
        {SVC_SERVER_BINARY, "serve", "--data-dir", dir.path(), "--listen", "127.0.0.1:" + std::to_string(port), "--outbound-allow", "127.0.0.1:*"}));
    REQUIRE(serve.started());
    httplib::Client http("127.0.0.1", port);
    for (int attempt = 0; attempt < 500 && !http.Get("/healthz"); ++attempt) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto response = http.Put("/shops/" + apiId + "/" + feedId, {{"svc-com-tid", apiId}, {"svc-com-fid", feedId}},
                             plugin.registration().dump(), "application/json");
    REQUIRE(response);
    CHECK(response->status == 200);

    // The scheduler ticks every 30 s: a pull within seconds was asked for by the registration.
    json imports = json::array();
    auto finished = [&] { return !imports.empty() && imports[0]["status"] != "running" && imports[0]["status"] != "queued"; };
    for (int attempt = 0; attempt < 50 && !finished(); ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        imports = runCli({"feed", "history", "--data-dir", dir.path(), "--api-id", apiId})["imports"];
    }
    serve.kill(SIGTERM);
    CHECK(serve.wait() == 0);
    REQUIRE(imports.size() == 1);
    CHECK(imports[0]["status"] == "applied");
    CHECK(imports[0]["source"] == "plugin " + plugin.url("/svc/products"));
    CHECK(plugin.productRequests == 1);
    json sources = runCli({"feed", "source", "list", "--data-dir", dir.path(), "--api-id", apiId})["sources"];
    REQUIRE(sources.size() == 1);
    CHECK(sources[0]["kind"] == "plugin");
    CHECK(sources[0]["lastResult"] == "applied");
}
