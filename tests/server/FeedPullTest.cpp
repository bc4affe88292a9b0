// Scheduled feed pulls end to end: sources in the real store, the scheduler, the fetcher
// against a real HTTP server on loopback, imports into the real catalog, the shared import history.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "DataDirSql.hpp"
#include "LoopbackFeedServer.hpp"
#include "ServerFixture.hpp"
#include "feed/PullRuntime.hpp"

using namespace svc;

namespace {

const std::vector<std::string> kHeader = {"sku", "name", "stock", "retail-price", "category-path"};

std::string feed(const std::vector<std::string>& skus, const std::string& stock = "3") {
    std::vector<std::vector<std::string>> rows{kHeader};
    for (const auto& sku : skus) rows.push_back({sku, "Item " + sku, stock, "1000", "Men > Shirts"});
    return test::feedCsv(rows);
}

FetchLimits testLimits() {
    FetchLimits limits;
    limits.totalTimeoutMs = 20'000;  // a hung transfer fails the test in seconds, not minutes
    return limits;
}

struct Pulls {
    test::TempDir dir;
    test::ManualClock clock;
    test::LoopbackFeedServer server;
    std::unique_ptr<Storage> storage;
    std::optional<ServerKeys> keys;
    std::unique_ptr<PullRuntime> runtime;
    Tenant tenant;

    explicit Pulls(std::vector<std::string> allowList = {"127.0.0.1:*"}) {
        auto opened = svc::test::TestStorage::open(dir.path(), clock);
        REQUIRE(opened);
        storage = std::move(*opened);
        auto loaded = ServerKeys::loadOrCreate(dir.path());
        REQUIRE(loaded);
        keys = *loaded;
        auto created = PullRuntime::open(dir.path(), *storage, *keys, allowList, testLimits());
        REQUIRE(created);
        runtime = std::move(*created);
        tenant = newTenant("Pull shop");
    }
    Tenant newTenant(const std::string& name) {
        auto created = TenantService(storage->tenants()).create(name);
        REQUIRE(created);
        return created->tenant;
    }
    PullSource addSource(const Tenant& owner, const std::string& url, const std::string& feedName = "default", bool delta = false,
                         const Credentials& credentials = {}) {
        PullSource source;
        source.tenantId = owner.id;
        source.feed = feedName;
        source.url = url;
        source.delta = delta;
        source.intervalSeconds = defaultPullInterval(delta);
        if (!credentials.empty()) source.sealedCredentials = runtime->cipher().seal(credentials, FeedPuller::credentialOwner(owner.id, feedName));
        source.createdAt = clock.nowSeconds();
        source.nextRunAt = clock.nowSeconds();
        auto stored = runtime->sources().add(source);
        REQUIRE(stored);
        return *stored;
    }
    std::vector<FeedImportRecord> history(const Tenant& owner) {
        auto records = storage->imports().list(owner.id, "", 100);
        REQUIRE(records);
        return *records;
    }
    PullSource source(const Tenant& owner, const std::string& feedName = "default") {
        auto found = runtime->sources().find(owner.id, feedName);
        REQUIRE(found);
        REQUIRE(found->has_value());
        return **found;
    }
    int64_t liveProducts(const Tenant& owner) {
        int64_t count = 0;
        REQUIRE(storage->catalog().forEachLiveProduct(owner.id, [&](Product&&) { ++count; }));
        return count;
    }
};

}  // namespace

TEST_CASE("a due source is pulled into the catalog; an unchanged file is neither downloaded nor imported again") {
    Pulls pulls;
    pulls.server.setFeed(feed({"A", "B"}), "\"v1\"");
    pulls.addSource(pulls.tenant, pulls.server.url("/feed.csv"));

    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto history = pulls.history(pulls.tenant);
    REQUIRE(history.size() == 1);
    CHECK(history[0].status == ImportStatus::Applied);
    CHECK(history[0].source == "pull " + pulls.server.url("/feed.csv"));
    CHECK(history[0].counts.inserted == 2);
    CHECK(pulls.liveProducts(pulls.tenant) == 2);
    auto source = pulls.source(pulls.tenant);
    CHECK(source.etag == "\"v1\"");
    CHECK(source.lastResult == "applied");
    CHECK(source.nextRunAt == pulls.clock.nowSeconds() + 86400);

    // Not due yet: nothing runs.
    pulls.clock.advance(3600);
    CHECK(pulls.runtime->scheduler().runDue() == 0);
    CHECK(pulls.server.feedRequests == 1);

    // A day later the file is the same: a 304, no download, no history entry.
    pulls.clock.advance(86400);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.server.notModified == 1);
    CHECK(pulls.history(pulls.tenant).size() == 1);
    CHECK(pulls.source(pulls.tenant).lastResult == "unchanged");

    // The shop changes the file: it is imported (a full feed: C replaces B).
    pulls.server.setFeed(feed({"A", "C"}), "\"v2\"");
    pulls.clock.advance(86400);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    history = pulls.history(pulls.tenant);
    REQUIRE(history.size() == 2);
    CHECK(history[0].status == ImportStatus::Applied);
    CHECK(history[0].counts.inserted == 1);
    CHECK(history[0].counts.markedDeleted == 1);
    CHECK(pulls.source(pulls.tenant).etag == "\"v2\"");
}

