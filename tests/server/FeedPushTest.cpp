// Spec endpoints 1 and 2 and the feed lifecycle, through the real HTTP endpoints:
// request a pre-signed URL, PUT the file, poll the import, query the catalog.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "DataDirSql.hpp"
#include "ServerFixture.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                          "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> product(const std::string& id, const std::string& stock = "5", const std::string& name = "",
                                 const std::string& price = "4000") {
    return {id + "-M", id, "MODEL-" + id, stock, name.empty() ? "Item " + id : name, price, price,
            "https://shop.example/" + id, "https://shop.example/" + id + ".jpg", "Women > Jeans", "Brand", "Blue"};
}

std::string fullFeed(const std::vector<std::string>& ids) {
    std::vector<std::vector<std::string>> rows{kHeader};
    for (const auto& id : ids) rows.push_back(product(id));
    return test::feedCsv(rows);
}

struct PushFixture {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server{dir.path(), &clock};
    Tenant tenant;
    std::string secret;

    PushFixture() {
        auto created = TenantService(server.storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
        secret = created->apiSecret;
    }

    httplib::Headers credentials() const { return {{"x-api-id", tenant.apiId}, {"x-api-secret", secret}}; }

    httplib::Result requestUpload(const json& body, httplib::Headers headers) {
        std::string text = body.dump();  // a named string: rvalue bodies arrived as "null" with cpp-httplib 0.11.4 here
        return server.client().Post("/feeds/uploads", headers, text, "application/json");
    }

    json uploadUrl(bool delta = false, const std::string& identifier = "sku", const std::string& delimiter = ";") {
        json body = json::object();
        body["identifier"] = identifier;
        body["format"]["type"] = "csv";
        body["format"]["options"]["delimiter"] = delimiter;
        body["delta"] = delta;
        auto response = requestUpload(body, credentials());
        REQUIRE(response);
        INFO(response->body);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    }

    // PUTs `body` to the pre-signed URL with the returned headers (optionally altered).
    httplib::Result put(const json& upload, const std::string& body, const std::map<std::string, std::string>& overrides = {},
                        const std::string& drop = "", std::string url = "") {
        if (url.empty()) url = upload["url"].get<std::string>();
        std::string target = url.substr(url.find("/feeds/"));
        httplib::Headers headers;
        std::string contentType;
        for (const auto& [name, value] : upload["headers"].items()) {
            if (name == drop) continue;
            std::string sent = overrides.count(name) ? overrides.at(name) : value.get<std::string>();
            if (name == "content-type") contentType = sent;
            else headers.emplace(name, sent);
        }
        return server.client().Put(target, headers, body, contentType.c_str());
    }

    json waitForImport(int64_t importId) {
        for (int attempt = 0; attempt < 400; ++attempt) {
            auto response = server.client().Get("/feeds/imports/" + std::to_string(importId), credentials());
            REQUIRE(response);
            REQUIRE(response->status == 200);
            auto record = json::parse(response->body);
            if (record["status"] != "queued" && record["status"] != "running") return record;
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        FAIL("import " << importId << " did not finish");
        return {};
    }

    json push(const std::string& csv, bool delta = false) {
        auto upload = uploadUrl(delta);
        auto response = put(upload, csv);
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return waitForImport(json::parse(response->body)["importId"].get<int64_t>());
    }

    json graphqlProduct(const std::string& id) {
        auto response = server.client().Post("/graphql", {{"x-api-id", tenant.apiId}},
                                             json{{"query", "{ product(id: \"" + id + "\") { id name } }"}}.dump(), "application/json");
        REQUIRE(response);
        return json::parse(response->body)["data"]["product"];
    }

    int64_t countRows(const std::string& table) {
        auto db = test::DataDirSql::open(dir.path(), "svc.sqlite3");
        REQUIRE(db);
        auto count = db->integer("SELECT COUNT(*) FROM " + table);
        REQUIRE(count);
        return *count;
    }
};

std::string readBytes(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

}  // namespace

TEST_CASE("push: an upload URL needs both credentials; a refusal records nothing") {
    PushFixture fixture;
    json body = json::parse(R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":";"}}})");
    struct CredentialCase {
        const char* name;
        httplib::Headers headers;
    };
    std::vector<CredentialCase> cases{{"none", {}},
                                      {"id only", {{"x-api-id", fixture.tenant.apiId}}},
                                      {"secret only", {{"x-api-secret", fixture.secret}}},
                                      {"wrong secret", {{"x-api-id", fixture.tenant.apiId}, {"x-api-secret", fixture.secret + "x"}}},
                                      {"unknown id", {{"x-api-id", "00000000-0000-4000-8000-000000000000"}, {"x-api-secret", fixture.secret}}}};
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto response = fixture.requestUpload(body, c.headers);
        REQUIRE(response);
        CHECK(response->status == 401);
        CHECK(json::parse(response->body)["error"]["code"] == "UNAUTHENTICATED");
    }
    CHECK(fixture.countRows("feed_uploads") == 0);
    CHECK(fixture.countRows("feed_imports") == 0);
}

TEST_CASE("push: the upload request is validated field by field") {
    PushFixture fixture;
    struct BodyCase {
        std::string body;
        std::string message;
    };
    std::vector<BodyCase> cases{
        {"{nope", "body: line 1, column 3: not valid JSON (syntax error while parsing object key - invalid literal)"},
        {"[]", "body: must be a JSON object"},
        {R"({"format":{"type":"csv"}})", "identifier: required"},
        {R"({"identifier":7,"format":{"type":"csv"}})", "identifier: must be a string"},
        {R"({"identifier":"","format":{"type":"csv"}})", "identifier: must be 1-64 visible ASCII characters without quotes, ';' or ','"},
        {R"({"identifier":"sku"})", "format: required"},
        {R"({"identifier":"sku","format":"csv"})", "format: must be an object"},
        {R"({"identifier":"sku","format":{}})", "format.type: required, a string"},
        {R"({"identifier":"sku","format":{"type":"xml"}})", "format.type: 'xml' is not supported; the only type is csv"},
        {R"({"identifier":"sku","format":{"type":"csv","options":[]}})", "format.options: must be an object"},
        {R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":";;"}}})", "format.options.delimiter: must be exactly one character"},
        {R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":""}}})", "format.options.delimiter: must be exactly one character"},
        {R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":59}}})", "format.options.delimiter: must be a string"},
        {R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":"\""}}})", "format.options.delimiter: a quote or line break cannot separate columns"},
        {R"({"identifier":"sku","format":{"type":"csv"},"delta":"yes"})", "delta: must be a boolean"},
        {R"({"identifier":"sku","format":{"type":"csv"},"feed":5})", "feed: must be a string"},
        {R"({"identifier":"sku","format":{"type":"csv"},"feed":"Stock Feed"})",
         "feed: 'Stock Feed' is not a feed name (1-40 of a-z, 0-9, '-', '_')"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.body);
        auto response = fixture.server.client().Post("/feeds/uploads", fixture.credentials(), c.body, "application/json");
        REQUIRE(response);
        CHECK(response->status == 400);
        CHECK(json::parse(response->body)["error"]["message"] == c.message);
    }
    auto wrongType = fixture.server.client().Post("/feeds/uploads", fixture.credentials(), R"({"identifier":"sku","format":{"type":"csv"}})",
                                                  "text/plain");
    REQUIRE(wrongType);
    CHECK(wrongType->status == 400);
    CHECK(json::parse(wrongType->body)["error"]["message"] == "content-type: must be application/json");
    CHECK(fixture.countRows("feed_uploads") == 0);
}

