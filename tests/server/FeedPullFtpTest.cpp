// Feed pulls over FTP from Debian's vsftpd, started by the test on loopback (passive mode,
// a read-only anonymous root). The format comes from the file name (.csv, .csv.gz). Skipped,
// with a message, only when vsftpd is missing or cannot start (it needs root for its chroot).
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "ChildProcess.hpp"
#include "LoopbackFeedServer.hpp"
#include "ServerFixture.hpp"
#include "feed/PullRuntime.hpp"

using namespace svc;

namespace {

int freeLoopbackPort() { return test::unusedLoopbackPort(); }

std::string gzip(const std::string& text) {
    z_stream stream{};
    deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&stream, text.size()) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

bool accepts(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return connected;
}

// vsftpd in the foreground on 127.0.0.1:<port>, anonymous and read-only, serving `root`.
class Vsftpd {
public:
    explicit Vsftpd(const test::TempDir& dir) : root(dir.path() + "/ftp-root") {
        std::filesystem::create_directories(root);
        std::filesystem::create_directories(dir.path() + "/ftp-empty");
        ::chmod(root.c_str(), 0755);
        ::chmod(dir.path().c_str(), 0755);  // the anonymous user (ftp) must reach the root
        if (!std::filesystem::exists("/usr/sbin/vsftpd")) {
            why = "/usr/sbin/vsftpd is not installed (scripts/install-deps.sh installs it)";
            return;
        }
        if (::geteuid() != 0) {
            why = "vsftpd needs root to chroot its anonymous user; the tests do not run as root";
            return;
        }
        port = freeLoopbackPort();
        int passive = freeLoopbackPort();
        std::string config = dir.file("vsftpd.conf",
                                      "listen=YES\nlisten_ipv6=NO\nlisten_address=127.0.0.1\nlisten_port=" + std::to_string(port) +
                                          "\nbackground=NO\nanonymous_enable=YES\nno_anon_password=NO\nanon_root=" + root +
                                          "\nlocal_enable=NO\nwrite_enable=NO\nseccomp_sandbox=NO\npasv_enable=YES\npasv_min_port=" +
                                          std::to_string(passive) + "\npasv_max_port=" + std::to_string(passive + 20) +
                                          "\nnopriv_user=ftp\nsecure_chroot_dir=" + dir.path() + "/ftp-empty\nxferlog_enable=NO\n");
        process = std::make_unique<test::ChildProcess>(std::vector<std::string>{"/usr/sbin/vsftpd", config});
        for (int attempt = 0; attempt < 200 && !process->hasExited(); ++attempt) {
            if (accepts(port)) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        why = "vsftpd did not start on 127.0.0.1:" + std::to_string(port);
        process.reset();
    }
    ~Vsftpd() {
        if (process) {
            process->kill(SIGTERM);
            process->wait();
        }
    }
    bool running() const { return process != nullptr; }
    void put(const std::string& name, const std::string& bytes) {
        std::string path = root + "/" + name;
        std::ofstream(path, std::ios::binary) << bytes;
        ::chmod(path.c_str(), 0644);
    }
    std::string url(const std::string& name) const { return "ftp://127.0.0.1:" + std::to_string(port) + "/" + name; }

    std::string root;
    std::string why;
    int port = 0;
    std::unique_ptr<test::ChildProcess> process;
};

FetchLimits quickLimits() {
    FetchLimits limits;
    limits.totalTimeoutMs = 20'000;
    return limits;
}

std::string feed(const std::vector<std::string>& skus) {
    std::vector<std::vector<std::string>> rows{{"sku", "name", "stock", "retail-price", "category-path"}};
    for (const auto& sku : skus) rows.push_back({sku, "Item " + sku, "3", "1000", "Men > Shirts"});
    return test::feedCsv(rows);
}

struct FtpPulls {
    test::TempDir dir;
    test::ManualClock clock;
    std::unique_ptr<SqliteStorage> storage;
    std::optional<ServerKeys> keys;
    std::unique_ptr<PullRuntime> runtime;
    Tenant tenant;
    FtpPulls() {
        storage = std::move(SqliteStorage::open(dir.path(), &clock).value());
        keys = ServerKeys::loadOrCreate(dir.path()).value();
        runtime = std::move(PullRuntime::open(dir.path(), *storage, *keys, {"127.0.0.1"}, quickLimits()).value());
        tenant = TenantService(storage->tenants()).create("FTP shop").value().tenant;
    }
    void add(const std::string& url, const std::string& feedName, const Credentials& credentials = {}) {
        PullSource source;
        source.tenantId = tenant.id;
        source.feed = feedName;
        source.url = url;
        source.intervalSeconds = 86400;
        if (!credentials.empty()) source.sealedCredentials = runtime->cipher().seal(credentials, FeedPuller::credentialOwner(tenant.id, feedName));
        source.nextRunAt = clock.nowSeconds();
        REQUIRE(runtime->sources().add(source));
    }
    FeedImportRecord latest() {
        auto records = storage->imports().list(tenant.id, "", 1);
        REQUIRE(records);
        REQUIRE_FALSE(records->empty());
        return records->front();
    }
    size_t historySize() { return storage->imports().list(tenant.id, "", 100).value().size(); }
};

}  // namespace

TEST_CASE("FTP pulls: .csv and .csv.gz by file name, unchanged files skipped, failures named") {
    FtpPulls pulls;
    Vsftpd ftp(pulls.dir);
    if (!ftp.running()) {
        MESSAGE("FTP pull test skipped: " << ftp.why);
        return;
    }
    ftp.put("feed.csv", feed({"A", "B"}));
    ftp.put("stock.csv.gz", gzip(feed({"A", "B", "C"})));
    ftp.put("feed.txt", feed({"A"}));
    ftp.put("fake.csv.gz", feed({"A"}));

    pulls.add(ftp.url("feed.csv"), "default");
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto first = pulls.latest();
    CHECK(first.status == ImportStatus::Applied);
    CHECK(first.source == "pull " + ftp.url("feed.csv"));
    CHECK(first.counts.inserted == 2);
    auto source = pulls.runtime->sources().find(pulls.tenant.id, "default").value();
    REQUIRE(source);
    CHECK_FALSE(source->lastModified.empty());  // the file's time, from MDTM

    // Unchanged: the file time has not moved, nothing is downloaded or imported.
    pulls.clock.advance(86400);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.historySize() == 1);
    CHECK(pulls.runtime->sources().find(pulls.tenant.id, "default").value()->lastResult == "unchanged");

