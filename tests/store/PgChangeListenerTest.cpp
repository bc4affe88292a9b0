// PgChangeListener (docs/adr/0088): a node learns of another node's committed content and settings
// changes through LISTEN/NOTIFY, never of rolled-back ones, and asks for a resync after its
// connection was lost. Two Storage objects on one schema stand for two nodes.
#include "StoreBackends.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "store/PgChangeListener.hpp"

namespace svc::contract {
namespace {

const char* const kNoPostgres = "PostgreSQL is not installed (scripts/install-deps.sh installs it): the change listener was not tested";

using Notification = std::pair<std::string, std::string>;  // channel, payload

// What a listener received, in order, for a test to wait on.
class Received {
public:
    PgChangeListener::Callback callback() {
        return [this](const std::string& channel, const std::string& payload) {
            std::lock_guard lock(mutex_);
            all_.push_back({channel, payload});
            arrived_.notify_all();
        };
    }
    // Waits up to `timeout` for `wanted`; true once it is there.
    bool waitFor(const Notification& wanted, std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        return arrived_.wait_for(lock, timeout, [&] { return std::find(all_.begin(), all_.end(), wanted) != all_.end(); });
    }
    std::vector<Notification> all() {
        std::lock_guard lock(mutex_);
        return all_;
    }

private:
    std::mutex mutex_;
    std::condition_variable arrived_;
    std::vector<Notification> all_;
};

Notification content(int64_t tenantId) { return {"svc_content", std::to_string(tenantId)}; }
Notification settings(int64_t tenantId) { return {"svc_settings", std::to_string(tenantId)}; }

constexpr std::chrono::milliseconds kWithin{1000};

}  // namespace

TEST_CASE("PgChangeListener: a node sees another node's content bumps and settings changes within a second, each at its commit" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    auto backend = openBackend(*postgresUrl());
    Received received;
    PgChangeListener listener(backend->schema->url(), received.callback());
    listener.start();
    REQUIRE(listener.listening());
    auto otherNode = backend->openAnother();
    Tenant a = newTenant(*otherNode, "A"), b = newTenant(*otherNode, "B");

    auto started = std::chrono::steady_clock::now();
    REQUIRE(otherNode->content().bumpGeneration(a.id));
    CHECK(received.waitFor(content(a.id), kWithin));
    INFO("milliseconds from the bump to the notification: "
         << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
    CustomSet set;
    set.id = "look";
    set.title = "Look";
    set.images = {"https://shop.example/look.jpg"};
    REQUIRE(otherNode->content().putCustomSet(b.id, set));
    CHECK(received.waitFor(content(b.id), kWithin));
    SetTemplate casual;
    casual.id = "casual-" + std::to_string(::getpid());
    casual.title = "Casual";
    casual.slots = {{"top", {"Shirts"}, {}, {}}};
    REQUIRE(otherNode->content().putTemplate(casual));
    CHECK(received.waitFor(content(0), kWithin));
    REQUIRE(otherNode->content().deleteTemplate(casual.id));

    WidgetSettingsChange country;
    country.country = "AT";
    REQUIRE(otherNode->widgetSettings().change(a.id, country, 100));
    CHECK(received.waitFor(settings(a.id), kWithin));
    REQUIRE(otherNode->tenants().setCurrency(b.id, "CHF"));
    CHECK(received.waitFor(settings(b.id), kWithin));
}

TEST_CASE("PgChangeListener: a change that rolls back announces nothing" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    auto backend = openBackend(*postgresUrl());
    Received received;
    PgChangeListener listener(backend->schema->url(), received.callback());
    listener.start();
    REQUIRE(listener.listening());
    auto otherNode = backend->openAnother();
    Tenant a = newTenant(*otherNode, "A"), b = newTenant(*otherNode, "B");

    // The replace bumps a's generation first, then fails on the second entry of one category.
    REQUIRE_FALSE(otherNode->categoryMappings().replaceCategoryMapping(a.id, {{"T-Shirts", "top"}, {"Tshirts", "top"}}));
    REQUIRE_FALSE(otherNode->widgetSettings().removeTexts(a.id, "fr"));  // nothing to remove
    // Notifications arrive in commit order: once b's has, a rolled-back one for a would have too.
    REQUIRE(otherNode->content().bumpGeneration(b.id));
    REQUIRE(received.waitFor(content(b.id), kWithin));
    CHECK(received.all() == std::vector<Notification>{content(b.id)});
}

TEST_CASE("PgChangeListener: after losing its connection it reconnects, asks for a resync and hears changes again" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    auto backend = openBackend(*postgresUrl());
    Received received;
    PgChangeListener listener(backend->schema->url(), received.callback());
    listener.start();
    REQUIRE(listener.listening());
    auto otherNode = backend->openAnother();
    Tenant a = newTenant(*otherNode, "A");

    // What a restarted or failed-over server does to its sessions.
    auto admin = PgConnection::open(backend->schema->url());
    REQUIRE(admin);
    auto killed = (*admin)->execute("terminate the listener's session",
                                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                    "WHERE application_name = 'svc-listener' AND datname = current_database() AND pid <> pg_backend_pid()");
    REQUIRE_MESSAGE(killed, (killed ? "" : killed.error().message));
    REQUIRE(killed->rows() >= 1);
    CHECK(received.waitFor({"", ""}, std::chrono::seconds(5)));
    CHECK(listener.listening());
    REQUIRE(otherNode->content().bumpGeneration(a.id));
    CHECK(received.waitFor(content(a.id), kWithin));
}

TEST_CASE("PgChangeListener: stop returns promptly, also while the server cannot be reached" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    Received received;
    PgChangeListener listener("postgresql://svc@127.0.0.1:1/postgres?connect_timeout=1", received.callback());
    listener.start();
    CHECK_FALSE(listener.listening());
    auto started = std::chrono::steady_clock::now();
    listener.stop();
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
    CHECK(received.all().empty());
}

}  // namespace svc::contract
