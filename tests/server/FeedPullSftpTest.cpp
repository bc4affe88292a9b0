// Feed pulls over SFTP from Debian's OpenSSH server, started by the test on loopback: a host key
// generated for the run, internal-sftp only, the test's users chrooted to a root-owned directory.
// The service trusts only the pinned host key (docs/adr/0033); the format comes from the file name.
// Skipped, with a message, only when sshd is missing or cannot start (it and useradd need root).
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ChildProcess.hpp"
#include "TestStorage.hpp"
#include "PullTestSupport.hpp"
#include "TestSystemUser.hpp"
#include "support/Skip.hpp"

using namespace svc;

namespace {

std::string readText(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

size_t occurrences(const std::string& text, const std::string& needle) {
    size_t count = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
    return count;
}

// sshd -D on 127.0.0.1:<port> with a fresh ed25519 host key; sftp only, chrooted to `chroot`
// (sshd demands a root-owned path no one else can write, so not under /tmp), files in /feeds.
// The password user also accepts a client key made for the run (`clientKey`, its private key text).
class Sshd {
public:
    explicit Sshd(const test::TempDir& dir)
        : chroot("/run/svc-test-sftp-" + std::to_string(::getpid())), keys(chroot + "-keys"), log(dir.path() + "/sshd.log") {
        for (const char* binary : {"/usr/sbin/sshd", "/usr/bin/ssh-keygen"}) {
            if (!std::filesystem::exists(binary)) {
                why = std::string(binary) + " is not installed (scripts/install-deps.sh installs openssh-server)";
                return;
            }
        }
        if (::geteuid() != 0) {
            why = "sshd and useradd need root; the tests do not run as root";
            return;
        }
        std::filesystem::create_directories("/run/sshd");  // sshd's privilege separation directory
        std::filesystem::create_directories(chroot + "/feeds");
        ::chmod(chroot.c_str(), 0755);
        ::chmod((chroot + "/feeds").c_str(), 0755);
        std::string hostKey = dir.path() + "/host_ed25519";
        std::string client = dir.path() + "/client_ed25519";
        std::string stranger = dir.path() + "/stranger_ecdsa";
        test::ChildProcess keygen({"/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "svc-test", "-f", hostKey});
        test::ChildProcess clientKeygen({"/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "svc-client", "-f", client});
        test::ChildProcess strangerKeygen({"/usr/bin/ssh-keygen", "-q", "-t", "ecdsa", "-N", "", "-C", "stranger", "-f", stranger});
        bool made = keygen.wait() == 0 && clientKeygen.wait() == 0 && strangerKeygen.wait() == 0;
        test::ChildProcess print({"/usr/bin/ssh-keygen", "-l", "-f", hostKey + ".pub"}, dir.path() + "/fingerprint");
        if (!made || print.wait() != 0) {
            why = "ssh-keygen could not make the keys";
            return;
        }
        clientKey = readText(client);
        strangerKey = readText(stranger);
        // "256 SHA256:<base64> svc-test (ED25519)"
        std::istringstream fields(readText(dir.path() + "/fingerprint"));
        std::string bits;
        fields >> bits >> fingerprint;
        passwordUser = std::make_unique<test::TestSystemUser>("svcsftp", "Sftp-pw-9", "/feeds");
        openUser = std::make_unique<test::TestSystemUser>("svcsfto", "", "/feeds");
        if (!passwordUser->ready() || !openUser->ready()) {
            why = passwordUser->why + " " + openUser->why;
            return;
        }
        // sshd reads authorized keys as the user: a directory outside the chroot that the users can read.
        std::filesystem::create_directories(keys);
        ::chmod(keys.c_str(), 0755);
        std::ofstream(keys + "/" + passwordUser->name) << readText(client + ".pub");
        ::chmod((keys + "/" + passwordUser->name).c_str(), 0644);
        port = test::unusedLoopbackPort();
        std::string config = dir.file("sshd_config", "Port " + std::to_string(port) +
                                                          "\nListenAddress 127.0.0.1\nHostKey " + hostKey +
                                                          "\nPidFile none\nUsePAM no\nPasswordAuthentication yes\n"
                                                          "PermitEmptyPasswords yes\nKbdInteractiveAuthentication no\n"
                                                          "PubkeyAuthentication yes\nAuthorizedKeysFile " + keys + "/%u\nStrictModes no\nPermitRootLogin no\n"
                                                          "AllowUsers " + passwordUser->name + " " + openUser->name +
                                                          "\nSubsystem sftp internal-sftp\nForceCommand internal-sftp\n"
                                                          "ChrootDirectory " + chroot +
                                                          "\nAllowTcpForwarding no\nX11Forwarding no\nLogLevel INFO\n");
        process = std::make_unique<test::ChildProcess>(std::vector<std::string>{"/usr/sbin/sshd", "-D", "-f", config, "-E", log});
        if (test::waitUntilAccepting(port, *process)) return;
        why = "sshd did not start on 127.0.0.1:" + std::to_string(port) + ": " + readText(log);
        process.reset();
    }
    ~Sshd() {
        if (process) {
            process->kill(SIGTERM);
            process->wait();
        }
        std::error_code ignored;
        std::filesystem::remove_all(chroot, ignored);
        std::filesystem::remove_all(keys, ignored);
    }
    bool running() const { return process != nullptr; }
    void put(const std::string& name, const std::string& bytes) {
        std::string path = chroot + "/feeds/" + name;
        std::ofstream(path, std::ios::binary) << bytes;
        ::chmod(path.c_str(), 0644);
    }
    std::string url(const std::string& name) const { return "sftp://127.0.0.1:" + std::to_string(port) + "/feeds/" + name; }

    std::string chroot;
    std::string keys;
    std::string log;
    std::string clientKey;    // accepted for the password user
    std::string strangerKey;  // accepted for no one
    std::string fingerprint;  // SHA256:...
    std::string why;
    int port = 0;
    std::unique_ptr<test::TestSystemUser> passwordUser;
    std::unique_ptr<test::TestSystemUser> openUser;  // empty password: a login without credentials
    std::unique_ptr<test::ChildProcess> process;
};

}  // namespace

TEST_CASE("SFTP pulls: password or none, the pinned host key only, the format by file name, failures named" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, std::filesystem::exists("/usr/sbin/sshd") && std::filesystem::exists("/usr/bin/ssh-keygen"),
                           "SFTP pull test: sshd or ssh-keygen is not installed (scripts/install-deps.sh installs openssh-server)")) {
    test::PullFixture pulls;
    Sshd sftp(pulls.dir);
    if (!sftp.running()) {
        SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "SFTP pull test: " << sftp.why);
    }
    sftp.put("feed.csv", test::feedOfSkus({"A", "B"}));
    sftp.put("stock.csv.gz", test::gzipText(test::feedOfSkus({"A", "B", "C"})));
    sftp.put("feed.txt", test::feedOfSkus({"A"}));
    const std::string user = sftp.passwordUser->name;

    pulls.add(sftp.url("feed.csv"), "default", {user, "Sftp-pw-9", sftp.fingerprint});
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto first = pulls.latest();
    CHECK(first.status == ImportStatus::Applied);
    CHECK(first.source == "pull " + sftp.url("feed.csv"));
    CHECK(first.counts.inserted == 2);
    CHECK_FALSE(pulls.runtime->sources().find(pulls.tenant.id, "default").value()->lastModified.empty());  // the file's mtime

    // Unchanged: the file time has not moved, so nothing is imported again.
    pulls.clock.advance(86400);
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.historySize() == 1);
    CHECK(pulls.lastResult("default") == "unchanged");

    pulls.add(sftp.url("stock.csv.gz"), "stock", {user, "Sftp-pw-9", sftp.fingerprint});
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    auto gz = pulls.latest();
    CHECK(gz.feed == "stock");
    CHECK(gz.status == ImportStatus::Applied);
    CHECK(gz.counts.inserted == 1);

    // Without credentials: a user whose server lets it in without a password (the host key is still pinned).
    pulls.add(sftp.url("feed.csv"), "open", {sftp.openUser->name, "", sftp.fingerprint});
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.latest().feed == "open");
    CHECK(pulls.latest().status == ImportStatus::Applied);

    // A private key instead of the password; the key file libssh2 read is gone afterwards.
    pulls.add(sftp.url("feed.csv"), "keyed", {user, "", sftp.fingerprint, sftp.clientKey});
    CHECK(pulls.runtime->scheduler().runDue() == 1);
    CHECK(pulls.latest().feed == "keyed");
    CHECK(pulls.latest().status == ImportStatus::Applied);
    CHECK(std::filesystem::is_empty(pulls.dir.path() + "/pulls"));

    const std::string otherKey = "SHA256:" + std::string(43, 'A');
    pulls.expectFailedPulls({
        {sftp.url("feed.txt"), {user, "Sftp-pw-9", sftp.fingerprint}, "pull failed: file type: the file name in "},
        {sftp.url("missing.csv"), {user, "Sftp-pw-9", sftp.fingerprint}, "pull failed: not found: "},
        {sftp.url("feed.csv"), {user, "wrong-pw", sftp.fingerprint}, "pull failed: auth: 127.0.0.1: login denied"},
        {sftp.url("feed.csv"), {user, "", sftp.fingerprint, sftp.strangerKey}, "pull failed: auth: 127.0.0.1: login denied"},
        {sftp.url("feed.csv"), {user, "Sftp-pw-9", otherKey}, "pull failed: host key: 127.0.0.1: the server's host key is not the pinned one"},
        {sftp.url("feed.csv"), {user, "Sftp-pw-9", ""}, "pull failed: auth: an sftp:// source needs a user and the server's host key"},
        {"sftp://127.0.0.1:" + std::to_string(test::unusedLoopbackPort()) + "/feeds/feed.csv", {user, "Sftp-pw-9", sftp.fingerprint},
         "pull failed: refused: could not connect to 127.0.0.1"},
    }, {"Sftp-pw-9", "wrong-pw"});
    // The password went only to the server with the pinned key: two failed password logins (the wrong password,
    // and the stranger key's empty-password fallback), none from the pull that met another host key.
    CHECK(occurrences(readText(sftp.log), "Failed password") == 2);
}

TEST_CASE("an SFTP pull of a loopback server is refused by the guard unless allow-listed") {
    test::TempDir dir;
    test::ManualClock clock;
    auto storage = std::move(svc::test::TestStorage::open(dir.path(), clock).value());
    auto keys = ServerKeys::loadOrCreate(dir.path()).value();
    auto runtime = std::move(PullRuntime::open(dir.path(), *storage, keys, {}).value());
    FetchRequest request;
    request.url = "sftp://127.0.0.1:" + std::to_string(test::unusedLoopbackPort()) + "/feeds/feed.csv";
    request.username = "shop";
    request.sshHostKeySha256 = "SHA256:" + std::string(43, 'A');
    request.bodyPath = dir.path() + "/body";
    auto refused = runtime->fetcher().fetch(request);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.rfind("SSRF: host 127.0.0.1 resolves to 127.0.0.1, a loopback address", 0) == 0);
}
