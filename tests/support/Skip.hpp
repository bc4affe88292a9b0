#pragma once
// A test that cannot run says so instead of passing. SVC_SKIP prints one line,
//   SVC-SKIPPED: <test case>: <why>
// which scripts/run-tests.sh counts as skipped (doctest itself would count the test case as
// passed). Two kinds of reason:
// - a dependency scripts/install-deps.sh installs (vsftpd, sshd, s3rver, csv-spectrum,
//   promtool...): under CI (CI=true) the skip is a failure, because the machine is broken,
//   not the test;
// - data outside the repository (../shared): a skip everywhere, said as such.
// Each test binary's main.cpp includes this header once with SVC_SKIP_LISTENER defined, so
// the listener that knows the current test case's name is registered once per binary.
#include <doctest/doctest.h>

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>
#include <set>
#include <string>

namespace svc::test {

enum class SkipReason { DependencyInstalledByScripts, DataOutsideTheRepository };

inline std::string& currentTestCaseName() {
    static std::string name;
    return name;
}

inline bool underCi() {
    const char* ci = std::getenv("CI");
    return ci != nullptr && std::string(ci) == "true";
}

// Returns true when the test must fail instead of skipping. Prints the skip line once per
// test case (a test case runs again for each of its subcases).
inline bool reportSkip(SkipReason reason, const std::string& why) {
    if (reason == SkipReason::DependencyInstalledByScripts && underCi()) return true;
    static std::mutex mutex;
    static std::set<std::string> reported;
    std::lock_guard lock(mutex);
    if (reported.insert(currentTestCaseName()).second) {
        std::cout << "SVC-SKIPPED: " << currentTestCaseName() << ": " << why << std::endl;
    }
    return false;
}

}  // namespace svc::test

// Ends the current test case as skipped (or failed, under CI, for an installable dependency).
#define SVC_SKIP(reason, why)                                                                            \
    do {                                                                                                 \
        std::ostringstream svcSkipWhy_;                                                                  \
        svcSkipWhy_ << why;                                                                              \
        if (::svc::test::reportSkip(reason, svcSkipWhy_.str())) {                                        \
            FAIL("CI=true and a dependency scripts/install-deps.sh installs is missing: " << svcSkipWhy_.str()); \
        }                                                                                                \
        return;                                                                                          \
    } while (false)

#ifdef SVC_SKIP_LISTENER
namespace svc::test {
// Only remembers the running test case's name for SVC_SKIP's line.
struct SkipListener : doctest::IReporter {
    explicit SkipListener(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData& data) override { currentTestCaseName() = data.m_name; }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};
}  // namespace svc::test
REGISTER_LISTENER("svc-skips", 1, svc::test::SkipListener);
#endif
