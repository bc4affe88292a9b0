#pragma once
// Helpers shared by the benchmark programs in bench/: failures, Ctrl-C, number and table
// formatting, files, PATH lookup and the temporary directory. Header-only: each bench is
// one program (bench/CMakeLists.txt builds every bench/*.cpp).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <chrono>
#include <thread>
#include <optional>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <array>
#include <random>
#include <string>
#include <system_error>
#include <vector>

namespace bench {

// Deterministic randomness for generated catalogs: raw std::mt19937 output only (std:: distributions differ between
// standard libraries, and a bench's data must be the same on every machine).
class Rng {
public:
    explicit Rng(uint32_t seed) : engine_(seed) {}
    uint32_t next() { return static_cast<uint32_t>(engine_()); }
    // A value in [0, n), by multiply-and-shift (the bias for the small n used here is far below 1e-6).
    uint32_t below(uint32_t n) { return static_cast<uint32_t>((static_cast<uint64_t>(next()) * n) >> 32); }
    uint32_t between(uint32_t low, uint32_t high) { return low + below(high - low + 1); }  // inclusive
    bool percent(uint32_t p) { return below(100) < p; }
    template <typename T, size_t N>
    const T& pick(const std::array<T, N>& items) { return items[below(static_cast<uint32_t>(N))]; }
    // An index drawn by integer weights summing to `total`.
    template <typename Weights>
    size_t weighted(const Weights& weights, uint32_t total) {
        uint32_t x = below(total);
        for (size_t i = 0; i < weights.size(); ++i) {
            if (x < weights[i]) return i;
            x -= weights[i];
        }
        return weights.size() - 1;
    }

private:
    std::mt19937 engine_;
};

// A step that could not run: the bench reports it and exits 1.
struct StepFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Ctrl-C reaches the running children too (same process group); the bench itself only notes it, so it can stop
// cleanly and remove its temporary directory.
inline volatile sig_atomic_t interrupted = 0;
inline void onInterrupt(int) { interrupted = 1; }
inline void stopIfInterrupted() {
    if (interrupted) throw StepFailure("interrupted");
}

inline std::string withThousands(uint64_t value) {
    std::string digits = std::to_string(value);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

inline std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

// Widths in characters; the tables only hold ASCII.
inline std::string padRight(std::string text, size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

inline std::string padLeft(std::string text, size_t width) {
    if (text.size() < width) text.insert(0, width - text.size(), ' ');
    return text;
}

inline std::string readWholeFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline std::string lastLines(const std::string& text, size_t count) {
    size_t end = text.size();
    while (end > 0 && text[end - 1] == '\n') --end;
    size_t start = end;
    for (size_t lines = 0; start > 0;) {
        if (text[start - 1] == '\n' && ++lines == count) break;
        --start;
    }
    return text.substr(start, end - start);
}

inline bool isExecutable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

// `name` itself when it holds a '/', else the first executable of that name on PATH; empty when none.
inline std::string findInPath(const std::string& name) {
    if (name.find('/') != std::string::npos) return isExecutable(name) ? name : std::string();
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        std::string dir = dirs.substr(start, end - start);
        if (!dir.empty() && isExecutable(dir + "/" + name)) return dir + "/" + name;
        start = end + 1;
    }
    return {};
}

inline std::string commandLine(const std::vector<std::string>& argv) {
    std::string line;
    for (const auto& arg : argv) {
        if (!line.empty()) line += ' ';
        line += arg;
    }
    return line;
}

inline std::string describeStatus(int status) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
    return "stopped (status " + std::to_string(status) + ")";
}

// Starts argv[0] with the arguments: stdin from `stdinPath`, stdout and stderr into files,
// `extraEnv` ("NAME=value") added to the environment. The caller waits for it.
inline pid_t spawn(const std::string& step, const std::vector<std::string>& argv, const std::string& outPath,
                   const std::string& errPath, const std::vector<std::string>& extraEnv = {},
                   const std::string& stdinPath = "/dev/null") {
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid < 0) throw StepFailure(step + ": fork failed: " + std::strerror(errno));
    if (pid == 0) {
        int in = ::open(stdinPath.c_str(), O_RDONLY);
        int out = ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || err < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) _exit(126);
        for (const auto& assignment : extraEnv) ::putenv(const_cast<char*>(assignment.c_str()));
        ::execv(args[0], args.data());
        _exit(127);
    }
    return pid;
}

// Removed at the end unless kept (--keep); `program` names the bench in its messages.
struct TempDir {
    std::string path;
    bool keep = false;
    std::string program;
    ~TempDir() {
        if (path.empty()) return;
        if (keep) {
            std::cout << "kept " << path << "\n";
            return;
        }
        std::error_code error;
        std::filesystem::remove_all(path, error);
        if (error) std::cerr << program << ": could not remove " << path << ": " << error.message() << "\n";
    }
};

