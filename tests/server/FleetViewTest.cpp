// The console's fleet view through the operator API (docs/adr/0066): a real server on port 0,
// real SQLite, real HTTP. Tenants are made to have a failing feed, a held import, quarantined
// purchase lines and widget errors through the routes a shop and the operator use; the list
// orders them by attention, searches, pages within bounds and refuses bad parameters by name.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "tenant/SecretHasher.hpp"
#include "tenant/TenantService.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const httplib::Headers kOperator{{"Authorization", "Bearer fleet-test-key"}};
constexpr int64_t kMidJune = 1750000000;  // 2025-06-15 15:06 UTC

std::string feed(int products) {
    std::vector<std::vector<std::string>> rows{{"sku", "name", "stock", "retail-price", "category-path"}};
    for (int i = 0; i < products; ++i) rows.push_back({"P" + std::to_string(i), "Item " + std::to_string(i), "3", "1000", "Men > Shirts"});
    return test::feedCsv(rows);
}

struct Fleet {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server{dir.path(), &clock};

    Fleet() {
        clock.now = kMidJune;
        REQUIRE(server.storage->operatorKeys().addOperatorKey({"fleet", SecretHasher::hash("fleet-test-key")}));
    }
    Tenant tenant(const std::string& name) {
        auto created = TenantService(server.storage->tenants()).create(name);
        REQUIRE(created);
        REQUIRE(server.storage->tenants().setCommission(created->tenant.id, 30, "500"));  // 5 %
        return created->tenant;
    }
    json list(const std::string& query = "") {
        auto response = server.client().Get("/operator/api/tenants" + query, kOperator);
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
        return json::parse(response->body);
    }
    // Uploads a feed file as the Feeds page does and waits for the import to finish.
    std::string import(const Tenant& tenant, const std::string& csv) {
        std::string base = "/operator/api/tenants/" + tenant.apiId;
        auto uploaded = server.client().Post(base + "/imports", kOperator, csv, "text/csv");
        REQUIRE(uploaded);
        REQUIRE_MESSAGE(uploaded->status == 202, uploaded->body);
        int64_t id = json::parse(uploaded->body)["importId"];
        std::string history;
        for (int attempt = 0; attempt < 1000; ++attempt) {
            history = server.client().Get(base + "/imports", kOperator)->body;
            json records = json::parse(history)["imports"];
            for (const auto& record : records) {
                if (record["id"] == id && record["status"] != "queued" && record["status"] != "running") return record["status"];
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        FAIL("import " << id << " did not finish: " << history);
        return "";
    }
    void click(const Tenant& tenant, const std::string& cid, const std::string& sku) {
        json event{{"type", "click"}, {"cid", cid}, {"widget", "SIMILAR"}, {"touchpoint", "product"}, {"sku", sku}};
        auto response = server.client().Post("/events", {{"x-api-id", tenant.apiId}}, event.dump(), "application/json");
        REQUIRE(response);
        REQUIRE(response->status == 200);
    }
};

std::vector<std::string> names(const json& list) {
    std::vector<std::string> result;
    for (const auto& tenant : list["tenants"]) result.push_back(tenant["name"]);
    return result;
}

std::vector<std::string> reasonKinds(const json& tenant) {
    std::vector<std::string> result;
    for (const auto& reason : tenant["attention"]["reasons"]) result.push_back(reason["kind"]);
    return result;
}

const json& byName(const json& list, const std::string& name) {
    for (const auto& tenant : list["tenants"]) {
        if (tenant["name"] == name) return tenant;
    }
    FAIL("no tenant " << name << " in " << list.dump());
    static const json none;
    return none;
}

}  // namespace

TEST_CASE("fleet view: tenants with a failing feed, quarantined purchases, a held import and widget errors come first, in that order") {
    Fleet fleet;
    Tenant quiet = fleet.tenant("Quiet Shop");
    Tenant failing = fleet.tenant("Failing Shop");
    Tenant held = fleet.tenant("Held Shop");
    Tenant quarantined = fleet.tenant("Quarantine Shop");
    Tenant erring = fleet.tenant("Erring Shop");
    (void)quiet;

    // A feed without the identifier column fails; its tenant never had a feed applied.
    CHECK(fleet.import(failing, "name;price\nShirt;1000\n") == "failed");
    // Ten products, then a full feed of two: deleting 80 % is held for the operator (the truncation guard).
    CHECK(fleet.import(held, feed(10)) == "applied");
    CHECK(fleet.import(held, feed(2)) == "held");
    // A purchase line stored before the money limits existed cannot be booked: quarantined (docs/adr/0055).
    fleet.click(quarantined, "shopper", "ANY");
    fleet.click(quarantined, "shopper", "OK");
    std::vector<TrackingEvent> events{PurchaseEvent{"EVIL-1", "shopper", {{"ANY", 1'000'000, 1'000'000'000'000}, {"OK", 1, 5000}}}};
    std::vector<EventAppend> requests{{quarantined.id, events}};
    REQUIRE(fleet.server.storage->events().append(requests, fleet.clock.nowSeconds()));
    REQUIRE(fleet.server.services->attributor().catchUp());
    // The SDK asked for content with a malformed widget list: the shop's widgets stay empty.
    auto malformed = fleet.server.client().Get("/" + erring.apiId + "/content?w=SIMILAR");
    REQUIRE(malformed);
    CHECK(malformed->status == 400);
    for (int i = 0; i < 3; ++i) fleet.click(erring, "visitor-" + std::to_string(i), "P1");

    json list = fleet.list();
    CHECK(list["total"] == 5);
    CHECK(list["matching"] == 5);
    CHECK(list["needingAttention"] == 4);
    CHECK(list["sort"] == "attention");
    CHECK(list["months"]["this"] == "2025-06");
    CHECK(list["months"]["last"] == "2025-05");
    CHECK(names(list) == std::vector<std::string>{"Failing Shop", "Quarantine Shop", "Held Shop", "Erring Shop", "Quiet Shop"});

    const json& failingEntry = byName(list, "Failing Shop");
    CHECK(failingEntry["attention"]["score"] == 40);
    CHECK(reasonKinds(failingEntry) == std::vector<std::string>{"feed-failing"});
    REQUIRE(failingEntry["feeds"].size() == 1);
    CHECK(failingEntry["feeds"][0]["state"] == "failing");
    CHECK(failingEntry["feeds"][0]["lastStatus"] == "failed");
    CHECK(failingEntry["feeds"][0]["lastMessage"].get<std::string>().find("sku") != std::string::npos);

    const json& quarantineEntry = byName(list, "Quarantine Shop");
    CHECK(reasonKinds(quarantineEntry) == std::vector<std::string>{"purchases-quarantined"});
    CHECK(quarantineEntry["purchases"]["quarantined"] == 1);
    CHECK(quarantineEntry["purchases"]["waiting"] == 0);
    CHECK(quarantineEntry["purchases"]["thisMonth"] == 1);
    CHECK(quarantineEntry["commission"]["thisMonth"] == 250);  // 5 % of the booked line's 50.00
    CHECK(quarantineEntry["traffic"]["thisMonth"] == 2);

    const json& heldEntry = byName(list, "Held Shop");
    CHECK(heldEntry["attention"]["score"] == 25);
    CHECK(reasonKinds(heldEntry) == std::vector<std::string>{"held-imports"});
    CHECK(heldEntry["heldImports"] == 1);
    CHECK(heldEntry["feeds"][0]["state"] == "fresh");

    const json& erringEntry = byName(list, "Erring Shop");
    CHECK(reasonKinds(erringEntry) == std::vector<std::string>{"widget-errors"});
    CHECK(erringEntry["widgetErrors"]["lastDay"] == 1);
    CHECK(erringEntry["widgetErrors"]["lastMessage"] == "w, t, s, i: each widget needs all four parameters");
    CHECK(erringEntry["traffic"]["thisMonth"] == 3);

    CHECK(byName(list, "Quiet Shop")["attention"]["score"] == 0);
    // Other orders on request: most widget traffic this month first.
    CHECK(names(fleet.list("?sort=traffic&limit=2")) == std::vector<std::string>{"Erring Shop", "Quarantine Shop"});
    CHECK(names(fleet.list("?sort=commission&limit=1")) == std::vector<std::string>{"Quarantine Shop"});

    // A month later: June's figures are last month's, the held shop's feed went stale (48 h for a
    // pushed feed), and a day without widget errors forgot them.
    fleet.clock.now = kMidJune + 31 * 86400;
    json july = fleet.list();
    CHECK(july["months"]["this"] == "2025-07");
    CHECK(byName(july, "Erring Shop")["traffic"]["thisMonth"] == 0);
    CHECK(byName(july, "Erring Shop")["traffic"]["lastMonth"] == 3);
    CHECK(byName(july, "Erring Shop")["attention"]["score"] == 0);
    CHECK(byName(july, "Quarantine Shop")["commission"]["lastMonth"] == 250);
    CHECK(reasonKinds(byName(july, "Held Shop")) == std::vector<std::string>{"feed-stale", "held-imports"});
    CHECK(names(july)[0] == "Held Shop");
}

TEST_CASE("fleet view: search by name, API ID or feed ID; pages within bounds; bad parameters refused by name") {
    Fleet fleet;
    std::vector<Tenant> tenants;
    for (const char* name : {"Alpha Boots", "alpha Coats", "Alpha Denim", "Beta Eyewear", "Beta Fabrics", "Gamma <b>Goods</b>", "Alpha Hats"}) {
        tenants.push_back(fleet.tenant(name));
    }
    json alpha = fleet.list("?q=ALPHA&sort=name");
    CHECK(alpha["matching"] == 4);
    CHECK(alpha["total"] == 7);
    CHECK(names(alpha) == std::vector<std::string>{"Alpha Boots", "alpha Coats", "Alpha Denim", "Alpha Hats"});
    CHECK(names(fleet.list("?q=" + tenants[4].apiId)) == std::vector<std::string>{"Beta Fabrics"});
    CHECK(names(fleet.list("?q=" + tenants[3].feedId)) == std::vector<std::string>{"Beta Eyewear"});
    // Tenant-supplied text comes back as it was stored (the console puts it in as text).
    CHECK(names(fleet.list("?q=%3Cb%3E")) == std::vector<std::string>{"Gamma <b>Goods</b>"});

    // Pages of three: every tenant once, in name order (no attention anywhere), the last page short.
    std::vector<std::string> seen;
    for (int page = 1; page <= 3; ++page) {
        json slice = fleet.list("?sort=name&limit=3&page=" + std::to_string(page));
        CHECK(slice["pages"] == 3);
        CHECK(slice["page"] == page);
        CHECK(slice["limit"] == 3);
        CHECK(slice["tenants"].size() == (page < 3 ? 3u : 1u));
        for (const auto& name : names(slice)) seen.push_back(name);
    }
    CHECK(seen == std::vector<std::string>{"Alpha Boots", "alpha Coats", "Alpha Denim", "Alpha Hats", "Beta Eyewear", "Beta Fabrics",
                                           "Gamma <b>Goods</b>"});
    json beyond = fleet.list("?sort=name&limit=3&page=4");
    CHECK(beyond["tenants"].empty());
    CHECK(beyond["matching"] == 7);
    CHECK(fleet.list()["limit"] == 50);

    struct Case {
        std::string query;
        std::string message;
    };
    const Case refused[] = {
        {"?limit=201", "limit: '201' is not a whole number from 1 to 200"},
        {"?limit=0", "limit: '0' is not a whole number from 1 to 200"},
        {"?page=0", "page: '0' is not a whole number from 1 to 1000000"},
        {"?page=two", "page: 'two' is not a whole number from 1 to 1000000"},
        {"?sort=revenue", "sort: 'revenue' is not one of attention, name, traffic, commission"},
        {"?q=" + std::string(201, 'x'), "q: at most 200 bytes"},
        {"?cursor=abc", "cursor: unknown parameter (known: q, sort, page, limit)"},
        {"?page=1&page=2", "page: given more than once"},
    };
    for (const auto& c : refused) {
        CAPTURE(c.query);
        auto response = fleet.server.client().Get("/operator/api/tenants" + c.query, kOperator);
        REQUIRE(response);
        CHECK(response->status == 400);
        CHECK(json::parse(response->body)["error"]["message"] == c.message);
    }
    CHECK(fleet.server.client().Get("/operator/api/tenants")->status == 401);
}