TEST_CASE("Last-Modified alone is enough to skip an unchanged file") {
    Pulls pulls;
    pulls.server.setFeed(feed({"A"}), "", "Sat, 21 Nov 2026 10:00:00 GMT");
    pulls.addSource(pulls.tenant, pulls.server.url("/feed.csv"));
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.source(pulls.tenant).lastModified == "Sat, 21 Nov 2026 10:00:00 GMT");
    pulls.clock.advance(86400);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.server.notModified == 1);
    CHECK(pulls.history(pulls.tenant).size() == 1);
}

TEST_CASE("a gzip-encoded delta feed of its own name is decoded and applied as a delta") {
    Pulls pulls;
    pulls.server.setFeed(feed({"A", "B", "C"}), "\"full\"");
    pulls.addSource(pulls.tenant, pulls.server.url("/feed.csv"));
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    // The stock feed lists only A; as a delta nothing else is deleted. The loopback server gzips it on the wire.
    pulls.server.setFeed(feed({"A"}, "0"), "\"stock-1\"");
    CHECK(*pulls.runtime->sources().remove(pulls.tenant.id, "default"));
    pulls.addSource(pulls.tenant, pulls.server.url("/feed.csv"), "stock", /*delta=*/true);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto history = pulls.history(pulls.tenant);
    REQUIRE(history.size() == 2);
    CHECK(history[0].feed == "stock");
    CHECK(history[0].delta);
    CHECK(history[0].status == ImportStatus::Applied);
    CHECK(history[0].counts.updated == 1);
    CHECK(history[0].counts.markedDeleted == 0);
    CHECK(pulls.liveProducts(pulls.tenant) == 3);
    CHECK(pulls.source(pulls.tenant, "stock").nextRunAt == pulls.clock.nowSeconds() + 3600);
}

