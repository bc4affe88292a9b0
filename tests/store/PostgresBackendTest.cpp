// The PostgreSQL backend's own promises (docs/adr/0086), beyond the store contracts it shares
// with SQLite: a server for the suite, migrations once across nodes, errors that name the
// statement and never the password, and Storage::open refusing half a backend.
#include "StoreBackends.hpp"

#include <thread>

#include "store/PgCopyBuffer.hpp"
#include "store/PgMigrations.hpp"

namespace svc::contract {
namespace {

const char* const kNoPostgres = "PostgreSQL is not installed (scripts/install-deps.sh installs it): the store contracts ran on SQLite only";

std::string requirePostgres() {
    auto url = postgresUrl();
    if (!url) FAIL("no PostgreSQL: " << svc::test::ThrowawayPostgres::shared().error());
    return *url;
}

}  // namespace

TEST_CASE("PostgreSQL backend: the suite has a server to run the ported stores' contracts on" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    std::string url = requirePostgres();
    auto connection = PgConnection::open(url);
    REQUIRE_MESSAGE(connection, (connection ? "" : connection.error().message));
    auto version = (*connection)->execute("read server version", "SELECT current_setting('server_version_num')::int");
    REQUIRE(version);
    CHECK(version->integer(0, 0) >= 150000);
}

TEST_CASE("PostgreSQL backend: nodes starting at once on an empty schema migrate it once" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    PostgresSchema schema(requirePostgres());
    TestClock clock;
    constexpr int kNodes = 4;
    std::vector<std::string> errors(kNodes);
    std::vector<std::thread> nodes;
    for (int i = 0; i < kNodes; ++i) {
        nodes.emplace_back([&, i] {
            auto opened = PgStorage::open(schema.url(), clock);
            if (!opened) errors[i] = opened.error().message;
        });
    }
    for (auto& node : nodes) node.join();
    for (const auto& error : errors) CHECK(error == "");
    auto connection = PgConnection::open(schema.url());
    REQUIRE(connection);
    auto versions = (*connection)->execute("read applied versions", "SELECT version FROM svc_migrations ORDER BY version");
    REQUIRE_MESSAGE(versions, (versions ? "" : versions.error().message));
    // Versions are applied in order, each once.
    REQUIRE(versions->rows() >= 1);
    CHECK(versions->integer(versions->rows() - 1, 0) == PgMigrations::latestVersion());
    for (int row = 0; row < versions->rows(); ++row) CHECK(versions->integer(row, 0) == row + 1);
}

TEST_CASE("PostgreSQL backend: errors name the statement's purpose and never the URL's password" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    auto unreachable = PgConnection::open("postgresql://svc:hunter2-secret@127.0.0.1:1/postgres?connect_timeout=2");
    REQUIRE_FALSE(unreachable);
    CHECK(unreachable.error().code == ErrorCode::Unavailable);
    CHECK(unreachable.error().message.rfind("postgres: connect: ", 0) == 0);
    CHECK(unreachable.error().message.find("hunter2-secret") == std::string::npos);
    // A malformed URL is not quoted back, not even in part.
    auto malformed = PgConnection::open("postgresql://svc:hunter2%zz-secret@127.0.0.1:1/postgres");
    REQUIRE_FALSE(malformed);
    CHECK(malformed.error().message.find("hunter2") == std::string::npos);

    PostgresSchema schema(requirePostgres());
    auto connection = PgConnection::open(schema.url());
    REQUIRE(connection);
    auto failed = (*connection)->execute("count the unicorns", "SELECT count(*) FROM no_such_table WHERE name = $1", {"x"});
    REQUIRE_FALSE(failed);
    CHECK(failed.error().code == ErrorCode::Internal);
    CHECK(failed.error().message.rfind("postgres: count the unicorns: ", 0) == 0);
    CHECK(failed.error().message.find("no_such_table") != std::string::npos);
    // A value is a parameter, never SQL: a hostile one is only compared, and the connection stays usable.
    REQUIRE((*connection)->executeScript("create table", "CREATE TABLE t (name text)"));
    for (const auto& text : hostileStrings()) {
        auto inserted = (*connection)->execute("insert hostile value", "INSERT INTO t(name) VALUES ($1)", {text});
        REQUIRE_MESSAGE(inserted, (inserted ? "" : inserted.error().message));
    }
    auto stored = (*connection)->execute("read hostile values", "SELECT name FROM t ORDER BY name");
    REQUIRE(stored);
    CHECK(stored->rows() == static_cast<int>(hostileStrings().size()));
}

TEST_CASE("PostgreSQL backend: COPY takes hostile text and arrays byte for byte, and a refused COPY names its purpose" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    PostgresSchema schema(requirePostgres());
    auto connection = PgConnection::open(schema.url());
    REQUIRE(connection);
    PgConnection& db = **connection;
    REQUIRE(db.executeScript("create table", "CREATE TABLE copied (position int, value text, number bigint)"));
    std::vector<std::string> values = hostileStrings();
    values.insert(values.end(), {"\\.", "\\N", "", "ends with a backslash \\", "{\"a\",b}", "NULL", "x,y"});
    PgCopyBuffer rows;
    for (size_t i = 0; i < values.size(); ++i) rows.integer(static_cast<int64_t>(i)).text(values[i]).integer(std::optional<int64_t>()).endRow();
    REQUIRE(db.beginCopy("copy hostile values", "COPY copied(position, value, number) FROM STDIN"));
    REQUIRE(db.putCopyData("copy hostile values", rows.rows()));
    auto copied = db.endCopy("copy hostile values");
    REQUIRE_MESSAGE(copied, (copied ? "" : copied.error().message));
    auto stored = db.execute("read copied values", "SELECT value, number IS NULL, value = ANY($1::text[]) FROM copied ORDER BY position",
                             {PgParam::textArray(values)});
    REQUIRE(stored);
    REQUIRE(stored->rows() == static_cast<int>(values.size()));
    for (int row = 0; row < stored->rows(); ++row) {
        CAPTURE(values[static_cast<size_t>(row)]);
        CHECK(stored->text(row, 0) == values[static_cast<size_t>(row)]);
        CHECK(stored->text(row, 1) == "t");  // \N is NULL, the text "\N" is not
        CHECK(stored->text(row, 2) == "t");  // and each is one element of the array
    }
    // A row with a column too few: the server refuses the COPY; the connection stays usable.
    REQUIRE(db.beginCopy("copy a short row", "COPY copied(position, value, number) FROM STDIN"));
    REQUIRE(db.putCopyData("copy a short row", "1\tonly two\n"));
    auto refused = db.endCopy("copy a short row");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.rfind("postgres: copy a short row: ", 0) == 0);
    CHECK(db.execute("count copied values", "SELECT count(*) FROM copied")->integer(0, 0) == static_cast<int64_t>(values.size()));
}

TEST_CASE("PostgreSQL backend: Storage::open takes postgres:// and postgresql:// URLs; an unreachable one fails without its password" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    TestClock clock;
    for (const char* url : {"postgres://svc:hunter2-secret@127.0.0.1:1/svc?connect_timeout=2", "postgresql://svc:hunter2-secret@127.0.0.1:1/svc?connect_timeout=2"}) {
        auto opened = Storage::open(url, clock);
        REQUIRE_FALSE(opened);
        CHECK(opened.error().code == ErrorCode::Unavailable);
        CHECK(opened.error().message.find("hunter2-secret") == std::string::npos);
    }
    PostgresSchema schema(requirePostgres());
    auto opened = Storage::open(schema.url(), clock);
    REQUIRE_MESSAGE(opened, (opened ? "" : opened.error().message));
    Tenant tenant = newTenant(**opened, "through Storage::open");
    // What it wrote is PostgreSQL's: another PgStorage on the same schema finds it.
    auto other = PgStorage::open(schema.url(), clock);
    REQUIRE(other);
    auto found = (*other)->tenants().findByApiId(tenant.apiId);
    REQUIRE(found);
    CHECK(found->has_value());
}

}  // namespace svc::contract
