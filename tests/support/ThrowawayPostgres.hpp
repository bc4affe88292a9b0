#pragma once
// A PostgreSQL server of the test binary's own (docs/adr/0086): initdb into a temp dir, then
// `postgres -c fsync=off` (durable(): with fsync) on a free loopback port with its socket in that dir; started once, on
// first use, and stopped when the binary exits. PostgreSQL refuses to run as root, so under root
// initdb and postgres run as the `postgres` user (the Debian package's), the temp dir theirs.
// The database's default collation is ICU's en-US, as a production database's often is (where
// "a" < "B"), so a column that should be COLLATE "C" (byte order, "B" < "a") and is not fails a test.
// The child gets PR_SET_PDEATHSIG: a test binary killed outright does not leave a server behind.
// The server tests and the cluster suite (issue 24) are meant to share it.
#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace svc::test {

class ThrowawayPostgres {
public:
    // The server of this binary, started on the first call.
    static ThrowawayPostgres& shared() {
        static ThrowawayPostgres server(false);
        return server;
    }
    // One with fsync, synchronous_commit and full_page_writes left on (PostgreSQL's defaults), for
    // benchmarks whose figure must be durable before acknowledged (bench-events).
    static ThrowawayPostgres& durable() {
        static ThrowawayPostgres server(true);
        return server;
    }