TEST_CASE("basic auth credentials are sealed at rest, used for the pull, and a wrong password is an auth failure") {
    Pulls pulls;
    pulls.server.setFeed(feed({"A"}), "");
    pulls.addSource(pulls.tenant, pulls.server.url("/private.csv"), "default", false, {"shop", "s3cret"});
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto history = pulls.history(pulls.tenant);
    REQUIRE(history.size() == 1);
    CHECK(history[0].status == ImportStatus::Applied);

    // Neither the password nor the user is in the database; the key file is private.
    auto db = test::DataDirSql::open(pulls.dir.path(), "svc.sqlite3");
    REQUIRE(db);
    auto credentials = db->column("SELECT credentials FROM pull_sources");
    REQUIRE(credentials);
    REQUIRE(credentials->size() == 1);
    std::string sealed = credentials->front();
    CHECK_FALSE(sealed.empty());
    CHECK(sealed.find("s3cret") == std::string::npos);
    CHECK(sealed.find("shop") == std::string::npos);
    struct stat info {};
    REQUIRE(::stat((pulls.dir.path() + "/keys/credentials.key").c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
    // Sealed for this tenant's feed: opening it for another owner fails.
    CHECK(pulls.runtime->cipher().open(sealed, FeedPuller::credentialOwner(pulls.tenant.id, "default")));
    CHECK_FALSE(pulls.runtime->cipher().open(sealed, FeedPuller::credentialOwner(pulls.tenant.id + 1, "default")));
    std::string tampered = sealed;
    tampered[30] = tampered[30] == 'A' ? 'B' : 'A';
    CHECK_FALSE(pulls.runtime->cipher().open(tampered, FeedPuller::credentialOwner(pulls.tenant.id, "default")));
    // An SFTP source's pinned host key and private key are sealed with the login and come back whole.
    std::string owner = FeedPuller::credentialOwner(pulls.tenant.id, "sftp");
    auto sftp = pulls.runtime->cipher().open(pulls.runtime->cipher().seal({"shop", "", "SHA256:pin", "-----BEGIN KEY-----"}, owner), owner);
    REQUIRE(sftp);
    CHECK(sftp->username == "shop");
    CHECK(sftp->hostKey == "SHA256:pin");
    CHECK(sftp->privateKey == "-----BEGIN KEY-----");
    CHECK(pulls.runtime->cipher().open(sealed, FeedPuller::credentialOwner(pulls.tenant.id, "default"))->hostKey.empty());

    Pulls wrong;
    wrong.server.setFeed(feed({"A"}), "");
    wrong.addSource(wrong.tenant, wrong.server.url("/private.csv"), "default", false, {"shop", "guess"});
    CHECK(wrong.runtime->scheduler().runDue() == 1);
    auto failed = wrong.history(wrong.tenant);
    REQUIRE(failed.size() == 1);
    CHECK(failed[0].status == ImportStatus::Failed);
    CHECK(failed[0].message.rfind("pull failed: auth: ", 0) == 0);
    CHECK(failed[0].message.find("guess") == std::string::npos);
    CHECK(wrong.liveProducts(wrong.tenant) == 0);
}

TEST_CASE("every failed pull is in the history with its reason, and the catalog stays as it was") {
    Pulls pulls;
    pulls.server.setFeed(feed({"A"}), "");
    pulls.addSource(pulls.tenant, pulls.server.url("/feed.csv"));
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    REQUIRE(pulls.liveProducts(pulls.tenant) == 1);

    struct Case {
        std::string url;
        std::string reason;
    };
    const std::vector<Case> cases{
        {pulls.server.url("/gone.csv"), "pull failed: not found: "},
        {pulls.server.url("/page.html"), "pull failed: content type: 'text/html' is not a feed format"},
        {"http://feeds.nonexistent.invalid/feed.csv", "pull failed: DNS: could not resolve host feeds.nonexistent.invalid"},
        {"http://10.0.0.1/feed.csv", "pull failed: SSRF: host 10.0.0.1 resolves to 10.0.0.1, a private address"},
        {"http://169.254.169.254/feed.csv", "pull failed: SSRF: host 169.254.169.254 resolves to 169.254.169.254, a cloud metadata address"},
    };
    int feedNumber = 0;
    for (const auto& c : cases) {
        CAPTURE(c.url);
        std::string name = "f" + std::to_string(++feedNumber);
        pulls.addSource(pulls.tenant, c.url, name);
        CHECK(pulls.runtime->scheduler().runDue() == 1);
        auto history = pulls.history(pulls.tenant);
        REQUIRE_FALSE(history.empty());
        CHECK(history[0].feed == name);
        CHECK(history[0].status == ImportStatus::Failed);
        CHECK(history[0].source == "pull " + c.url);
        CHECK(history[0].message.rfind(c.reason, 0) == 0);
        auto source = pulls.source(pulls.tenant, name);
        CHECK(source.lastResult.rfind("failed: ", 0) == 0);
        CHECK(source.nextRunAt == pulls.clock.nowSeconds() + 3600);  // retried within the hour, not the next day
    }
    CHECK(pulls.liveProducts(pulls.tenant) == 1);
}

TEST_CASE("a disabled tenant's due source is not fetched; the history says why, and enabled again it is pulled") {
    Pulls pulls;
    pulls.server.setFeed(feed({"A", "B"}), "\"v1\"");
    pulls.addSource(pulls.tenant, pulls.server.url("/feed.csv"));
    REQUIRE(pulls.storage->tenants().setDisabled(pulls.tenant.id, true));

    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.server.feedRequests == 0);  // nothing left svc on the tenant's behalf
    auto history = pulls.history(pulls.tenant);
    REQUIRE(history.size() == 1);
    CHECK(history[0].status == ImportStatus::Failed);
    CHECK(history[0].message == "pull failed: the tenant is disabled: ask the service operator");
    CHECK(pulls.liveProducts(pulls.tenant) == 0);

    REQUIRE(pulls.storage->tenants().setDisabled(pulls.tenant.id, false));
    pulls.clock.advance(86400);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.server.feedRequests == 1);
    CHECK(pulls.liveProducts(pulls.tenant) == 2);
}