TEST_CASE("push: URL, PUT with the returned headers, background import, catalog updated") {
    PushFixture fixture;
    auto upload = fixture.uploadUrl(false, "sku", ",");
    CHECK(upload["method"] == "PUT");
    CHECK(upload["headers"] == json{{"content-type", "text/csv"}, {"x-svc-meta-delimiter", ","}, {"x-svc-meta-delta", "false"},
                                    {"x-svc-meta-identifier", "sku"}});
    std::string url = upload["url"];
    CHECK(url.rfind("http://127.0.0.1:" + std::to_string(fixture.server.server->port()) + "/feeds/uploads/", 0) == 0);
    CHECK(url.find("expires=") != std::string::npos);
    CHECK(url.find("signature=") != std::string::npos);

    // The delimiter recorded for the upload is the one the file is read with.
    std::string csv = "\"sku\",\"main-sku\",\"stock\",\"name\",\"retail-price\",\"category-path\"\n"
                      "\"P-1-S\",\"P-1\",\"3\",\"Shirt, striped\",\"2999\",\"Men > Shirts\"\n"
                      "\"P-2-S\",\"P-2\",\"1\",\"Shirt \"\"plain\"\"\",\"1999\",\"Men > Shirts\"\n";
    auto response = fixture.put(upload, csv);
    REQUIRE(response);
    CHECK(response->status == 200);
    auto answer = json::parse(response->body);
    CHECK(answer["status"] == "queued");
    CHECK(answer["bytes"] == csv.size());
    auto record = fixture.waitForImport(answer["importId"]);
    CHECK(record["status"] == "applied");
    CHECK(record["source"] == "push");
    CHECK(record["rowsRead"] == 2);
    CHECK(record["inserted"] == 2);
    CHECK(record["rejected"] == 0);
    CHECK(fixture.graphqlProduct("P-2-S")["name"] == "Shirt \"plain\"");
    CHECK(fixture.graphqlProduct("P-1")["name"] == "Shirt, striped");

    // The history lists it, newest first, for this tenant only.
    auto history = fixture.server.client().Get("/feeds/imports", fixture.credentials());
    REQUIRE(history);
    auto imports = json::parse(history->body)["imports"];
    REQUIRE(imports.size() == 1);
    CHECK(imports[0]["id"] == answer["importId"]);
    auto other = TenantService(fixture.server.storage->tenants()).create("Other");
    REQUIRE(other);
    auto otherHistory = fixture.server.client().Get("/feeds/imports", {{"x-api-id", other->tenant.apiId}, {"x-api-secret", other->apiSecret}});
    CHECK(json::parse(otherHistory->body)["imports"].empty());
    auto otherDetail = fixture.server.client().Get("/feeds/imports/" + answer["importId"].dump(),
                                                   {{"x-api-id", other->tenant.apiId}, {"x-api-secret", other->apiSecret}});
    CHECK(otherDetail->status == 404);
    // The uploaded file is gone once applied.
    CHECK(std::filesystem::is_empty(fixture.dir.path() + "/uploads"));
}

