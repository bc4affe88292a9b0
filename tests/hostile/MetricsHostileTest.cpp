// Finding 6: /metrics poisoned by junk request lines. The route label copied the raw method
// token, so `GE"T /x HTTP/1.1` broke the exposition format until restart and every new
// method added a series. Labels come from a fixed set now; promtool (Debian's prometheus
// package, installed by scripts/install-deps.sh) must accept the page after any request line.
#include <doctest/doctest.h>

#include <cstdio>
#include <set>

#include "hostile/HostileSupport.hpp"
#include "support/Skip.hpp"
#include "support/Promtool.hpp"

using namespace svc::hostile;

namespace {

std::string fetchMetrics(int port) {
    httplib::Client client("127.0.0.1", port);
    auto response = client.Get("/metrics");
    REQUIRE(response);
    REQUIRE(response->status == 200);
    return response->body;
}

// promtool's verdict on an exposition page: empty when it is clean.
std::string promtoolProblems(const std::string& page, const std::string& dir) {
    std::string path = dir + "/metrics.txt";
    std::ofstream(path, std::ios::binary) << page;
    return svc::test::promtool("check metrics < '" + path + "'");
}

std::set<std::string> requestSeries(const std::string& page) {
    std::set<std::string> series;
    std::istringstream lines(page);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("svc_http_requests_total{", 0) == 0) series.insert(line.substr(0, line.rfind(' ')));
    }
    return series;
}

}  // namespace

TEST_CASE("Metrics: junk request lines neither break the exposition format nor add series" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, svc::test::havePromtool(), "promtool is not installed (Debian's prometheus package)")) {
    if (!svc::test::havePromtool()) {
        SVC_SKIP(svc::test::SkipReason::DependencyInstalledByScripts, "promtool is not installed (Debian's prometheus package)");
    }
    AttackWindow window;
    auto& server = window.server();
    std::string before = fetchMetrics(server.port());
    CHECK(promtoolProblems(before, server.dataDir()) == "");

    // The finding's request line, a label-breaking newline escape, and 300 distinct methods.
    std::vector<std::string> requestLines = {"GE\"T /x HTTP/1.1", "G\\ET /x HTTP/1.1", "GET\" /x\" HTTP/1.1",
                                             "POST /\"}\n HTTP/1.1"};
    for (int i = 0; i < 300; ++i) requestLines.push_back("M" + std::to_string(i) + "X /healthz HTTP/1.1");
    for (const auto& requestLine : requestLines) {
        RawClient attacker(server.port(), "127.0.0.3");
        REQUIRE(attacker.connected());
        attacker.send(requestLine + "\r\nHost: x\r\nConnection: close\r\n\r\n");
        CHECK(RawClient::completeAnswers(attacker.receiveAnswers(1)) == 1);
    }

    std::string after = fetchMetrics(server.port());
    CHECK(promtoolProblems(after, server.dataDir()) == "");
    CHECK(after.find("GE\"T") == std::string::npos);
    CHECK(after.find("M17X") == std::string::npos);
    // At most a handful of new series (the junk falls into one "other" method per status).
    auto seriesBefore = requestSeries(before);
    auto seriesAfter = requestSeries(after);
    CHECK(seriesAfter.size() <= seriesBefore.size() + 4);
    window.requireOthersServed();
}
