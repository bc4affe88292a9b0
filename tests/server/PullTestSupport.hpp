#pragma once
// What the pull tests of every protocol share: a tenant with a pull runtime that allows the
// loopback servers the tests start, sources added with sealed credentials, the history, and
// small helpers (gzip, a feed of SKUs, waiting for a server to accept).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <zlib.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "LoopbackFeedServer.hpp"
#include "ServerFixture.hpp"
#include "feed/PullRuntime.hpp"

namespace svc::test {

inline std::string gzipText(const std::string& text) {
    z_stream stream{};
    deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&stream, text.size()) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

inline bool loopbackAccepts(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return connected;
}

// Polls until the port accepts or the process exits; at most `limit`.
template <typename Process>
bool waitUntilAccepting(int port, Process& process, std::chrono::milliseconds limit = std::chrono::milliseconds(4000)) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline && !process.hasExited()) {
        if (loopbackAccepts(port)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

inline std::string feedOfSkus(const std::vector<std::string>& skus) {
    std::vector<std::vector<std::string>> rows{{"sku", "name", "stock", "retail-price", "category-path"}};
    for (const auto& sku : skus) rows.push_back({sku, "Item " + sku, "3", "1000", "Men > Shirts"});
    return feedCsv(rows);
}

struct PullFixture {
    TempDir dir;
    ManualClock clock;
    std::unique_ptr<Storage> storage;
    std::optional<ServerKeys> keys;
    std::unique_ptr<PullRuntime> runtime;
    Tenant tenant;
    PullFixture() {
        storage = std::move(TestStorage::open(dir.path(), clock).value());
        keys = ServerKeys::loadOrCreate(dir.path()).value();
        FetchLimits limits;
        limits.totalTimeoutMs = 20'000;  // a hung transfer fails the test in seconds, not minutes
        runtime = std::move(PullRuntime::open(dir.path(), *storage, *keys, {"127.0.0.1:*"}, limits).value());
        tenant = TenantService(storage->tenants()).create("Pull shop").value().tenant;
    }
    void add(const std::string& url, const std::string& feedName, const Credentials& credentials = {}) {
        PullSource source;
        source.tenantId = tenant.id;
        source.feed = feedName;
        source.url = url;
        source.intervalSeconds = 86400;
        if (!credentials.empty()) source.sealedCredentials = runtime->cipher().seal(credentials, FeedPuller::credentialOwner(tenant.id, feedName));
        source.nextRunAt = clock.nowSeconds();
        REQUIRE(runtime->sources().add(source));
    }
    FeedImportRecord latest() {
        auto records = storage->imports().list(tenant.id, "", 1);
        REQUIRE(records);
        REQUIRE_FALSE(records->empty());
        return records->front();
    }
    struct FailingSource {
        std::string url;
        Credentials credentials;
        std::string reason;  // the start of the history message
    };
    // Each source as a feed of its own, pulled once: failed, the message starting with its reason
    // and naming none of `secrets`.
    void expectFailedPulls(const std::vector<FailingSource>& sources, const std::vector<std::string>& secrets) {
        int number = 0;
        for (const auto& c : sources) {
            CAPTURE(c.url);
            CAPTURE(c.reason);
            std::string name = "f" + std::to_string(++number);
            add(c.url, name, c.credentials);
            CHECK(runtime->scheduler().runDue() == 1);
            auto failed = latest();
            CHECK(failed.feed == name);
            CHECK(failed.status == ImportStatus::Failed);
            CHECK(failed.message.rfind(c.reason, 0) == 0);
            for (const auto& secret : secrets) CHECK(failed.message.find(secret) == std::string::npos);
        }
    }
    size_t historySize() { return storage->imports().list(tenant.id, "", 100).value().size(); }
    std::string lastResult(const std::string& feedName) { return runtime->sources().find(tenant.id, feedName).value()->lastResult; }
};

}  // namespace svc::test