TEST_CASE("push: tampered, expired, replayed URLs and missing or changed headers are refused with 403") {
    PushFixture fixture;
    std::string csv = fullFeed({"A"});
    auto upload = fixture.uploadUrl();
    std::string url = upload["url"];
    auto refused = [&](httplib::Result response, const std::string& message) {
        REQUIRE(response);
        CHECK(response->status == 403);
        CHECK(json::parse(response->body)["error"]["message"] == message);
    };
    std::string flipped = url;
    flipped.back() = flipped.back() == '0' ? '1' : '0';
    refused(fixture.put(upload, csv, {}, "", flipped), "the upload URL's signature does not match");
    std::string laterExpiry = url;
    size_t expiresAt = laterExpiry.find("expires=") + 8;
    laterExpiry[expiresAt] = laterExpiry[expiresAt] == '9' ? '8' : '9';
    refused(fixture.put(upload, csv, {}, "", laterExpiry), "the upload URL's signature does not match");
    refused(fixture.put(upload, csv, {{"x-svc-meta-delta", "true"}}),
            "header x-svc-meta-delta: missing or not the value returned with the upload URL ('false')");
    refused(fixture.put(upload, csv, {}, "x-svc-meta-identifier"),
            "header x-svc-meta-identifier: missing or not the value returned with the upload URL ('sku')");
    refused(fixture.put(upload, csv, {{"content-type", "text/plain"}}),
            "header content-type: missing or not the value returned with the upload URL ('text/csv')");
    // Another upload's signature does not open this path.
    auto second = fixture.uploadUrl();
    std::string mixed = url.substr(0, url.find("?")) + second["url"].get<std::string>().substr(second["url"].get<std::string>().find("?"));
    CHECK(fixture.put(upload, csv, {}, "", mixed)->status == 403);

    // The refusals did not use the URL up: the correct PUT works, once.
    auto accepted = fixture.put(upload, csv);
    REQUIRE(accepted);
    CHECK(accepted->status == 200);
    refused(fixture.put(upload, csv), "this upload URL was already used");

    fixture.clock.advance(3601);
    refused(fixture.put(second, csv), "the upload URL has expired; request a new one");
}

