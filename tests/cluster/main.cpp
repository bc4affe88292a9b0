#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
// Registers the listener that names the test case in SVC_SKIP lines.
#define SVC_SKIP_LISTENER
#include "support/Skip.hpp"