// A fresh temporary directory /tmp/<program>.XXXXXX, removed at the end unless kept.
inline TempDir createTempDir(const std::string& program, bool keep) {
    std::string pattern = "/tmp/" + program + ".XXXXXX";
    if (!::mkdtemp(pattern.data())) throw StepFailure(std::string("mkdtemp failed: ") + std::strerror(errno));
    return TempDir{pattern, keep, program};
}

// A private copy of svc-server in `dir`: the binary may be rebuilt while a bench runs, and
// every step of one run must use one version.
inline std::string privateServerCopy(const std::string& server, const std::string& dir) {
    if (!isExecutable(server)) {
        throw StepFailure("svc-server not found or not executable at " + server +
                          " (build it: cmake --build build --target svc-server, or pass --server PATH)");
    }
    std::string copy = dir + "/svc-server";
    std::error_code error;
    std::filesystem::copy_file(server, copy, error);
    if (error) throw StepFailure("cannot copy " + server + " to " + copy + ": " + error.message());
    return copy;
}

// A bench's command line, one option at a time: "--name value", "--name=value" and flags.
// Every problem is an std::invalid_argument naming the option (benchMain: exit 2).
class CommandLine {
public:
    CommandLine(int argc, char** argv) : argc_(argc), argv_(argv) {}

    // Moves to the next option; false after the last.
    bool next() {
        if (++index_ >= argc_) return false;
        argument_ = argv_[index_];
        name_ = argument_;
        inlineValue_.reset();
        if (size_t eq = argument_.find('='); argument_.rfind("--", 0) == 0 && eq != std::string::npos) {
            name_ = argument_.substr(0, eq);
            inlineValue_ = argument_.substr(eq + 1);
        }
        return true;
    }
    bool is(const char* option) const { return name_ == option; }
    // A flag takes no value: "--keep=1" is not "--keep".
    bool isFlag(const char* option) const { return name_ == option && !inlineValue_; }
    bool isHelp() const { return isFlag("--help") || isFlag("-h"); }
    std::string value() {
        if (inlineValue_) return *inlineValue_;
        if (index_ + 1 >= argc_) throw std::invalid_argument(name_ + " needs a value");
        return argv_[++index_];
    }
    long number(long low, long high) {
        std::string text = value();
        if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) {
            throw std::invalid_argument(name_ + ": '" + text + "' is not a whole number");
        }
        long parsed = std::stol(text);
        if (parsed < low || parsed > high) {
            throw std::invalid_argument(name_ + ": " + text + " is not within " + std::to_string(low) + ".." + std::to_string(high));
        }
        return parsed;
    }
    [[noreturn]] void unknown() const { throw std::invalid_argument("unknown argument '" + argument_ + "' (see --help)"); }

private:
    int argc_;
    char** argv_;
    int index_ = 0;
    std::string argument_;
    std::string name_;
    std::optional<std::string> inlineValue_;
};

// What every bench that loads svc-server over HTTP with wrk is told: the run's length, the load,
// the server and where its inputs are. A bench's Options derive from it and hand each option to
// parse() before their own.
struct WrkLoadOptions {
    int seconds = 10;
    int warmupSeconds = 2;
    int connections = 32;
    int wrkThreads = 2;
    int svcThreads = 64;
    bool keep = false;
    std::string server = std::string(SVC_BUILD_BIN_DIR) + "/svc-server";
    std::string sourceDir = SVC_SOURCE_DIR;
    std::string wrk = "wrk";

    // True when `args` named one of these options (its value taken).
    bool parse(CommandLine& args) {
        if (args.isFlag("--keep")) keep = true;
        else if (args.is("--seconds")) seconds = static_cast<int>(args.number(1, 3600));
        else if (args.is("--warmup")) warmupSeconds = static_cast<int>(args.number(0, 600));
        else if (args.is("--connections")) connections = static_cast<int>(args.number(1, 10000));
        else if (args.is("--wrk-threads")) wrkThreads = static_cast<int>(args.number(1, 256));
        else if (args.is("--threads")) svcThreads = static_cast<int>(args.number(1, 512));
        else if (args.is("--server")) server = args.value();
        else if (args.is("--source-dir")) sourceDir = args.value();
        else if (args.is("--wrk")) wrk = args.value();
        else return false;
        return true;
    }
    // wrk gives each thread at least one connection.
    void check() const {
        if (connections < wrkThreads) throw std::invalid_argument("--connections must be at least --wrk-threads");
    }
};

