#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
// The listener that names the running test case: StoreBackends.hpp picks a test's backends by it.
#define SVC_SKIP_LISTENER
#include "support/Skip.hpp"
