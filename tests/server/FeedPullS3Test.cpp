// Feed pulls from an S3-compatible bucket: s3rver (npm, e2e/node_modules) started by the test on
// loopback behind tests/tools/s3-test-server.js, which checks AWS Signature V4 as S3 does. The
// format comes from the object's Content-Type; a private object is read signed with the access key,
// a public one anonymously (docs/adr/0034). Skipped, with a message, only when node or s3rver is
// missing or the server cannot start.
#include <doctest/doctest.h>

#include <filesystem>

#include "PullTestSupport.hpp"
#include "TestStorage.hpp"
#include "support/S3TestServer.hpp"
#include "support/Skip.hpp"

using namespace svc;

namespace {

const Credentials kKeys{"SVCTESTKEY", "svc-test-secret-7", ""};

}  // namespace

TEST_CASE("S3 pulls: signed private objects, anonymous public ones, the format by Content-Type, failures named" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, svc::test::S3TestServer::installed(),
                           "S3 pull test: node or e2e/node_modules/s3rver is missing (scripts/install-deps.sh installs node and runs npm ci in e2e/)")) {
    test::PullFixture pulls;
    test::S3TestServer s3(pulls.dir.path(), kKeys.username, kKeys.password, {"private-feeds"},
                          {
                              {"private-feeds", "daily/feed.csv", test::feedOfSkus({"A", "B"}), "text/csv", ""},
                              {"private-feeds", "stock.csv", test::gzipText(test::feedOfSkus({"A", "B", "C"})), "text/csv", "gzip"},
                              {"private-feeds", "feed.json", "{\"sku\": \"A\"}", "application/json", ""},
                              {"public-feeds", "feed.csv", test::feedOfSkus({"A", "B", "C", "P"}), "text/csv; charset=utf-8", ""},
                          });
    if (!s3.running()) {
        SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "S3 pull test: " << s3.why);
    }

    pulls.add(s3.url("private-feeds", "daily/feed.csv"), "default", kKeys);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto first = pulls.latest();
    CHECK(first.status == ImportStatus::Applied);
    CHECK(first.source == "pull " + s3.url("private-feeds", "daily/feed.csv"));
    CHECK(first.counts.inserted == 2);
    CHECK_FALSE(pulls.runtime->sources().find(pulls.tenant.id, "default").value()->etag.empty());

    // Unchanged: the ETag is sent back (signed like the first request) and the bucket answers 304.
    pulls.clock.advance(86400);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.historySize() == 1);
    CHECK(pulls.lastResult("default") == "unchanged");

    // Stored gzip-encoded (Content-Encoding: gzip): decoded on the way in.
    pulls.add(s3.url("private-feeds", "stock.csv"), "stock", kKeys);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.latest().feed == "stock");
    CHECK(pulls.latest().status == ImportStatus::Applied);
    CHECK(pulls.latest().counts.inserted == 1);

    // A public object, without credentials: an anonymous GET.
    pulls.add(s3.url("public-feeds", "feed.csv"), "public");
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.latest().feed == "public");
    CHECK(pulls.latest().status == ImportStatus::Applied);

    pulls.expectFailedPulls({
        {s3.url("private-feeds", "daily/feed.csv"), {kKeys.username, "wrong-secret", ""}, "pull failed: auth: 127.0.0.1 answered 403 (SignatureDoesNotMatch)"},
        {s3.url("private-feeds", "daily/feed.csv"), {"OTHERKEY", kKeys.password, ""}, "pull failed: auth: 127.0.0.1 answered 403 (InvalidAccessKeyId)"},
        {s3.url("private-feeds", "daily/feed.csv"), {}, "pull failed: auth: 127.0.0.1 answered 403 (AccessDenied)"},
        {s3.url("private-feeds", "missing.csv"), kKeys, "pull failed: not found: 127.0.0.1 answered 404 (NoSuchKey)"},
        {s3.url("no-such-bucket", "feed.csv"), kKeys, "pull failed: not found: 127.0.0.1 answered 404 (NoSuchBucket)"},
        {s3.url("private-feeds", "feed.json"), kKeys, "pull failed: content type: 'application/json' is not a feed format"},
        {"s3://private-feeds/feed.csv?endpoint=http://127.0.0.1:" + std::to_string(test::unusedLoopbackPort()), kKeys,
         "pull failed: refused: could not connect to 127.0.0.1"},
    }, {kKeys.password, "wrong-secret"});
}

TEST_CASE("an S3 endpoint on loopback is refused by the guard unless allow-listed") {
    test::TempDir dir;
    test::ManualClock clock;
    auto storage = std::move(svc::test::TestStorage::open(dir.path(), clock).value());
    auto keys = ServerKeys::loadOrCreate(dir.path()).value();
    auto runtime = std::move(PullRuntime::open(dir.path(), *storage, keys, {}).value());
    auto tenant = TenantService(storage->tenants()).create("S3 shop").value().tenant;
    PullSource source;
    source.tenantId = tenant.id;
    source.url = "s3://feeds/feed.csv?endpoint=http://127.0.0.1:" + std::to_string(test::unusedLoopbackPort());
    source.intervalSeconds = 86400;
    source.sealedCredentials = runtime->cipher().seal(kKeys, FeedPuller::credentialOwner(tenant.id, "default"));
    REQUIRE(runtime->sources().add(source));
    CHECK(runtime->scheduler().runDue() == 1);
    auto history = storage->imports().list(tenant.id, "", 1).value();
    REQUIRE(history.size() == 1);
    CHECK(history[0].message.rfind("pull failed: SSRF: host 127.0.0.1 resolves to 127.0.0.1, a loopback address", 0) == 0);
}