    // Anonymous login with a password (an e-mail address, as FTP has it) is sent as credentials.
    pulls.add(ftp.url("stock.csv.gz"), "stock", {"anonymous", "feeds@shop.example"});
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto gz = pulls.latest();
    CHECK(gz.feed == "stock");
    CHECK(gz.status == ImportStatus::Applied);
    CHECK(gz.counts.inserted == 1);  // C; A and B are unchanged
    CHECK(gz.counts.unchanged == 2);

    struct Case {
        std::string file;
        Credentials credentials;
        std::string reason;
    };
    const std::vector<Case> cases{
        {"feed.txt", {}, "pull failed: file type: the file name in "},
        {"fake.csv.gz", {}, "pull failed: file type: the file name ends in .gz but the file is not gzip-compressed"},
        {"missing.csv", {}, "pull failed: not found: "},
        {"feed.csv", {"shop", "wrong"}, "pull failed: auth: "},  // vsftpd here knows only anonymous
    };
    int number = 0;
    for (const auto& c : cases) {
        CAPTURE(c.file);
        std::string name = "f" + std::to_string(++number);
        pulls.add(ftp.url(c.file), name, c.credentials);
        CHECK(pulls.runtime->scheduler().runDue() == 1);
        auto failed = pulls.latest();
        CHECK(failed.feed == name);
        CHECK(failed.status == ImportStatus::Failed);
        CHECK(failed.message.rfind(c.reason, 0) == 0);
        CHECK(failed.message.find("wrong") == std::string::npos);
    }
}

TEST_CASE("an FTP pull of a loopback server is refused by the guard unless allow-listed") {
    test::TempDir dir;
    test::ManualClock clock;
    auto storage = std::move(SqliteStorage::open(dir.path(), &clock).value());
    auto keys = ServerKeys::loadOrCreate(dir.path()).value();
    auto runtime = std::move(PullRuntime::open(dir.path(), *storage, keys, {}).value());
    FetchRequest request;
    request.url = "ftp://127.0.0.1:" + std::to_string(freeLoopbackPort()) + "/feed.csv";
    request.bodyPath = dir.path() + "/body";
    auto refused = runtime->fetcher().fetch(request);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.rfind("SSRF: host 127.0.0.1 resolves to 127.0.0.1, a loopback address", 0) == 0);
}
