// The server suite runs on the storage backend it was asked for (TestStorage.hpp): a PostgreSQL
// run that quietly opened SQLite would prove nothing about PostgreSQL.
#include <doctest/doctest.h>

#include "ServerFixture.hpp"
#include "store/PgStorage.hpp"
#include "store/SqliteStorage.hpp"

using namespace svc;
using test::TestStorage;

TEST_CASE(TestStorage::kBackendTest * test::needs(test::SkipReason::DependencyInstalledByScripts, !TestStorage::postgresMissing(),
                                                  TestStorage::kNotInstalled)) {
    if (auto why = TestStorage::unavailable()) FAIL(*why);
    test::TempDir dir;
    auto storage = test::openStorage(dir.path());
    CHECK((dynamic_cast<PgStorage*>(storage.get()) != nullptr) == TestStorage::onPostgres());
    CHECK((dynamic_cast<SqliteStorage*>(storage.get()) != nullptr) == !TestStorage::onPostgres());
}
