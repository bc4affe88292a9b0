// The Debian package `make package` builds (scripts/build.sh builds it with every full build, so
// this tests the package that would ship): unpacked into a scratch root with dpkg-deb, its own
// binary names its version and serves the SDK and the console from the package's files against a
// fresh data dir; its systemd unit passes `systemd-analyze verify` without a single warning; the
// control data declares the libraries and the maintainer scripts that make the svc user.
#include <doctest/doctest.h>

#include <httplib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ChildProcess.hpp"
#include "ServerFixture.hpp"
#include "support/Skip.hpp"

namespace fs = std::filesystem;

namespace {

struct Output {
    int status;
    std::string text;
};

Output shell(const std::string& command) {
    Output output{-1, ""};
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return output;
    char buffer[4096];
    while (size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) output.text.append(buffer, got);
    int raw = ::pclose(pipe);
    output.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return output;
}

std::string packagePath() {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(SVC_PACKAGE_DIR, error)) {
        if (entry.path().extension() == ".deb") return entry.path().string();
    }
    return "";
}

}  // namespace

TEST_CASE("Package: the .deb unpacks into a root whose binary runs, serves its own assets, and whose unit verifies") {
    std::string deb = packagePath();
    if (deb.empty()) {
        SVC_SKIP(svc::test::SkipReason::DependencyInstalledByScripts,
                 "no .deb in " SVC_PACKAGE_DIR " (scripts/build.sh builds it; `make package`)");
    }
    svc::test::TempDir dir;
    std::string root = dir.path() + "/root";
    auto unpacked = shell("dpkg-deb -x '" + deb + "' '" + root + "'");
    REQUIRE_MESSAGE(unpacked.status == 0, unpacked.text);
    for (const char* file : {"usr/bin/svc-server", "usr/share/svc/sdk/sdk.wasm", "usr/share/svc/sdk/sdk.js", "usr/share/svc/loader/loader.js",
                             "usr/share/svc/console/index.html", "usr/share/svc/content-pool/fashion.json", "lib/systemd/system/svc.service",
                             "etc/svc/svc.conf", "usr/share/doc/svc/operations.md", "usr/share/svc/deploy/nginx/svc.conf",
                             "usr/share/svc/deploy/prometheus/svc-alerts.yml"}) {
        CHECK_MESSAGE(fs::exists(root + "/" + file), file);
    }

    auto control = shell("dpkg-deb -I '" + deb + "'");
    CHECK(control.text.find("Package: svc") != std::string::npos);
    CHECK(control.text.find("Version: " SVC_VERSION) != std::string::npos);
    for (const char* library : {"adduser", "libcpp-httplib0.11", "libsqlite3-0", "libsodium23", "libcurl4"}) {
        CHECK_MESSAGE(control.text.find(library) != std::string::npos, library);
    }
    auto postinst = shell("dpkg-deb --ctrl-tarfile '" + deb + "' | tar -xO ./postinst");
    CHECK(postinst.text.find("adduser --system --group") != std::string::npos);
    CHECK(postinst.text.find("install -d -m 0700 -o svc -g svc /var/lib/svc") != std::string::npos);
    auto conffiles = shell("dpkg-deb --ctrl-tarfile '" + deb + "' | tar -xO ./conffiles");
    CHECK(conffiles.text == "/etc/svc/svc.conf\n");

    // The installed binary: its version, then a real server from the package's own assets.
    auto version = shell("'" + root + "/usr/bin/svc-server' --version");
    CHECK(version.status == 0);
    CHECK(version.text.rfind("svc-server " SVC_VERSION " (commit ", 0) == 0);
    std::string log = dir.path() + "/serve.log";
    // The shipped configuration file parses (an unknown name would be an error); the command
    // line moves its data dir, address and assets into the scratch root.
    svc::test::ChildProcess server({root + "/usr/bin/svc-server", "serve", "--config", root + "/etc/svc/svc.conf", "--data-dir",
                                    dir.path() + "/data", "--listen", "127.0.0.1:0", "--assets-dir", root + "/usr/share/svc",
                                    "--no-image-bot"},
                                   log);
    int port = 0;
    for (int i = 0; i < 500 && port == 0; ++i) {
        std::ifstream file(log);
        std::stringstream text;
        text << file.rdbuf();
        const std::string banner = "listening on http://127.0.0.1:";
        if (size_t at = text.str().find(banner); at != std::string::npos) port = std::stoi(text.str().substr(at + banner.size()));
        else std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(port != 0);
    httplib::Client client("127.0.0.1", port);
    for (const char* path : {"/healthz", "/sdk/sdk.js", "/sdk/sdk.wasm", "/console/"}) {
        auto response = client.Get(path);
        REQUIRE(response);
        CHECK_MESSAGE(response->status == 200, path);
    }
    server.kill(SIGTERM);
    CHECK(server.wait() == 0);

    // The unit against the system's own targets in the scratch root: no warning at all (verify
    // exits 0 on unknown keys too, so its output must be empty).
    if (!fs::exists("/usr/bin/systemd-analyze")) {
        SVC_SKIP(svc::test::SkipReason::DependencyInstalledByScripts, "systemd-analyze is not installed (Debian's systemd package)");
    }
    fs::create_directories(root + "/lib/systemd/system");
    for (const auto& entry : fs::directory_iterator("/lib/systemd/system")) {
        if (entry.is_regular_file() && entry.path().filename() != "svc.service") {
            fs::copy_file(entry.path(), root + "/lib/systemd/system/" + entry.path().filename().string(), fs::copy_options::skip_existing);
        }
    }
    auto verified = shell("systemd-analyze verify --root='" + root + "' svc.service");
    CHECK(verified.status == 0);
    CHECK_MESSAGE(verified.text == "", verified.text);
}
