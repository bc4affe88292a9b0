#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
// Registers the listener that names the test case in SVC_SKIP lines.
#define SVC_SKIP_LISTENER
#include "support/Skip.hpp"
#include "TestStorage.hpp"

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    // Asked for a PostgreSQL that cannot be used: only the backend test runs, to say why (a skip,
    // or a failure under CI=true); every other test would open storage on nothing.
    if (svc::test::TestStorage::unavailable()) context.addFilter("test-case", svc::test::TestStorage::kBackendTest);
    return context.run();
}