TEST_CASE("push: delta feeds change only listed products; full feeds mark the rest deleted") {
    PushFixture fixture;
    CHECK(fixture.push(fullFeed({"A", "B", "C", "D"}))["inserted"] == 4);
    auto delta = fixture.push(test::feedCsv({{"sku", "stock"}, {"A-M", "0"}}), true);
    CHECK(delta["status"] == "applied");
    CHECK(delta["updated"] == 1);
    CHECK(delta["markedDeleted"] == 0);
    CHECK(fixture.graphqlProduct("A").is_null());  // out of stock
    CHECK(fixture.graphqlProduct("B")["name"] == "Item B");
    auto full = fixture.push(fullFeed({"A", "B", "C"}));
    CHECK(full["markedDeleted"] == 1);
    CHECK(fixture.graphqlProduct("D").is_null());
    CHECK(fixture.graphqlProduct("C")["name"] == "Item C");
}

TEST_CASE("push: a partial stock-and-price feed never blanks the other columns") {
    PushFixture fixture;
    fixture.push(fullFeed({"A"}));
    auto partial = fixture.push(test::feedCsv({{"sku", "stock", "discount-price"}, {"A-M", "9", "1234"}}), true);
    CHECK(partial["updated"] == 1);
    auto variants = fixture.server.storage->catalog().articleVariants(fixture.tenant.id, "A-M");
    REQUIRE(variants);
    REQUIRE(variants->size() == 1);
    const Product& a = variants->front();
    CHECK(a.stock == 9);
    CHECK(a.discountPrice == 1234);
    CHECK(a.retailPrice == 4000);
    CHECK(a.name == "Item A");
    CHECK(a.image == "https://shop.example/A.jpg");
    CHECK(a.categoryPaths == std::vector<std::string>{"Women > Jeans"});
}

