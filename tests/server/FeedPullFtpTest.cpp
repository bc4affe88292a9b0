// Feed pulls over FTP from Debian's vsftpd, started by the test on loopback (passive mode,
// a read-only root for anonymous and for a local user the test creates, both chrooted). The
// format comes from the file name (.csv, .csv.gz). Skipped, with a message, only when vsftpd is
// missing or cannot start (it needs root for its chroot, as creating the user does).
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "ChildProcess.hpp"
#include "TestStorage.hpp"
#include "PullTestSupport.hpp"
#include "TestSystemUser.hpp"
#include "support/Skip.hpp"

using namespace svc;

namespace {

int freeLoopbackPort() { return test::unusedLoopbackPort(); }

// vsftpd in the foreground on 127.0.0.1:<port>, read-only, serving `root` to anonymous and to
// local users (PAM checks their passwords; chrooted to the same root).
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
        // A PAM service of the test's own: Debian's vsftpd service waits 2 s after every wrong password.
        pamService = "svc-test-ftp-" + std::to_string(::getpid());
        std::ofstream("/etc/pam.d/" + pamService) << "auth required pam_unix.so nodelay\naccount required pam_unix.so\n"
                                                     "session required pam_permit.so\n";
        port = freeLoopbackPort();
        int passive = freeLoopbackPort();
        std::string config = dir.file("vsftpd.conf",
                                      "listen=YES\nlisten_ipv6=NO\nlisten_address=127.0.0.1\nlisten_port=" + std::to_string(port) +
                                          "\nbackground=NO\nanonymous_enable=YES\nno_anon_password=NO\nanon_root=" + root +
                                          "\nlocal_enable=YES\nlocal_root=" + root + "\nchroot_local_user=YES\npam_service_name=" + pamService + "\nwrite_enable=NO\ndelay_failed_login=0\nseccomp_sandbox=NO\npasv_enable=YES\npasv_min_port=" +
                                          std::to_string(passive) + "\npasv_max_port=" + std::to_string(passive + 20) +
                                          "\nnopriv_user=ftp\nsecure_chroot_dir=" + dir.path() + "/ftp-empty\nxferlog_enable=NO\n");
        process = std::make_unique<test::ChildProcess>(std::vector<std::string>{"/usr/sbin/vsftpd", config});
        for (int attempt = 0; attempt < 200 && !process->hasExited(); ++attempt) {
            if (test::loopbackAccepts(port)) return;
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
        if (!pamService.empty()) std::filesystem::remove("/etc/pam.d/" + pamService);
    }
    bool running() const { return process != nullptr; }
    void put(const std::string& name, const std::string& bytes) {
        std::string path = root + "/" + name;
        std::ofstream(path, std::ios::binary) << bytes;
        ::chmod(path.c_str(), 0644);
    }
    std::string url(const std::string& name) const { return "ftp://127.0.0.1:" + std::to_string(port) + "/" + name; }

    std::string root;
    std::string pamService;
    std::string why;
    int port = 0;
    std::unique_ptr<test::ChildProcess> process;
};

}  // namespace

TEST_CASE("FTP pulls: .csv and .csv.gz by file name, unchanged files skipped, failures named" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, std::filesystem::exists("/usr/sbin/vsftpd"),
                           "FTP pull test: /usr/sbin/vsftpd is not installed (scripts/install-deps.sh installs it)")) {
    test::PullFixture pulls;
    Vsftpd ftp(pulls.dir);
    if (!ftp.running()) {
        SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "FTP pull test: " << ftp.why);
    }
    ftp.put("feed.csv", test::feedOfSkus({"A", "B"}));
    ftp.put("stock.csv.gz", test::gzipText(test::feedOfSkus({"A", "B", "C"})));
    ftp.put("feed.txt", test::feedOfSkus({"A"}));
    ftp.put("fake.csv.gz", test::feedOfSkus({"A"}));
    test::TestSystemUser user("svcftp", "Feed-pw-7", ftp.root);
    REQUIRE_MESSAGE(user.ready(), user.why);

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

    // A local user with a password, as most shops' FTP servers have it.
    pulls.add(ftp.url("feed.csv"), "login", {user.name, "Feed-pw-7"});
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto login = pulls.latest();
    CHECK(login.feed == "login");
    CHECK(login.status == ImportStatus::Applied);
    CHECK(login.message.find("Feed-pw-7") == std::string::npos);

    pulls.expectFailedPulls({
        {ftp.url("feed.txt"), {}, "pull failed: file type: the file name in "},
        {ftp.url("fake.csv.gz"), {}, "pull failed: file type: the file name ends in .gz but the file is not gzip-compressed"},
        {ftp.url("missing.csv"), {}, "pull failed: not found: "},
        {ftp.url("feed.csv"), {"shop", "wrong"}, "pull failed: auth: "},  // no such user
        {ftp.url("feed.csv"), {user.name, "wrong"}, "pull failed: auth: "},
    }, {"wrong"});

    // No server on the port: refused, with the user's password kept out of the message.
    pulls.add("ftp://127.0.0.1:" + std::to_string(freeLoopbackPort()) + "/feed.csv", "gone", {user.name, "Feed-pw-7"});
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.latest().feed == "gone");
    CHECK(pulls.latest().message.rfind("pull failed: refused: could not connect to 127.0.0.1", 0) == 0);
    CHECK(pulls.latest().message.find("Feed-pw-7") == std::string::npos);
}

TEST_CASE("an FTP pull of a loopback server is refused by the guard unless allow-listed") {
    test::TempDir dir;
    test::ManualClock clock;
    auto storage = std::move(svc::test::TestStorage::open(dir.path(), clock).value());
    auto keys = ServerKeys::loadOrCreate(dir.path()).value();
    auto runtime = std::move(PullRuntime::open(dir.path(), *storage, keys, {}).value());
    FetchRequest request;
    request.url = "ftp://127.0.0.1:" + std::to_string(freeLoopbackPort()) + "/feed.csv";
    request.bodyPath = dir.path() + "/body";
    auto refused = runtime->fetcher().fetch(request);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.rfind("SSRF: host 127.0.0.1 resolves to 127.0.0.1, a loopback address", 0) == 0);
}