    // The directory holding initdb and postgres: the newest /usr/lib/postgresql/<version>/bin
    // (Debian's layout), or the one on PATH; nullopt when PostgreSQL is not installed.
    static std::optional<std::string> binDir() {
        std::optional<std::string> best;
        int bestVersion = -1;
        std::error_code error;
        for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", error)) {
            auto bin = entry.path() / "bin";
            int version = std::atoi(entry.path().filename().c_str());
            if (std::filesystem::exists(bin / "initdb") && std::filesystem::exists(bin / "postgres") && version > bestVersion) {
                best = bin.string();
                bestVersion = version;
            }
        }
        if (!best && std::system("command -v initdb >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1") == 0) best = "";
        return best;
    }

    // postgresql://svc@127.0.0.1:PORT/postgres once the server answers; nullopt when it could
    // not start (error() says why).
    const std::optional<std::string>& url() const { return url_; }
    const std::string& error() const { return error_; }

    ~ThrowawayPostgres() {
        if (pid_ > 0) {
            ::kill(pid_, SIGINT);  // fast shutdown: sessions are ended, nothing is kept
            bool exited = false;
            for (int waited = 0; waited < 100 && !exited; ++waited) {
                exited = ::waitpid(pid_, nullptr, WNOHANG) == pid_;
                if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
            if (!exited) {
                ::kill(pid_, SIGKILL);
                ::waitpid(pid_, nullptr, 0);
            }
        }
        std::error_code ignored;
        if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
    }

    ThrowawayPostgres(const ThrowawayPostgres&) = delete;
    ThrowawayPostgres& operator=(const ThrowawayPostgres&) = delete;

private:
    explicit ThrowawayPostgres(bool durable) : durable_(durable) {
        auto started = std::chrono::steady_clock::now();
        error_ = start();
        if (url_) {
            auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
            std::cout << "throwaway PostgreSQL on " << *url_ << " (" << took << " ms to start)" << std::endl;
        }
    }

    // Empty when the server answers; else why not.
    std::string start() {
        auto bin = binDir();
        if (!bin) return "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)";
        std::string prefix = bin->empty() ? "" : *bin + "/";
        std::string pattern = (std::filesystem::temp_directory_path() / "svc-postgres-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) return "mkdtemp failed";
        dir_ = pattern;
        if (::geteuid() == 0) {
            const passwd* user = ::getpwnam("postgres");
            if (!user) return "running as root and there is no postgres user to run PostgreSQL as";
            uid_ = user->pw_uid;
            gid_ = user->pw_gid;
            if (::chown(dir_.c_str(), uid_, gid_) != 0) return "cannot give " + dir_ + " to the postgres user";
        }
        int initdb = run({prefix + "initdb", "-D", dir_ + "/data", "-U", "svc", "-A", "trust", "-E", "UTF8", "--locale=C", "--locale-provider=icu",
                          "--icu-locale=en-US", "--no-sync"},
                         dir_ + "/initdb.log", false);
        if (initdb != 0) return "initdb failed: " + tail(dir_ + "/initdb.log");
        for (int attempt = 0; attempt < 3; ++attempt) {  // another process may take the free port first
            int port = freePort();
            std::vector<std::string> arguments{prefix + "postgres", "-D", dir_ + "/data", "-k", dir_, "-p", std::to_string(port),
                                               "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"};
            if (!durable_) {
                for (const char* setting : {"fsync=off", "synchronous_commit=off", "full_page_writes=off"}) {
                    arguments.push_back("-c");
                    arguments.push_back(setting);
                }
            }
            pid_ = run(arguments, dir_ + "/postgres.log", true);
            if (pid_ <= 0) return "cannot start postgres";
            std::string conninfo = "host=127.0.0.1 port=" + std::to_string(port) + " dbname=postgres user=svc connect_timeout=2";
            bool exited = false;
            for (int waited = 0; waited < 300 && !exited; ++waited) {
                if (PQping(conninfo.c_str()) == PQPING_OK) {
                    url_ = "postgresql://svc@127.0.0.1:" + std::to_string(port) + "/postgres";
                    return "";
                }
                exited = ::waitpid(pid_, nullptr, WNOHANG) == pid_;
                if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
            if (!exited) {
                ::kill(pid_, SIGKILL);
                ::waitpid(pid_, nullptr, 0);
            }
            pid_ = -1;
        }
        return "postgres did not answer: " + tail(dir_ + "/postgres.log");
    }

    // Runs `argv` as the server's user, output to `log`; returns the child's pid (`background`)
    // or its exit status. Between fork and exec only system calls (no allocation): other
    // threads of the test binary may hold malloc's lock.
    int run(const std::vector<std::string>& argv, const std::string& log, bool background) {
        std::vector<char*> args;
        for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
        args.push_back(nullptr);
        const bool dropPrivileges = ::geteuid() == 0;
        const pid_t parent = ::getpid();
        const pid_t child = ::fork();
        if (child < 0) return -1;
        if (child == 0) {
            int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (out >= 0) {
                ::dup2(out, STDOUT_FILENO);
                ::dup2(out, STDERR_FILENO);
                if (dropPrivileges && ::fchown(out, uid_, gid_) != 0) ::_exit(126);
            }
            if (dropPrivileges && (::setgroups(1, &gid_) != 0 || ::setgid(gid_) != 0 || ::setuid(uid_) != 0)) ::_exit(126);
            // After the uid change, which would clear it: the server dies with the test binary.
            ::prctl(PR_SET_PDEATHSIG, SIGINT);
            if (::getppid() != parent) ::_exit(126);
            ::execvp(args[0], args.data());
            ::_exit(127);
        }
        if (background) return child;
        int status = 0;
        ::waitpid(child, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    static int freePort() {
        int socket = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = 0;
        socklen_t length = sizeof address;
        ::bind(socket, reinterpret_cast<sockaddr*>(&address), sizeof address);
        ::getsockname(socket, reinterpret_cast<sockaddr*>(&address), &length);
        ::close(socket);
        return ntohs(address.sin_port);
    }

    static std::string tail(const std::string& path) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        std::string all = text.str();
        return all.size() > 600 ? all.substr(all.size() - 600) : all;
    }

    bool durable_ = false;
    std::string dir_;
    uid_t uid_ = 0;
    gid_t gid_ = 0;
    pid_t pid_ = -1;
    std::optional<std::string> url_;
    std::string error_;
};

}  // namespace svc::test
