#pragma once
// A test that cannot run says so instead of passing. Two ways, both ending in one line
//   SVC-SKIPPED: <test case>: <why>
// that scripts/run-tests.sh lists and counts as skipped:
// - before it runs (preferred): TEST_CASE("..." * svc::test::needs(reason, present, why)) checks
//   what the test needs when the binary starts; doctest then skips the test case and counts it
//   as skipped in its own summary;
// - while it runs: SVC_SKIP(reason, why) ends the test case. doctest counts it as passed (it has
//   no way to skip a running test), so the line says SVC-SKIPPED-RUNNING and run-tests.sh moves
//   it from passed to skipped. Kept for what only the test can find out (a server that would not
//   start) and as the backstop where `needs` does not skip (under CI).
// Two kinds of reason:
// - a dependency scripts/install-deps.sh installs (vsftpd, sshd, s3rver, csv-spectrum,
//   promtool...): under CI (CI=true) `needs` does not skip and SVC_SKIP fails the test, because
//   the machine is broken, not the test;
// - data outside the repository (../shared, which a user's clone and CI do not have): a skip
//   everywhere while ../shared is absent; when ../shared is there, its data missing is a failure;
// - a test of one storage backend's own machinery (SQLite's files, journal, WAL, the data dir's
//   migrations and backups) in a run on another backend (tests/server/TestStorage.hpp): a skip
//   everywhere, CI included, since nothing is missing: the test has nothing to test there.
// Each test binary's main.cpp includes this header once with SVC_SKIP_LISTENER defined, so
// the listener that knows the current test case's name is registered once per binary.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>

namespace svc::test {

enum class SkipReason { DependencyInstalledByScripts, DataOutsideTheRepository, AnotherStorageBackend };

inline std::string& currentTestCaseName() {
    static std::string name;
    return name;
}

inline bool underCi() {
    const char* ci = std::getenv("CI");
    return ci != nullptr && std::string(ci) == "true";
}

// The folder next to the repository with the data no script installs (fashion catalog and
// photos, H&M baskets).
inline std::string sharedDataRoot() { return std::string(SVC_SOURCE_DIR) + "/../shared"; }

// Whether a missing `reason` may be a skip here; false: the test must fail instead.
inline bool maySkip(SkipReason reason) {
    switch (reason) {
        case SkipReason::DependencyInstalledByScripts: return !underCi();
        case SkipReason::DataOutsideTheRepository: return !std::filesystem::exists(sharedDataRoot());
        case SkipReason::AnotherStorageBackend: return true;
    }
    return false;
}

// Why each test case that `needs` skipped was skipped, by test case name.
inline std::map<std::string, std::string>& skipReasons() {
    static std::map<std::string, std::string> reasons;
    return reasons;
}

// A doctest decorator: the test case needs something (`present` says whether it is there,
// checked when the binary starts); without it the test case is skipped before it runs.
struct needs {
    needs(SkipReason reason, bool present, std::string why) : reason_(reason), present_(present), why_(std::move(why)) {}
    void fill(doctest::detail::TestCase& state) const {
        if (present_ || !maySkip(reason_)) return;  // runs, and its own check fails it
        state.m_skip = true;
        skipReasons()[state.m_name] = why_;
    }
    void fill(doctest::detail::TestSuite&) const {}

private:
    SkipReason reason_;
    bool present_;
    std::string why_;
};

// Returns true when the test must fail instead of skipping. Prints the skip line once per
// test case (a test case runs again for each of its subcases).
inline bool reportSkip(SkipReason reason, const std::string& why) {
    if (!maySkip(reason)) return true;
    static std::mutex mutex;
    static std::set<std::string> reported;
    std::lock_guard lock(mutex);
    if (reported.insert(currentTestCaseName()).second) {
        std::cout << "SVC-SKIPPED-RUNNING: " << currentTestCaseName() << ": " << why << std::endl;
    }
    return false;
}

}  // namespace svc::test

// Ends the running test case as skipped (or failed: under CI for an installable dependency,
// and for data outside the repository when ../shared is there).
#define SVC_SKIP(reason, why)                                                                            \
    do {                                                                                                 \
        std::ostringstream svcSkipWhy_;                                                                  \
        svcSkipWhy_ << why;                                                                              \
        if (::svc::test::reportSkip(reason, svcSkipWhy_.str())) {                                        \
            FAIL(std::string(reason == ::svc::test::SkipReason::DependencyInstalledByScripts             \
                                 ? "CI=true and a dependency scripts/install-deps.sh installs is missing: "  \
                                 : "../shared is there but this test's data is not: ")                       \
                 << svcSkipWhy_.str());                                                                  \
        }                                                                                                \
        return;                                                                                          \
    } while (false)

#ifdef SVC_SKIP_LISTENER
namespace svc::test {
// Remembers the running test case's name for SVC_SKIP's line, and says why `needs` skipped one.
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
    // Also called for test cases a -tc filter leaves out: only `needs`' skips have a reason.
    void test_case_skipped(const doctest::TestCaseData& data) override {
        if (!data.m_skip) return;
        auto reason = skipReasons().find(data.m_name);
        if (reason != skipReasons().end()) std::cout << "SVC-SKIPPED: " << data.m_name << ": " << reason->second << std::endl;
    }
};
}  // namespace svc::test
REGISTER_LISTENER("svc-skips", 1, svc::test::SkipListener);
#endif