TEST_CASE("push: bad rows are reported with line, column and kind; a non-CSV file fails and changes nothing") {
    PushFixture fixture;
    std::string csv = fullFeed({"A", "B"}) + "\"C-M\";\"C\"\n" + test::feedCsv({product("D", "x")});
    auto record = fixture.push(csv);
    CHECK(record["status"] == "applied");
    CHECK(record["inserted"] == 2);
    CHECK(record["rejected"] == 2);
    auto upload = fixture.server.client().Get("/feeds/imports/" + record["id"].dump(), fixture.credentials());
    auto errors = json::parse(upload->body)["rowErrors"];
    REQUIRE(errors.size() == 2);
    CHECK(errors[0] == json{{"line", 4}, {"column", 2}, {"kind", "too_few_fields"}, {"message", "expected 12 fields, found 2"}});
    CHECK(errors[1]["kind"] == "invalid_integer");
    CHECK(errors[1]["line"] == 5);
    CHECK(errors[1]["column"] == 4);

    auto binary = fixture.push(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    CHECK(binary["status"] == "failed");
    CHECK(binary["message"] == "line 1: header column 1: invalid UTF-8");
    CHECK(fixture.graphqlProduct("A")["name"] == "Item A");
}

TEST_CASE("push: a truncated full feed is held (file kept encrypted), then confirmed or discarded") {
    PushFixture fixture;
    fixture.push(fullFeed({"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}));
    std::string truncated = fullFeed({"A", "B", "SECRET-PLAINTEXT-SKU"});
    auto held = fixture.push(truncated);
    CHECK(held["status"] == "held");
    CHECK(held["markedDeleted"] == 8);
    CHECK(held["message"] == "held: this full feed would mark 8 of 10 products deleted, more than the allowed 50%; confirm it to apply, or discard it");
    CHECK(fixture.graphqlProduct("J")["name"] == "Item J");  // nothing applied
    CHECK(fixture.graphqlProduct("SECRET-PLAINTEXT-SKU").is_null());

    // The kept file is encrypted at rest.
    std::vector<std::string> kept;
    for (const auto& entry : std::filesystem::directory_iterator(fixture.dir.path() + "/uploads")) kept.push_back(entry.path());
    REQUIRE(kept.size() == 1);
    std::string stored = readBytes(kept[0]);
    CHECK(stored.size() > truncated.size());
    CHECK(stored.find("SECRET-PLAINTEXT-SKU") == std::string::npos);
    CHECK(stored.find("Women > Jeans") == std::string::npos);

    auto confirm = fixture.server.client().Post("/feeds/imports/" + held["id"].dump() + "/confirm", fixture.credentials(), "", "text/plain");
    REQUIRE(confirm);
    CHECK(confirm->status == 200);
    auto applied = json::parse(confirm->body);
    CHECK(applied["status"] == "applied");
    CHECK(applied["markedDeleted"] == 8);
    CHECK(fixture.graphqlProduct("J").is_null());
    CHECK(fixture.graphqlProduct("SECRET-PLAINTEXT-SKU")["name"] == "Item SECRET-PLAINTEXT-SKU");
    auto again = fixture.server.client().Post("/feeds/imports/" + held["id"].dump() + "/confirm", fixture.credentials(), "", "text/plain");
    CHECK(again->status == 400);
    CHECK(json::parse(again->body)["error"]["message"] == "import " + held["id"].dump() + " is applied; only held imports can be confirmed");

    auto heldAgain = fixture.push(fullFeed({"A"}));
    CHECK(heldAgain["status"] == "held");
    auto discard = fixture.server.client().Post("/feeds/imports/" + heldAgain["id"].dump() + "/discard", fixture.credentials(), "", "text/plain");
    CHECK(json::parse(discard->body)["status"] == "discarded");
    CHECK(fixture.graphqlProduct("B")["name"] == "Item B");
    CHECK(std::filesystem::is_empty(fixture.dir.path() + "/uploads"));
}

TEST_CASE("lifecycle: a product absent from every feed for more than 24 hours counts as out of stock") {
    PushFixture fixture;
    fixture.push(fullFeed({"A", "B"}));
    fixture.clock.advance(23 * 3600);
    fixture.push(test::feedCsv({{"sku", "stock"}, {"A-M", "5"}}), true);  // only A is seen again
    CHECK(fixture.graphqlProduct("B")["name"] == "Item B");                // 23 h: still there
    fixture.clock.advance(2 * 3600);
    CHECK(fixture.graphqlProduct("B").is_null());                          // 25 h: treated as out of stock
    CHECK(fixture.graphqlProduct("A")["name"] == "Item A");
    auto stats = fixture.server.storage->catalog().stats(fixture.tenant.id);
    REQUIRE(stats);
    CHECK(stats->products == 2);   // not deleted
    CHECK(stats->available == 1);  // but B is not available
    fixture.push(test::feedCsv({{"sku", "stock"}, {"B-M", "5"}}), true);  // seen again: back
    CHECK(fixture.graphqlProduct("B")["name"] == "Item B");
}

TEST_CASE("dry run over HTTP reports what would change and changes nothing") {
    PushFixture fixture;
    fixture.push(fullFeed({"A", "B", "C", "D"}));
    std::string csv = test::feedCsv({kHeader, product("A"), product("B", "9"), product("E")}) + "\"bad\"\n";
    auto response = fixture.server.client().Post("/feeds/validate?delimiter=%3B&delta=false", fixture.credentials(), csv, "text/csv");
    REQUIRE(response);
    CHECK(response->status == 200);
    auto report = json::parse(response->body);
    CHECK(report["dryRun"] == true);
    CHECK(report["rowsRead"] == 4);
    CHECK(report["rejected"] == 1);
    CHECK(report["wouldInsert"] == 1);
    CHECK(report["wouldUpdate"] == 1);
    CHECK(report["unchanged"] == 1);
    CHECK(report["wouldMarkDeleted"] == 2);
    CHECK(report["wouldBeHeld"] == false);
    CHECK(report["rowErrors"][0]["kind"] == "too_few_fields");
    CHECK(fixture.graphqlProduct("E").is_null());
    CHECK(fixture.graphqlProduct("C")["name"] == "Item C");
    auto history = json::parse(fixture.server.client().Get("/feeds/imports", fixture.credentials())->body);
    CHECK(history["imports"].size() == 1);
    // The body was spooled to the data dir (not held in memory) and the spool is gone again.
    for (const auto& entry : std::filesystem::directory_iterator(fixture.dir.path() + "/uploads")) {
        CHECK(entry.path().filename().string().rfind("validate-", 0) != 0);
    }

    auto badOption = fixture.server.client().Post("/feeds/validate?delta=maybe", fixture.credentials(), csv, "text/csv");
    CHECK(badOption->status == 400);
    CHECK(json::parse(badOption->body)["error"]["message"] == "delta: must be true or false");
    auto unauthenticated = fixture.server.client().Post("/feeds/validate", csv, "text/csv");
    CHECK(unauthenticated->status == 401);
}

TEST_CASE("bodies above the limit are refused before they are read") {
    test::TempDir dir;
    ServerOptions options;
    options.maxRequestBytes = 1024;
    options.feeds.maxUploadBytes = 4096;
    test::RunningServer server(dir.path(), nullptr, options);
    auto created = TenantService(server.storage->tenants()).create("Shop");
    REQUIRE(created);
    auto big = server.client().Post("/graphql", std::string(2048, ' '), "application/json");
    REQUIRE(big);
    CHECK(big->status == 413);
    httplib::Headers credentials{{"x-api-id", created->tenant.apiId}, {"x-api-secret", created->apiSecret}};
    auto upload = json::parse(server.client().Post("/feeds/uploads", credentials, R"({"identifier":"sku","format":{"type":"csv"}})",
                                                   "application/json")->body);
    std::string url = upload["url"];
    httplib::Headers headers;
    for (const auto& [name, value] : upload["headers"].items()) {
        if (name != "content-type") headers.emplace(name, value.get<std::string>());
    }
    std::string oversized(8192, 'x');
    auto tooLarge = server.client().Put(url.substr(url.find("/feeds/")), headers, oversized, "text/csv");
    REQUIRE(tooLarge);
    INFO(tooLarge->body);
    CHECK(tooLarge->status == 413);
}

TEST_CASE("push: each of a tenant's feeds has its own history (a full feed and a stock feed)") {
    PushFixture fixture;
    fixture.push(fullFeed({"A", "B"}));
    std::string request = R"({"identifier":"sku","format":{"type":"csv"},"delta":true,"feed":"stock"})";
    auto upload = json::parse(fixture.server.client().Post("/feeds/uploads", fixture.credentials(), request, "application/json")->body);
    auto put = fixture.put(upload, test::feedCsv({{"sku", "stock"}, {"A-M", "0"}}));
    REQUIRE(put->status == 200);
    auto stock = fixture.waitForImport(json::parse(put->body)["importId"]);
    CHECK(stock["status"] == "applied");
    CHECK(stock["feed"] == "stock");
    CHECK(stock["delta"] == true);

    auto all = json::parse(fixture.server.client().Get("/feeds/imports", fixture.credentials())->body)["imports"];
    REQUIRE(all.size() == 2);
    auto onlyStock = json::parse(fixture.server.client().Get("/feeds/imports?feed=stock", fixture.credentials())->body)["imports"];
    REQUIRE(onlyStock.size() == 1);
    CHECK(onlyStock[0]["id"] == stock["id"]);
    auto onlyDefault = json::parse(fixture.server.client().Get("/feeds/imports?feed=default", fixture.credentials())->body)["imports"];
    REQUIRE(onlyDefault.size() == 1);
    CHECK(onlyDefault[0]["feed"] == "default");
    auto bad = fixture.server.client().Get("/feeds/imports?feed=NO%20SUCH", fixture.credentials());
    CHECK(bad->status == 400);
}