TEST_CASE("a pull of a loopback server is refused by default") {
    Pulls pulls(std::vector<std::string>{});
    pulls.server.setFeed(feed({"A"}), "");
    pulls.addSource(pulls.tenant, pulls.server.url("/feed.csv"));
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto history = pulls.history(pulls.tenant);
    REQUIRE(history.size() == 1);
    CHECK(history[0].message == "pull failed: SSRF: host 127.0.0.1 resolves to 127.0.0.1, a loopback address: refused (server-side request "
                                "forgery guard; an operator can allow it with --outbound-allow)");
    CHECK(pulls.server.feedRequests == 0);
}

TEST_CASE("tenants' sources and pulls are their own") {
    Pulls pulls;
    Tenant other = pulls.newTenant("Other shop");
    pulls.server.setFeed(feed({"A", "B"}), "");
    pulls.addSource(pulls.tenant, pulls.server.url("/feed.csv"));
    pulls.addSource(other, pulls.server.url("/gone.csv"));
    CHECK(pulls.runtime->scheduler().runDue() == 2);
    CHECK(pulls.liveProducts(pulls.tenant) == 2);
    CHECK(pulls.liveProducts(other) == 0);
    REQUIRE(pulls.history(pulls.tenant).size() == 1);
    CHECK(pulls.history(pulls.tenant)[0].status == ImportStatus::Applied);
    REQUIRE(pulls.history(other).size() == 1);
    CHECK(pulls.history(other)[0].status == ImportStatus::Failed);
    auto listed = pulls.runtime->sources().list(other.id);
    REQUIRE(listed);
    REQUIRE(listed->size() == 1);
    CHECK(listed->front().url == pulls.server.url("/gone.csv"));
    // One source per tenant and feed.
    PullSource duplicate = listed->front();
    auto refused = pulls.runtime->sources().add(duplicate);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == ErrorCode::AlreadyExists);
}

TEST_CASE("the scheduler's thread pulls due sources and stops promptly") {
    Pulls pulls;
    pulls.server.setFeed(feed({"A"}), "");
    pulls.addSource(pulls.tenant, pulls.server.url("/feed.csv"));
    pulls.runtime->scheduler().start(std::chrono::milliseconds(50));
    for (int attempt = 0; attempt < 200 && pulls.history(pulls.tenant).empty(); ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    auto started = std::chrono::steady_clock::now();
    pulls.runtime->scheduler().stop();
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
    REQUIRE(pulls.history(pulls.tenant).size() == 1);
    CHECK(pulls.history(pulls.tenant)[0].status == ImportStatus::Applied);
}

TEST_CASE("pull intervals, URLs and their refusals name the option") {
    CHECK(parsePullInterval("15m", "--every").value() == 900);
    CHECK(parsePullInterval("6h", "--every").value() == 21600);
    CHECK(parsePullInterval("1d", "--every").value() == 86400);
    CHECK(formatPullInterval(5400) == "90m");
    for (const char* bad : {"", "15", "m", "-5m", "1.5h", "5w", "99999d"}) {
        CAPTURE(bad);
        auto parsed = parsePullInterval(bad, "--every");
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().message.rfind("--every: ", 0) == 0);
    }
    CHECK(validatePullInterval(900, true, "--every"));
    CHECK_FALSE(validatePullInterval(600, true, "--every"));
    CHECK_FALSE(validatePullInterval(900, false, "--every"));
    CHECK(validatePullInterval(3600, false, "--every"));
    CHECK(validatePullUrl("https://shop.example/feeds/all.csv?token=1", "--url"));
    for (const char* bad : {"gopher://shop.example/a.csv", "ftp://u:pw@shop.example/a.csv", "sftp://u:pw@shop.example/a.csv", "s3://Bad_Bucket/a.csv", "shop.example/a.csv", "https://", "https://user:pw@shop.example/a.csv",
                            "https://shop.example/a b.csv"}) {
        CAPTURE(bad);
        auto valid = validatePullUrl(bad, "--url");
        REQUIRE_FALSE(valid);
        CHECK(valid.error().message.rfind("--url: ", 0) == 0);
        CHECK(valid.error().message.find("pw") == std::string::npos);
    }
}