// CPU seconds (user + system) process `pid` has used so far, from /proc/PID/stat.
inline double cpuSecondsOf(pid_t pid) {
    std::string stat = readWholeFile("/proc/" + std::to_string(pid) + "/stat");
    size_t paren = stat.rfind(')');
    if (paren == std::string::npos) return 0;
    std::istringstream fields(stat.substr(paren + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int index = 3; fields >> field; ++index) {  // field 3 is the state
        if (index == 14) utime = std::strtod(field.c_str(), nullptr);
        if (index == 15) {
            stime = std::strtod(field.c_str(), nullptr);
            break;
        }
    }
    return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// A numeric field of /proc/PID/status ("Threads:", "VmRSS:", "VmHWM:"), 0 when absent.
inline long statusFieldOf(pid_t pid, const char* name) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    size_t length = std::strlen(name);
    while (std::getline(status, line)) {
        if (line.compare(0, length, name) == 0) return std::atol(line.c_str() + length);
    }
    return 0;
}

// A server the bench starts (svc-server, graphql-js): stdout and stderr in files of the work directory,
// stopped with SIGTERM by the destructor (SIGKILL after stopSeconds), also on failure; one that dies early
// fails the step.
class ServerProcess {
public:
    ServerProcess(std::string program, std::string name, const std::vector<std::string>& argv, const std::string& workDir,
                  int stopSeconds, const std::vector<std::string>& extraEnv = {})
        : program_(std::move(program)), name_(std::move(name)), argv_(argv), stopSeconds_(stopSeconds) {
        outPath_ = workDir + "/" + name_ + ".stdout";
        errPath_ = workDir + "/" + name_ + ".stderr";
        pid_ = spawn(name_, argv, outPath_, errPath_, extraEnv);
    }
    ~ServerProcess() {
        try {
            stop();
        } catch (const std::exception& error) {
            std::cerr << program_ << ": " << error.what() << "\n";
        }
    }
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    pid_t pid() const { return pid_; }
    const std::string& name() const { return name_; }

    // Waits for `listening on http://HOST:PORT` on stdout; returns the port.
    int awaitListening(double timeoutSeconds) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
        while (true) {
            std::string out = readWholeFile(outPath_);
            if (size_t at = out.find("listening on http://"); at != std::string::npos) {
                size_t end = out.find('\n', at);
                if (end != std::string::npos) {
                    std::string address = out.substr(at + 20, end - at - 20);
                    size_t colon = address.rfind(':');
                    if (colon != std::string::npos) {
                        int port = std::atoi(address.c_str() + colon + 1);
                        if (port > 0) return port;
                    }
                    throw StepFailure(name_ + ": cannot read the port from `" + out.substr(at, end - at) + "`");
                }
            }
            checkAlive();
            stopIfInterrupted();
            if (std::chrono::steady_clock::now() > deadline) {
                throw StepFailure(name_ + ": no `listening on` line after " + fixed(timeoutSeconds, 0) + " s: `" +
                                  commandLine(argv_) + "`\n  stdout: " + lastLines(out, 5) +
                                  "\n  stderr: " + lastLines(readWholeFile(errPath_), 5));
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }

    void checkAlive() {
        if (pid_ <= 0) throw StepFailure(name_ + " is not running");
        int status = 0;
        pid_t done = ::waitpid(pid_, &status, WNOHANG);
        if (done == pid_) {
            pid_ = -1;
            throw StepFailure(name_ + " " + describeStatus(status) + " while it should be serving: `" + commandLine(argv_) +
                              "`\n  stderr: " + lastLines(readWholeFile(errPath_), 10));
        }
    }

    double cpuSeconds() const { return cpuSecondsOf(pid_); }
    long statusField(const char* name) const { return statusFieldOf(pid_, name); }

    // Stops the server; a server that had already exited on its own fails the step (it must serve until now).
    void stop() {
        if (pid_ <= 0) return;
        pid_t pid = pid_;
        pid_ = -1;
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            throw StepFailure(name_ + " " + describeStatus(status) + " before the bench stopped it\n  stderr: " +
                              lastLines(readWholeFile(errPath_), 10));
        }
        ::kill(pid, SIGTERM);
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(stopSeconds_);
        while (true) {
            pid_t done = ::waitpid(pid, &status, WNOHANG);
            if (done == pid) break;
            if (done < 0 && errno != EINTR) return;
            if (std::chrono::steady_clock::now() > deadline) {
                ::kill(pid, SIGKILL);
                while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
                }
                throw StepFailure(name_ + " did not stop within " + std::to_string(stopSeconds_) + " s of SIGTERM (killed)");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        bool clean = (WIFEXITED(status) && WEXITSTATUS(status) == 0) || (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
        if (!clean) {
            throw StepFailure(name_ + " " + describeStatus(status) + " after SIGTERM\n  stderr: " +
                              lastLines(readWholeFile(errPath_), 10));
        }
    }

private:
    std::string program_;  // the bench, in messages
    std::string name_;
    std::vector<std::string> argv_;
    int stopSeconds_;
    std::string outPath_, errPath_;
    pid_t pid_ = -1;
};

// A bench's main: parse the options (exit 2 on a bad command line, 0 after --help), take
// Ctrl-C and SIGTERM as "stop cleanly", run; a step that fails is exit 1.
template <typename Options, typename Parse, typename Run>
int benchMain(const char* program, int argc, char** argv, Parse parseOptions, Run run) {
    Options options;
    try {
        if (int status = parseOptions(argc, argv, options); status != 0) return 0;
    } catch (const std::exception& error) {
        std::cerr << program << ": " << error.what() << "\n";
        return 2;
    }
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    try {
        return run(options);
    } catch (const std::exception& error) {
        std::cout << std::flush;
        std::cerr << "\n" << program << ": error: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace bench
