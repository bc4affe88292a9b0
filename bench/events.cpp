// bench-events: POST /events throughput and acknowledgement latency against the storage's floor (issue 7, "Speed";
// on PostgreSQL issue 24, "Benchmarks").
//
// One run, figures side by side (the machine is noisy; ratios matter more than events per second), for each of two
// request shapes ("single": one event per request; "beacon": the SDK's {"events": [...]} body of 10 widget events,
// purchases as their own single-event request like svclytics('purchase') sends them):
//   (b) events through HTTP: 32 concurrent clients (closed loop, keep-alive, each waits for its answer: a 2xx means
//       the events are committed, docs/adr/0014) against `svc-server serve` on a freshly created tenant;
//   (a) the floor: the same number of event rows of the same mix inserted into SQLite directly (the events file's
//       schema, made by svc-server itself; WAL, synchronous=FULL, foreign_keys=ON like SqliteEventStore; the same
//       INSERT statements, prepared once), one BEGIN IMMEDIATE/COMMIT per batch, the batch size being the events per
//       commit the server's group commit achieved in (b) (the server's own histogram on GET /metrics).
// Everything lives in a temporary directory under /tmp (the same disk for both), removed at the end unless --keep.
// After the runs the server is stopped and the rows of its events.sqlite3 are counted: they must equal the events
// acknowledged (purchases and order lines too, nothing duplicated).
// With --database-url (or --postgres: a throwaway server with fsync on) the server runs on PostgreSQL, in a database
// of the run's own, the count is of what PgEventStore keeps, and the floor is a bare INSERT loop on the same
// PostgreSQL (bench/PgInsertFloor.hpp, as bench-events-postgres's) at the server's commit sizes.
//
// The events endpoint limits each client address to 100 requests/s (bursts of 400), as it should in production.
// The clients therefore come from distinct loopback addresses (127.1.x.y; Linux routes all of 127/8 to lo), several
// per client used in turn, as shoppers' browsers do: the limiter runs on every request, and no request is refused by it.
// Exit status: 0 when every step ran (whatever the figures), 1 when a step failed, 2 on a bad command line.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <pthread.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "BenchSupport.hpp"
#include "PgInsertFloor.hpp"
#include "support/ThrowawayPostgres.hpp"

namespace {

namespace fs = std::filesystem;
using namespace bench;
using nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

void sleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

double secondsSince(SteadyClock::time_point start) {
    return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

double threadCpuSeconds() {
    rusage usage{};
    ::getrusage(RUSAGE_THREAD, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Threads at SCHED_IDLE priority that keep every core from going idle while the floor runs, and take no CPU from
// anything else. On this development VM an fdatasync whose thread leaves its core idle takes ~4 ms (the idle vCPU
// halts, and waking it costs a host tick) against ~0.1 ms when the core stays busy, as it does under the server's load
// in (b); without them the floor would measure the VM's idle wake-up, not SQLite and the disk.
class CoreWarmers {
public:
    explicit CoreWarmers(bool enabled) {
        if (!enabled) return;
        unsigned count = std::max(1u, std::thread::hardware_concurrency());
        for (unsigned i = 0; i < count; ++i) {
            threads_.emplace_back([this] {
                sched_param param{};
                if (::pthread_setschedparam(::pthread_self(), SCHED_IDLE, &param) != 0) return;
                while (!stop_.load(std::memory_order_relaxed)) {
                }
            });
        }
    }
    ~CoreWarmers() {
        stop_ = true;
        for (auto& thread : threads_) thread.join();
    }
    CoreWarmers(const CoreWarmers&) = delete;
    CoreWarmers& operator=(const CoreWarmers&) = delete;

private:
    std::atomic<bool> stop_{false};
    std::vector<std::thread> threads_;
};

double processCpuSeconds() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// ---------------------------------------------------------------------------------------------------------------
// Children that run to completion: fork/execv, stdout and stderr into files, exit status checked.

struct ChildRun {
    double seconds = 0;
    std::string out;
    std::string err;
};

ChildRun runChild(const std::string& step, const std::vector<std::string>& argv, const std::string& workDir) {
    std::string tag = workDir + "/" + step;
    std::string outPath = tag + ".stdout", errPath = tag + ".stderr";
    auto started = SteadyClock::now();
    pid_t pid = spawn(step, argv, outPath, errPath);
    int status = 0;
    bool forwarded = false;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw StepFailure(step + ": waitpid failed: " + std::strerror(errno));
        if (interrupted && !forwarded) {
            ::kill(pid, SIGTERM);  // a SIGTERM sent to the bench alone must stop its child too
            forwarded = true;
        }
    }
    stopIfInterrupted();
    ChildRun run;
    run.seconds = secondsSince(started);
    run.out = readWholeFile(outPath);
    run.err = readWholeFile(errPath);
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        std::string how = describeStatus(status);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127) how += " (could not execute " + argv[0] + ")";
        std::string message = step + " failed: `" + commandLine(argv) + "` " + how;
        std::string tail = lastLines(run.err, 10);
        if (!tail.empty()) message += "\n  stderr: " + tail;
        throw StepFailure(message);
    }
    return run;
}

// ---------------------------------------------------------------------------------------------------------------
// svc-server in the background until stopped: started, awaited on its "listening on" line, stopped with SIGTERM
// (SIGKILL after 10 s) by stop() or the destructor. A server that dies early fails the step.


// ---------------------------------------------------------------------------------------------------------------
// The server's own count of its group commits: the histogram svc_event_commit_batch_events of GET /metrics (the events
// of each commit of the event writer, ADR 0014), read before and after a timed run. Exact on both backends (an fsync
// count would miss PostgreSQL's, which its own processes make).

struct CommitCounts {
    double events = 0;
    double commits = 0;
};

CommitCounts readCommits(int port) {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(std::chrono::seconds(10));
    auto response = client.Get("/metrics");
    if (!response || response->status != 200) {
        throw StepFailure("GET /metrics: " + (response ? "HTTP " + std::to_string(response->status) : httplib::to_string(response.error())));
    }
    CommitCounts counts;
    bool sum = false, count = false;
    std::istringstream lines(response->body);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("svc_event_commit_batch_events_sum ", 0) == 0) {
            counts.events = std::strtod(line.c_str() + line.find(' '), nullptr);
            sum = true;
        } else if (line.rfind("svc_event_commit_batch_events_count ", 0) == 0) {
            counts.commits = std::strtod(line.c_str() + line.find(' '), nullptr);
            count = true;
        }
    }
    if (!sum || !count) throw StepFailure("GET /metrics: no svc_event_commit_batch_events histogram");
    return counts;
}

// ---------------------------------------------------------------------------------------------------------------
// The events: widget events as the SDK's WidgetEventLog writes them (type, cid, sid, widget, touchpoint, sku, setId
// for custom sets, testGroup, variant; 32-hex-digit ids like VisitorIdentity's), purchases as PurchasePayload writes
// them (type purchase, customerid "anonymous", a unique orderid, cid, 1-3 lines). Deterministic per seed.

struct Event {
    bool purchase = false;
    std::string type;  // view, click, add-to-cart, purchase
    std::string cid, sid, widget, touchpoint, sku, setId, testGroup, variant, orderId;
    struct Line {
        std::string sku;
        int64_t amount = 1, price = 0;
    };
    std::vector<Line> lines;
};

constexpr uint32_t kVisitors = 200'000;
constexpr uint32_t kProducts = 20'000;
constexpr std::array<std::string_view, 6> kTouchpoints{"product", "cart-layer", "cart", "category", "search", "content"};
constexpr std::array<uint32_t, 6> kTouchpointWeights{55, 10, 10, 12, 8, 5};
constexpr std::array<std::string_view, 3> kWidgets{"SET", "SIMILAR", "SET-Custom"};
constexpr std::array<uint32_t, 3> kWidgetWeights{45, 45, 10};
constexpr std::array<std::string_view, 3> kTypes{"view", "click", "add-to-cart"};
constexpr std::array<uint32_t, 3> kTypeWeights{70, 22, 8};
constexpr std::array<std::string_view, 5> kSizes{"XS", "S", "M", "L", "XL"};

std::string hexId(uint32_t a, uint32_t b) {
    char buffer[40];
    // 32 hex digits, like the SDK's _svc_cid/_svc_sid (16 random bytes); a mixed value, so ids look random.
    uint64_t x = (static_cast<uint64_t>(a) << 32 | b) * 0x9E3779B97F4A7C15ull;
    uint64_t y = (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ull;
    std::snprintf(buffer, sizeof buffer, "%016llx%016llx", static_cast<unsigned long long>(x),
                  static_cast<unsigned long long>(y));
    return buffer;
}

class EventGenerator {
public:
    EventGenerator(uint32_t seed, std::string orderPrefix) : rng_(seed), orderPrefix_(std::move(orderPrefix)) {}

    Event widgetEvent() {
        Event event;
        uint32_t visitor = rng_.below(kVisitors);
        event.type = std::string(kTypes[rng_.weighted(kTypeWeights, 100)]);
        event.cid = hexId(visitor, 1);
        event.sid = hexId(visitor, 2 + rng_.below(4));
        event.widget = std::string(kWidgets[rng_.weighted(kWidgetWeights, 100)]);
        event.touchpoint = std::string(kTouchpoints[rng_.weighted(kTouchpointWeights, 100)]);
        event.sku = sku();
        if (event.widget == "SET-Custom") event.setId = "set-" + std::to_string(1 + rng_.below(400));
        event.testGroup = rng_.percent(50) ? "A" : "B";
        event.variant = event.testGroup == "A" ? "content-v3" : "content-v4";
        return event;
    }

    Event purchase() {
        Event event;
        event.purchase = true;
        event.type = "purchase";
        event.orderId = orderPrefix_ + std::to_string(++orders_);
        if (rng_.percent(90)) event.cid = hexId(rng_.below(kVisitors), 1);
        uint32_t lines = 1 + static_cast<uint32_t>(rng_.weighted(std::array<uint32_t, 3>{60, 30, 10}, 100));
        for (uint32_t i = 0; i < lines; ++i) {
            event.lines.push_back({sku(), rng_.percent(85) ? 1 : 2, 990 + 100 * static_cast<int64_t>(rng_.below(190))});
        }
        return event;
    }

    Rng& rng() { return rng_; }

private:
    std::string sku() {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "FW%06u-%s", static_cast<unsigned>(rng_.below(kProducts)),
                      std::string(kSizes[rng_.below(5)]).c_str());
        return buffer;
    }

    Rng rng_;
    std::string orderPrefix_;
    uint64_t orders_ = 0;
};

void appendJsonString(std::string& out, const std::string& text) {
    out += '"';
    for (char c : text) {  // the generated texts hold no characters that need escaping
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    out += '"';
}

void appendEventJson(std::string& out, const Event& event) {
    if (event.purchase) {
        out += "{\"type\":\"purchase\",\"customerid\":\"anonymous\",\"orderid\":";
        appendJsonString(out, event.orderId);
        if (!event.cid.empty()) {
            out += ",\"cid\":";
            appendJsonString(out, event.cid);
        }
        out += ",\"products\":[";
        for (size_t i = 0; i < event.lines.size(); ++i) {
            out += i ? ",{\"sku\":" : "{\"sku\":";
            appendJsonString(out, event.lines[i].sku);
            out += ",\"amount\":" + std::to_string(event.lines[i].amount) + ",\"price\":" + std::to_string(event.lines[i].price) + "}";
        }
        out += "]}";
        return;
    }
    out += "{\"type\":";
    appendJsonString(out, event.type);
    auto field = [&out](const char* name, const std::string& value) {
        if (value.empty()) return;
        out += ",\"";
        out += name;
        out += "\":";
        appendJsonString(out, value);
    };
    field("cid", event.cid);
    field("sid", event.sid);
    field("widget", event.widget);
    field("touchpoint", event.touchpoint);
    field("sku", event.sku);
    field("setId", event.setId);
    field("testGroup", event.testGroup);
    field("variant", event.variant);
    out += '}';
}

// A request shape: `batch` widget events per body ({"events": [...]} when batch > 1), and `purchasePercent` of the
// requests carry one purchase instead (a body of its own, as the SDK sends it).
struct Shape {
    std::string name;
    std::string description;
    int batch = 1;
    uint32_t purchasePercent = 2;
};

// One request's events.
std::vector<Event> nextRequestEvents(EventGenerator& generator, const Shape& shape) {
    std::vector<Event> events;
    if (generator.rng().percent(shape.purchasePercent)) {
        events.push_back(generator.purchase());
        return events;
    }
    for (int i = 0; i < shape.batch; ++i) events.push_back(generator.widgetEvent());
    return events;
}

std::string requestBody(const std::vector<Event>& events, bool batch) {
    std::string body;
    if (batch) body = "{\"events\":[";
    for (size_t i = 0; i < events.size(); ++i) {
        if (i) body += ',';
        appendEventJson(body, events[i]);
    }
    if (batch) body += "]}";
    return body;
}

// ---------------------------------------------------------------------------------------------------------------
// The HTTP clients: closed loop, keep-alive, one request in flight per client; each client cycles through its own
// connections, one per source address. Clients are spread over a few threads, each with its own epoll loop.

struct LoadSettings {
    int port = 0;
    std::string apiId;
    Shape shape;
    int clients = 32;
    int addressesPerClient = 8;
    int threads = 1;
    double seconds = 10;
    uint32_t seedBase = 1;
    std::string orderPrefix;  // makes order ids unique across the runs of one bench
};

struct LoadResult {
    uint64_t requests = 0;       // answered 2xx
    uint64_t events = 0;         // acknowledged ("accepted" of 2xx answers)
    uint64_t purchases = 0, lines = 0;
    uint64_t duplicates = 0;     // should stay 0: every order id is new
    uint64_t refused = 0, status429 = 0;  // answers that were not 2xx
    uint64_t unanswered = 0, unansweredEvents = 0, unansweredPurchases = 0, unansweredLines = 0;  // connection lost
    uint64_t connects = 0, serverCloses = 0;  // during the run (all connections are opened before it)
    double connectSeconds = 0;               // opening them before the run
    uint64_t requestBytes = 0;
    std::vector<uint32_t> latencyUs;
    double seconds = 0;          // from the first request to the last answer
    double clientCpuSeconds = 0; // of the whole bench process during the run (only the client threads run then)
    std::string firstRefusal;
    std::string failure;         // a thread that could not go on
};

std::string sourceAddress(int index) {
    // 127.1.0.1 ... : 250 addresses per third octet.
    return "127.1." + std::to_string(index / 250) + "." + std::to_string(index % 250 + 1);
}

class LoadThread {
public:
    LoadThread(const LoadSettings& settings, int firstClient, int clientCount)
        : settings_(settings), firstClient_(firstClient) {
        std::string head = "POST /events?apiId=" + settings.apiId + " HTTP/1.1\r\nHost: 127.0.0.1:" +
                           std::to_string(settings.port) +
                           "\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
                           "\r\nAccept: */*\r\nAccept-Language: de-DE,de;q=0.9,en;q=0.5"
                           "\r\nOrigin: https://shop.example\r\nReferer: https://shop.example/"
                           "\r\nContent-Type: text/plain;charset=UTF-8\r\nContent-Length: ";
        head_ = std::move(head);
        for (int i = 0; i < clientCount; ++i) {
            int id = firstClient + i;
            Client client(EventGenerator(settings.seedBase * 7919u + static_cast<uint32_t>(id),
                                         settings.orderPrefix + std::to_string(id) + "-"));
            client.connections.resize(static_cast<size_t>(settings.addressesPerClient));
            for (int a = 0; a < settings.addressesPerClient; ++a) {
                client.connections[static_cast<size_t>(a)].source = sourceAddress(id * settings.addressesPerClient + a);
            }
            client.next = static_cast<size_t>(i) % client.connections.size();
            clients_.push_back(std::move(client));
        }
    }
    ~LoadThread() {
        for (auto& client : clients_) {
            for (auto& connection : client.connections) {
                if (connection.fd >= 0) ::close(connection.fd);
            }
        }
        if (epoll_ >= 0) ::close(epoll_);
    }

    void run(SteadyClock::time_point begin, SteadyClock::time_point deadline) {
        try {
            loop(begin, deadline);
        } catch (const std::exception& error) {
            result_.failure = error.what();
        }
    }

    // Opens every connection before the clock starts, one at a time with a pause: svc-server (cpp-httplib) listens
    // with a backlog of 5, and a full accept queue drops SYNs, which costs the client a 1 s retransmission.
    void connectAll() {
        epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
        if (epoll_ < 0) throw StepFailure(std::string("epoll_create1: ") + std::strerror(errno));
        for (size_t c = 0; c < clients_.size(); ++c) {
            for (size_t a = 0; a < clients_[c].connections.size(); ++a) {
                stopIfInterrupted();
                connect(c, a);
                sleepMs(1);
            }
        }
        result_.connects = 0;
    }

    LoadResult& result() { return result_; }
    SteadyClock::time_point lastAnswer() const { return lastAnswer_; }

private:
    struct Connection {
        int fd = -1;
        std::string source;
    };
    struct Client {
        explicit Client(EventGenerator seeded) : generator(std::move(seeded)) {}
        EventGenerator generator;
        std::vector<Connection> connections;
        size_t next = 0;
        int active = -1;  // connection with the request in flight, -1 when none
        bool done = false;
        std::string out;
        size_t sent = 0;
        std::string in;
        SteadyClock::time_point started;
        uint64_t events = 0, purchases = 0, lines = 0;
    };

    static uint64_t key(size_t client, size_t connection) { return static_cast<uint64_t>(client) << 16 | connection; }

    void connect(size_t clientIndex, size_t connectionIndex) {
        Connection& connection = clients_[clientIndex].connections[connectionIndex];
        int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) throw StepFailure(std::string("socket: ") + std::strerror(errno));
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        sockaddr_in source{};
        source.sin_family = AF_INET;
        ::inet_pton(AF_INET, connection.source.c_str(), &source.sin_addr);
        if (::bind(fd, reinterpret_cast<sockaddr*>(&source), sizeof source) < 0) {
            int saved = errno;
            ::close(fd);
            throw StepFailure("bind to " + connection.source + ": " + std::strerror(saved));
        }
        sockaddr_in target{};
        target.sin_family = AF_INET;
        target.sin_port = htons(static_cast<uint16_t>(settings_.port));
        target.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&target), sizeof target) < 0) {  // blocking: loopback
            int saved = errno;
            ::close(fd);
            throw StepFailure("connect from " + connection.source + " to 127.0.0.1:" + std::to_string(settings_.port) +
                              ": " + std::strerror(saved));
        }
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = key(clientIndex, connectionIndex);
        if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event) < 0) {
            int saved = errno;
            ::close(fd);
            throw StepFailure(std::string("epoll_ctl: ") + std::strerror(saved));
        }
        connection.fd = fd;
        ++result_.connects;
    }

    void closeConnection(Connection& connection) {
        if (connection.fd < 0) return;
        ::epoll_ctl(epoll_, EPOLL_CTL_DEL, connection.fd, nullptr);
        ::close(connection.fd);
        connection.fd = -1;
    }

    void start(size_t clientIndex) {
        Client& client = clients_[clientIndex];
        size_t connectionIndex = client.next;
        client.next = (client.next + 1) % client.connections.size();
        Connection& connection = client.connections[connectionIndex];
        if (connection.fd >= 0) {
            // Closed by the server while idle (keep-alive timeout): open it again rather than lose a request on it.
            char probe;
            if (::recv(connection.fd, &probe, 1, MSG_PEEK | MSG_DONTWAIT) == 0) {
                closeConnection(connection);
                ++result_.serverCloses;
            }
        }
        if (connection.fd < 0) connect(clientIndex, connectionIndex);
        std::vector<Event> events = nextRequestEvents(client.generator, settings_.shape);
        client.events = events.size();
        client.purchases = 0;
        client.lines = 0;
        for (const auto& event : events) {
            if (event.purchase) {
                ++client.purchases;
                client.lines += event.lines.size();
            }
        }
        std::string body = requestBody(events, settings_.shape.batch > 1 && !events.front().purchase);
        client.out = head_;
        client.out += std::to_string(body.size());
        client.out += "\r\n\r\n";
        client.out += body;
        client.sent = 0;
        client.in.clear();
        client.active = static_cast<int>(connectionIndex);
        client.started = SteadyClock::now();
        result_.requestBytes += client.out.size();
        send(clientIndex);
    }

    void send(size_t clientIndex) {
        Client& client = clients_[clientIndex];
        Connection& connection = client.connections[static_cast<size_t>(client.active)];
        while (client.sent < client.out.size()) {
            ssize_t n = ::send(connection.fd, client.out.data() + client.sent, client.out.size() - client.sent, MSG_NOSIGNAL);
            if (n > 0) {
                client.sent += static_cast<size_t>(n);
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                epoll_event event{};
                event.events = EPOLLIN | EPOLLOUT;
                event.data.u64 = key(clientIndex, static_cast<size_t>(client.active));
                ::epoll_ctl(epoll_, EPOLL_CTL_MOD, connection.fd, &event);
                return;
            }
            lost(clientIndex);
            return;
        }
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = key(clientIndex, static_cast<size_t>(client.active));
        ::epoll_ctl(epoll_, EPOLL_CTL_MOD, connection.fd, &event);
    }

    // The connection of a request in flight broke: its events may or may not be stored.
    void lost(size_t clientIndex) {
        Client& client = clients_[clientIndex];
        closeConnection(client.connections[static_cast<size_t>(client.active)]);
        client.active = -1;
        ++result_.unanswered;
        result_.unansweredEvents += client.events;
        result_.unansweredPurchases += client.purchases;
        result_.unansweredLines += client.lines;
        finished(clientIndex);
    }

    void finished(size_t clientIndex) {
        Client& client = clients_[clientIndex];
        if (SteadyClock::now() < deadline_ && !interrupted) {
            start(clientIndex);
        } else {
            client.done = true;
            --running_;
        }
    }

    static std::optional<uint64_t> numberAfter(const std::string& text, std::string_view name, size_t from) {
        size_t at = text.find(name, from);
        if (at == std::string::npos) return std::nullopt;
        const char* begin = text.c_str() + at + name.size();
        char* end = nullptr;
        unsigned long long value = std::strtoull(begin, &end, 10);
        if (end == begin) return std::nullopt;
        return value;
    }

    // Reads what arrived; answers the request when its response is complete.
    void readable(size_t clientIndex, size_t connectionIndex) {
        Client& client = clients_[clientIndex];
        Connection& connection = client.connections[connectionIndex];
        char buffer[16384];
        bool eof = false;
        while (true) {
            ssize_t n = ::recv(connection.fd, buffer, sizeof buffer, 0);
            if (n > 0) {
                if (client.active != static_cast<int>(connectionIndex)) {
                    throw StepFailure("data from the server on an idle connection: " +
                                      std::string(buffer, static_cast<size_t>(std::min<ssize_t>(n, 200))));
                }
                client.in.append(buffer, static_cast<size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
            eof = true;  // closed by the server, or reset
            break;
        }
        if (client.active != static_cast<int>(connectionIndex)) {
            if (eof) {
                closeConnection(connection);
                ++result_.serverCloses;
            }
            return;
        }
        size_t headerEnd = client.in.find("\r\n\r\n");
        if (headerEnd != std::string::npos) {
            std::string head = client.in.substr(0, headerEnd);
            std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
            auto length = numberAfter(head, "\r\ncontent-length:", 0);
            if (!length) {
                if (head.find("\r\ncontent-length: ") != std::string::npos) length = numberAfter(head, "\r\ncontent-length: ", 0);
            }
            if (!length) throw StepFailure("a response without Content-Length: " + client.in.substr(0, 300));
            if (client.in.size() >= headerEnd + 4 + *length) {
                if (client.in.size() > headerEnd + 4 + *length) {
                    throw StepFailure("more bytes than one response: " + client.in.substr(0, 300));
                }
                answered(clientIndex, head, client.in.substr(headerEnd + 4), eof);
                return;
            }
        }
        if (eof) lost(clientIndex);
    }

    // `eof`: the server closed the connection after the answer (with or without saying so).
    void answered(size_t clientIndex, const std::string& head, const std::string& body, bool eof) {
        Client& client = clients_[clientIndex];
        auto now = SteadyClock::now();
        lastAnswer_ = now;
        Connection& connection = client.connections[static_cast<size_t>(client.active)];
        int status = head.size() > 12 && head.rfind("http/1.", 0) == 0 ? std::atoi(head.c_str() + 9) : 0;
        if (status >= 200 && status < 300) {
            auto accepted = numberAfter(body, "\"accepted\":", 0);
            auto duplicates = numberAfter(body, "\"duplicates\":", 0);
            if (!accepted || *accepted != client.events || !duplicates) {
                throw StepFailure("unexpected answer to " + std::to_string(client.events) + " events: " + body.substr(0, 300));
            }
            ++result_.requests;
            result_.events += *accepted;
            result_.purchases += client.purchases;
            result_.lines += client.lines;
            result_.duplicates += *duplicates;
            auto micros = std::chrono::duration_cast<std::chrono::microseconds>(now - client.started).count();
            result_.latencyUs.push_back(static_cast<uint32_t>(std::min<int64_t>(micros, UINT32_MAX)));
        } else {
            ++result_.refused;
            if (status == 429) ++result_.status429;
            if (result_.firstRefusal.empty()) result_.firstRefusal = "HTTP " + std::to_string(status) + ": " + body.substr(0, 300);
        }
        bool close = eof || head.find("\r\nconnection: close") != std::string::npos;
        client.active = -1;
        if (close) {
            closeConnection(connection);
            ++result_.serverCloses;
        }
        finished(clientIndex);
    }

    void loop(SteadyClock::time_point begin, SteadyClock::time_point deadline) {
        deadline_ = deadline;
        result_.latencyUs.reserve(1 << 20);
        std::this_thread::sleep_until(begin);
        running_ = clients_.size();
        for (size_t i = 0; i < clients_.size(); ++i) start(i);
        std::vector<epoll_event> events(256);
        auto progress = SteadyClock::now();
        uint64_t answeredBefore = 0;
        while (running_ > 0) {
            int n = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), 100);
            if (n < 0) {
                if (errno == EINTR) continue;
                throw StepFailure(std::string("epoll_wait: ") + std::strerror(errno));
            }
            for (int i = 0; i < n; ++i) {
                size_t clientIndex = static_cast<size_t>(events[i].data.u64 >> 16);
                size_t connectionIndex = static_cast<size_t>(events[i].data.u64 & 0xFFFF);
                Client& client = clients_[clientIndex];
                if (client.connections[connectionIndex].fd < 0) continue;  // closed earlier in this round
                if ((events[i].events & EPOLLOUT) && client.active == static_cast<int>(connectionIndex)) send(clientIndex);
                if (client.connections[connectionIndex].fd >= 0 && (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
                    readable(clientIndex, connectionIndex);
                }
            }
            uint64_t answeredNow = result_.requests + result_.refused + result_.unanswered;
            if (answeredNow != answeredBefore) {
                answeredBefore = answeredNow;
                progress = SteadyClock::now();
            } else if (SteadyClock::now() - progress > std::chrono::seconds(30)) {
                throw StepFailure("no answer from svc-server for 30 s (" + std::to_string(running_) + " clients waiting)");
            }
        }
    }

    const LoadSettings& settings_;
    int firstClient_;
    std::string head_;
    std::vector<Client> clients_;
    int epoll_ = -1;
    size_t running_ = 0;
    SteadyClock::time_point deadline_;
    SteadyClock::time_point lastAnswer_;
    LoadResult result_;
};

LoadResult runLoad(const LoadSettings& settings) {
    std::vector<std::unique_ptr<LoadThread>> threads;
    int perThread = settings.clients / settings.threads, extra = settings.clients % settings.threads, first = 0;
    for (int t = 0; t < settings.threads; ++t) {
        int count = perThread + (t < extra ? 1 : 0);
        threads.push_back(std::make_unique<LoadThread>(settings, first, count));
        first += count;
    }
    auto connecting = SteadyClock::now();
    for (auto& thread : threads) thread->connectAll();
    double connectSeconds = secondsSince(connecting);
    auto start = SteadyClock::now() + std::chrono::milliseconds(20);
    auto deadline = start + std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(settings.seconds));
    double cpuBefore = processCpuSeconds();
    std::vector<std::thread> running;
    for (auto& thread : threads) running.emplace_back([&thread, start, deadline] { thread->run(start, deadline); });
    for (auto& thread : running) thread.join();
    double cpuAfter = processCpuSeconds();
    LoadResult total;
    SteadyClock::time_point last = start;
    for (auto& thread : threads) {
        LoadResult& part = thread->result();
        if (!part.failure.empty()) throw StepFailure("POST /events (" + settings.shape.name + "): " + part.failure);
        total.requests += part.requests;
        total.events += part.events;
        total.purchases += part.purchases;
        total.lines += part.lines;
        total.duplicates += part.duplicates;
        total.refused += part.refused;
        total.status429 += part.status429;
        total.unanswered += part.unanswered;
        total.unansweredEvents += part.unansweredEvents;
        total.unansweredPurchases += part.unansweredPurchases;
        total.unansweredLines += part.unansweredLines;
        total.connects += part.connects;
        total.serverCloses += part.serverCloses;
        total.requestBytes += part.requestBytes;
        total.latencyUs.insert(total.latencyUs.end(), part.latencyUs.begin(), part.latencyUs.end());
        if (total.firstRefusal.empty()) total.firstRefusal = part.firstRefusal;
        last = std::max(last, thread->lastAnswer());
    }
    stopIfInterrupted();
    total.seconds = std::chrono::duration<double>(last - start).count();
    total.clientCpuSeconds = cpuAfter - cpuBefore;
    total.connectSeconds = connectSeconds;
    std::sort(total.latencyUs.begin(), total.latencyUs.end());
    return total;
}

double percentileMs(const std::vector<uint32_t>& sorted, double p) {
    if (sorted.empty()) return 0;
    size_t index = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    index = std::clamp<size_t>(index, 1, sorted.size()) - 1;
    return sorted[index] / 1000.0;
}

// ---------------------------------------------------------------------------------------------------------------
// SQLite, directly: the floor, the schema check and the final count.

class Db {
public:
    Db(const std::string& path, int flags) {
        if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
            std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
            sqlite3_close(db_);
            db_ = nullptr;
            throw StepFailure("sqlite: cannot open " + path + ": " + message);
        }
        sqlite3_busy_timeout(db_, 10000);
    }
    ~Db() {
        for (auto* statement : statements_) sqlite3_finalize(statement);
        sqlite3_close(db_);
    }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    void execute(const std::string& sql) {
        char* error = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
            std::string message = error ? error : sqlite3_errmsg(db_);
            sqlite3_free(error);
            throw StepFailure("sqlite: " + sql + ": " + message);
        }
    }
    sqlite3_stmt* prepare(const std::string& sql) {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
            throw StepFailure("sqlite: " + sql + ": " + sqlite3_errmsg(db_));
        }
        statements_.push_back(statement);
        return statement;
    }
    void run(sqlite3_stmt* statement) {
        int code = sqlite3_step(statement);
        if (code != SQLITE_DONE) throw StepFailure(std::string("sqlite: insert: ") + sqlite3_errmsg(db_));
        sqlite3_reset(statement);
        sqlite3_clear_bindings(statement);
    }
    int64_t integer(const std::string& sql) {
        sqlite3_stmt* statement = prepare(sql);
        if (sqlite3_step(statement) != SQLITE_ROW) throw StepFailure("sqlite: " + sql + ": " + sqlite3_errmsg(db_));
        return sqlite3_column_int64(statement, 0);
    }
    std::string text(const std::string& sql) {
        sqlite3_stmt* statement = prepare(sql);
        if (sqlite3_step(statement) != SQLITE_ROW) throw StepFailure("sqlite: " + sql + ": " + sqlite3_errmsg(db_));
        const auto* data = sqlite3_column_text(statement, 0);
        return data ? reinterpret_cast<const char*>(data) : "";
    }
    sqlite3* handle() { return db_; }

private:
    sqlite3* db_ = nullptr;
    std::vector<sqlite3_stmt*> statements_;
};

// The events file's schema as text (tables and indexes, by name), for comparing two files.
std::string schemaOf(const std::string& path) {
    Db db(path, SQLITE_OPEN_READONLY);
    return db.text("SELECT group_concat(sql, ';\n') FROM (SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                   "AND name NOT LIKE 'sqlite_%' ORDER BY name)");
}

struct FloorResult {
    uint64_t rows = 0, purchases = 0, lines = 0, commits = 0;
    size_t commitEvents = 0;
    double seconds = 0;     // inside BEGIN ... COMMIT only (the events are generated outside the clock)
    double cpuSeconds = 0;  // of the inserting thread over the whole step (the events' generation included)
};

// Inserts `rows` events of `shape`'s mix into the events file at `path` (made by svc-server, so the schema is the
// server's), `commitEvents` per transaction, with the server's pragmas and INSERT statements.
FloorResult runFloor(const std::string& path, const Shape& shape, uint64_t rows, size_t commitEvents, uint32_t seed) {
    Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX);
    for (const char* pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON"}) {
        db.execute(pragma);
    }
    sqlite3_stmt* insertEvent = db.prepare(
        "INSERT INTO events(tenant_id, type, received_at, cid, order_id, widget, touchpoint, sku, set_id, test_group, variant, "
        "client_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    sqlite3_stmt* insertLine = db.prepare("INSERT INTO order_lines(event, line, sku, amount, price) VALUES (?, ?, ?, ?, ?)");
    sqlite3_stmt* begin = db.prepare("BEGIN IMMEDIATE");
    sqlite3_stmt* commit = db.prepare("COMMIT");
    auto bindText = [](sqlite3_stmt* statement, int index, const std::string& text) {
        if (text.empty()) sqlite3_bind_null(statement, index);
        else sqlite3_bind_text(statement, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
    };
    EventGenerator generator(seed, "floor" + std::to_string(seed) + "-");
    FloorResult result;
    result.commitEvents = commitEvents;
    std::vector<Event> batch;
    double cpuBefore = threadCpuSeconds();
    while (result.rows < rows) {
        stopIfInterrupted();
        batch.clear();
        while (batch.size() < commitEvents && result.rows + batch.size() < rows) {
            auto events = nextRequestEvents(generator, shape);
            for (auto& event : events) {
                if (batch.size() < commitEvents && result.rows + batch.size() < rows) batch.push_back(std::move(event));
            }
        }
        auto started = SteadyClock::now();
        int64_t receivedAt = static_cast<int64_t>(std::time(nullptr));
        db.run(begin);
        for (const Event& event : batch) {
            sqlite3_bind_int64(insertEvent, 1, 1);
            sqlite3_bind_text(insertEvent, 2, event.type.data(), static_cast<int>(event.type.size()), SQLITE_STATIC);
            sqlite3_bind_int64(insertEvent, 3, receivedAt);
            bindText(insertEvent, 4, event.cid);
            if (event.purchase) {
                bindText(insertEvent, 5, event.orderId);
            } else {
                bindText(insertEvent, 6, event.widget);
                bindText(insertEvent, 7, event.touchpoint);
                bindText(insertEvent, 8, event.sku);
                bindText(insertEvent, 9, event.setId);
                bindText(insertEvent, 10, event.testGroup);
                bindText(insertEvent, 11, event.variant);
                sqlite3_bind_null(insertEvent, 12);
            }
            db.run(insertEvent);
            if (sqlite3_changes(db.handle()) != 1) throw StepFailure("floor: an event was not inserted");
            if (!event.purchase) continue;
            int64_t sequence = sqlite3_last_insert_rowid(db.handle());
            for (size_t i = 0; i < event.lines.size(); ++i) {
                sqlite3_bind_int64(insertLine, 1, sequence);
                sqlite3_bind_int64(insertLine, 2, static_cast<int64_t>(i));
                sqlite3_bind_text(insertLine, 3, event.lines[i].sku.data(), static_cast<int>(event.lines[i].sku.size()),
                                  SQLITE_STATIC);
                sqlite3_bind_int64(insertLine, 4, event.lines[i].amount);
                sqlite3_bind_int64(insertLine, 5, event.lines[i].price);
                db.run(insertLine);
            }
            ++result.purchases;
            result.lines += event.lines.size();
        }
        db.run(commit);
        result.seconds += secondsSince(started);
        result.rows += batch.size();
        ++result.commits;
    }
    result.cpuSeconds = threadCpuSeconds() - cpuBefore;
    return result;
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL: the server's database, the floor on the same server, and the final count.

// A database of the run's own on the PostgreSQL server at `serverUrl` (its role may create databases), dropped at
// the end: the server's tables in it, the floor's in a schema of its own beside them.
class RunDatabase {
public:
    explicit RunDatabase(const std::string& serverUrl) : serverUrl_(serverUrl), name_("svc_bench_events_" + std::to_string(::getpid())) {
        auto server = pg::connect(serverUrl_);
        pg::exec(*server, "DROP DATABASE IF EXISTS " + name_);
        pg::exec(*server, "CREATE DATABASE " + name_);
        // postgresql://USER@HOST:PORT/DATABASE?PARAMETERS: the database is the path after the authority.
        size_t query = serverUrl_.find('?');
        std::string base = serverUrl_.substr(0, query), parameters = query == std::string::npos ? "" : serverUrl_.substr(query);
        size_t authority = base.find("://");
        size_t slash = base.find('/', authority == std::string::npos ? 0 : authority + 3);
        url_ = (slash == std::string::npos ? base : base.substr(0, slash)) + "/" + name_ + parameters;
    }
    ~RunDatabase() {
        try {
            pg::exec(*pg::connect(serverUrl_), "DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
        } catch (const std::exception& error) {
            std::cerr << "bench-events: could not drop the database " << name_ << ": " << error.what() << "\n";
        }
    }
    RunDatabase(const RunDatabase&) = delete;
    RunDatabase& operator=(const RunDatabase&) = delete;
    const std::string& url() const { return url_; }

private:
    std::string serverUrl_, name_, url_;
};

// As runFloor, on PostgreSQL: `rows` events of `shape`'s mix in a bare INSERT loop (bench/PgInsertFloor.hpp),
// `commitEvents` per transaction, in a fresh schema of the run's database; the events are made before the clock.
FloorResult runPgFloor(const std::string& databaseUrl, const Shape& shape, uint64_t rows, size_t commitEvents, uint32_t seed) {
    pg::Schema schema(databaseUrl, "svc_bench_floor_" + std::to_string(seed));
    pg::InsertFloor floor(schema.url());
    EventGenerator generator(seed, "floor" + std::to_string(seed) + "-");
    FloorResult result;
    result.commitEvents = commitEvents;
    std::vector<pg::FloorBatch> batches;
    uint64_t made = 0;
    double cpuBefore = threadCpuSeconds();
    while (made < rows) {
        pg::FloorBatch& batch = batches.emplace_back();
        while (batch.size() < commitEvents && made < rows) {
            for (auto& event : nextRequestEvents(generator, shape)) {
                if (batch.size() >= commitEvents || made >= rows) break;
                pg::FloorEvent& row = batch.emplace_back();
                auto optional = [](const std::string& text) { return text.empty() ? std::nullopt : std::optional<std::string>(text); };
                row.type = event.type;
                row.cid = optional(event.cid);
                if (event.purchase) {
                    row.orderId = event.orderId;
                    for (const auto& line : event.lines) row.lines.push_back({line.sku, line.amount, line.price});
                    ++result.purchases;
                    result.lines += event.lines.size();
                } else {
                    row.sid = optional(event.sid);
                    row.widget = optional(event.widget);
                    row.touchpoint = optional(event.touchpoint);
                    row.sku = optional(event.sku);
                    row.setId = optional(event.setId);
                    row.testGroup = optional(event.testGroup);
                    row.variant = optional(event.variant);
                }
                ++made;
            }
        }
    }
    for (const auto& batch : batches) {
        stopIfInterrupted();
        auto started = SteadyClock::now();
        floor.commit(batch, static_cast<int64_t>(std::time(nullptr)));
        result.seconds += secondsSince(started);
        result.rows += batch.size();
        ++result.commits;
    }
    result.cpuSeconds = threadCpuSeconds() - cpuBefore;
    if (floor.storedEvents() != static_cast<int64_t>(result.rows) || floor.storedLines() != static_cast<int64_t>(result.lines)) {
        throw StepFailure("the floor stored " + std::to_string(floor.storedEvents()) + " of " + std::to_string(result.rows) + " rows");
    }
    return result;
}

struct StoredCounts {
    int64_t events = 0, purchases = 0, orders = 0, lines = 0;
};

// What PgEventStore keeps of the events (ADR 0089): views, clicks and add-to-carts as counters per tenant and day
// (clicks and add-to-carts also as interactions rows), each purchase as a claim on its order with its lines.
StoredCounts countPg(const std::string& databaseUrl) {
    auto connection = pg::connect(databaseUrl);
    StoredCounts counts;
    int64_t widgetEvents = pg::single(*connection, "SELECT coalesce(sum(views + clicks + add_to_carts), 0) FROM event_counts");
    int64_t interactions = pg::single(*connection, "SELECT count(*) FROM interactions");
    int64_t clicksAndCarts = pg::single(*connection, "SELECT coalesce(sum(clicks + add_to_carts), 0) FROM event_counts");
    if (interactions != clicksAndCarts) {
        throw StepFailure("PostgreSQL: " + std::to_string(interactions) + " interactions rows but " + std::to_string(clicksAndCarts) +
                          " clicks and add-to-carts counted");
    }
    counts.purchases = pg::single(*connection, "SELECT count(*) FROM order_claims");
    counts.events = widgetEvents + counts.purchases;
    counts.orders = pg::single(*connection, "SELECT count(DISTINCT order_id) FROM order_claims");
    counts.lines = pg::single(*connection, "SELECT count(*) FROM order_lines");
    return counts;
}

StoredCounts countSqlite(const std::string& eventsFile) {
    Db db(eventsFile, SQLITE_OPEN_READONLY);
    StoredCounts counts;
    counts.events = db.integer("SELECT count(*) FROM events");
    counts.purchases = db.integer("SELECT count(*) FROM events WHERE type = 'purchase'");
    counts.orders = db.integer("SELECT count(DISTINCT order_id) FROM events WHERE order_id IS NOT NULL");
    counts.lines = db.integer("SELECT count(*) FROM order_lines");
    return counts;
}

// ---------------------------------------------------------------------------------------------------------------

struct Options {
    int seconds = 10;
    int warmupSeconds = 2;
    int clients = 32;
    int addresses = 4;
    int clientThreads = 1;
    int svcThreads = 0;  // 0: clients x addresses + 16
    int batch = 10;
    bool idleFloor = false;
    bool keep = false;
    std::string server = std::string(SVC_BUILD_BIN_DIR) + "/svc-server";
    // PostgreSQL instead of SQLite: a server's URL, or the durable throwaway server (--postgres).
    std::string databaseUrl;
    bool throwawayPostgres = false;
    uint64_t floorEvents = 60000;  // at most, per PostgreSQL floor run
    bool postgres() const { return throwawayPostgres || !databaseUrl.empty(); }
};

void printHelp() {
    std::cout <<
        R"(bench-events: POST /events throughput and acknowledgement latency against the SQLite or PostgreSQL floor

Usage: bench-events [--seconds N] [--warmup N] [--clients N] [--addresses N] [--client-threads N] [--threads N]
                    [--batch N] [--idle-floor] [--keep] [--server PATH]
                    [--database-url URL | --postgres] [--floor-events N]

Creates a tenant in a fresh data directory in a temporary directory under /tmp, starts `svc-server serve` on it and,
in one run, for two request shapes (single: one event per request; beacon: {"events": [...]} of --batch widget
events, as the SDK sends them when a page is hidden; in both some requests carry a purchase with a unique order id):
  (b) POST /events with --clients concurrent clients (closed loop, keep-alive; a 2xx answer means committed)
                                   target: >= 20,000 events/s, >= 25% of (a), p99 acknowledgement latency < 20 ms
  (a) the floor: as many event rows of the same mix, inserted into SQLite directly (the events file's schema, WAL,
      synchronous=FULL, the server's INSERT statements) in transactions as large as the server's group commits in (b)
Then stops the server and checks that events.sqlite3 holds exactly the acknowledged events, purchases and order lines.
The server's events per commit are its own count (GET /metrics, svc_event_commit_batch_events).

On PostgreSQL (--database-url or --postgres) the server runs on a database of the run's own on that server (dropped
at the end), the check counts what PgEventStore keeps (view counters, interactions, claims, order lines), and the
floor is a bare INSERT loop on the same server (one INSERT per event and order line into a plain table, one
BEGIN/COMMIT per batch of the server's commit size)  target: (b) >= 50% of (a), durable (fsync on: printed).

The endpoint limits each client address to 100 requests/s and serve cannot change that, so every client sends from
--addresses loopback addresses (127.1.x.y) in turn; any 429 is reported (raise --addresses).

Options:
  --seconds N         length of each timed run (default 10)
  --warmup N          length of the warm-up run before each timed run, 0 for none (default 2)
  --clients N         concurrent clients, one request in flight each (default 32)
  --addresses N       source addresses (and keep-alive connections) per client (default 4)
  --client-threads N  threads running the clients (epoll, default 1)
  --threads N         svc-server worker threads, --threads of serve (default clients x addresses + 16, at most 512:
                      one per open connection)
  --batch N           widget events per beacon body, 2..100 (default 10)
  --idle-floor        run the floor without the SCHED_IDLE threads that keep the cores busy (by default they do,
                      as (b)'s load does: on a VM an fsync that lets the core idle can cost a host tick)
  --keep              keep the temporary directory (data dirs, every child's output)
  --server PATH       svc-server binary (default )"
              << SVC_BUILD_BIN_DIR << R"(/svc-server)
  --database-url URL  PostgreSQL instead of SQLite: a postgresql:// URL of a server whose role may create databases
  --postgres          PostgreSQL instead of SQLite: a throwaway server of the bench's own with fsync on (initdb and
                      postgres from /usr/lib/postgresql/*/bin, as the store tests start theirs)
  --floor-events N    rows per PostgreSQL floor run at most (default 60000; the SQLite floor inserts as many rows as
                      (b) acknowledged)
  --help              this text

Exit status: 0 when every step ran (PASS or FAIL is a measurement), 1 when a step failed to run (also when more than
0.1% of a run's requests are refused or unanswered, or the stored rows differ from the acknowledged events), 2 on a
bad command line.
)";
}

int parseOptions(int argc, char** argv, Options& options) {
    CommandLine args(argc, argv);
    while (args.next()) {
        if (args.isHelp()) {
            printHelp();
            return -1;
        } else if (args.isFlag("--keep")) {
            options.keep = true;
        } else if (args.isFlag("--idle-floor")) {
            options.idleFloor = true;
        } else if (args.is("--seconds")) {
            options.seconds = static_cast<int>(args.number(1, 3600));
        } else if (args.is("--warmup")) {
            options.warmupSeconds = static_cast<int>(args.number(0, 600));
        } else if (args.is("--clients")) {
            options.clients = static_cast<int>(args.number(1, 1000));
        } else if (args.is("--addresses")) {
            options.addresses = static_cast<int>(args.number(1, 64));
        } else if (args.is("--client-threads")) {
            options.clientThreads = static_cast<int>(args.number(1, 64));
        } else if (args.is("--threads")) {
            options.svcThreads = static_cast<int>(args.number(1, 512));
        } else if (args.is("--batch")) {
            options.batch = static_cast<int>(args.number(2, 100));
        } else if (args.is("--server")) {
            options.server = args.value();
        } else if (args.is("--database-url")) {
            options.databaseUrl = args.value();
        } else if (args.isFlag("--postgres")) {
            options.throwawayPostgres = true;
        } else if (args.is("--floor-events")) {
            options.floorEvents = static_cast<uint64_t>(args.number(1000, 100'000'000));
        } else {
            args.unknown();
        }
    }
    if (options.throwawayPostgres && !options.databaseUrl.empty()) throw std::invalid_argument("--postgres and --database-url exclude each other");
    if (options.clientThreads > options.clients) throw std::invalid_argument("--client-threads must be at most --clients");
    if (options.clients * options.addresses > 60000) throw std::invalid_argument("--clients x --addresses: at most 60000");
    int connections = options.clients * options.addresses;
    if (options.svcThreads == 0) options.svcThreads = std::min(512, connections + 16);
    if (options.svcThreads < connections) {
        throw std::invalid_argument("svc-server needs a worker thread per connection: --threads " +
                                    std::to_string(options.svcThreads) + " < --clients x --addresses = " +
                                    std::to_string(connections));
    }
    return 0;
}

struct ShapeRun {
    Shape shape;
    LoadResult timed;
    CommitCounts commits;  // the server's group commits during the timed run
    double serverCpuSeconds = 0;
    FloorResult floor;    // commits as large as the server's group commits in (b)
    FloorResult ceiling;  // commits of kCeilingCommitEvents (the server's largest group commit)
};

// EventWriterOptions::maxEventsPerCommit: the largest transaction the server's group commit forms.
constexpr size_t kCeilingCommitEvents = 4096;

int run(const Options& options) {
    TempDir temp = createTempDir("bench-events", options.keep);
    const std::string& dir = temp.path;
    std::vector<std::string> notes;
    std::string server = privateServerCopy(options.server, dir);

    // ---- PostgreSQL: the server given, or the durable throwaway one; a database of the run's own on it.
    std::string postgresServerUrl = options.databaseUrl;
    if (options.throwawayPostgres) {
        auto& throwaway = svc::test::ThrowawayPostgres::durable();
        if (!throwaway.url()) throw StepFailure("no throwaway PostgreSQL: " + throwaway.error());
        postgresServerUrl = *throwaway.url();
    }
    std::optional<RunDatabase> database;
    std::string postgresVersion, postgresDurability;
    if (options.postgres()) {
        database.emplace(postgresServerUrl);
        auto connection = pg::connect(database->url());
        postgresVersion = pg::setting(*connection, "server_version");
        postgresDurability = pg::durability(*connection);
    }
    std::vector<std::string> databaseArguments;
    if (database) databaseArguments = {"--database-url", database->url()};
    auto withDatabase = [&](std::vector<std::string> arguments) {
        arguments.insert(arguments.end(), databaseArguments.begin(), databaseArguments.end());
        return arguments;
    };

    // ---- Data: a fresh tenant for the server; on SQLite a second data dir whose (empty) events file the floor fills,
    // so the floor's schema is the server's own.
    std::cout << "bench-events: tenant create in " << dir << (database ? " on PostgreSQL " + postgresVersion + ", " + postgresDurability : "")
              << " ..." << std::flush;
    std::string dataDir = dir + "/data", floorDir = dir + "/floor";
    ChildRun created = runChild("tenant-create", withDatabase({server, "tenant", "create", "--data-dir", dataDir, "--name", "Bench Shop"}), dir);
    auto createdJson = json::parse(created.out, nullptr, false);
    if (createdJson.is_discarded() || !createdJson.contains("apiId") || !createdJson["apiId"].is_string()) {
        throw StepFailure("tenant create: no apiId in its output: " + lastLines(created.out, 5));
    }
    std::string apiId = createdJson["apiId"].get<std::string>();
    std::string eventsFile = dataDir + "/events.sqlite3", floorFile = floorDir + "/events.sqlite3";
    if (!database) {
        runChild("floor-tenant-create", {server, "tenant", "create", "--data-dir", floorDir, "--name", "Floor"}, dir);
        std::string schema = schemaOf(eventsFile);
        if (schema.find("CREATE TABLE events") == std::string::npos) throw StepFailure("no events table in " + eventsFile);
        if (schemaOf(floorFile) != schema) throw StepFailure("the floor's events file has another schema than the server's");
    }
    std::cout << " " << fixed(created.seconds, 1) << " s\n" << std::flush;

    // ---- svc-server.
    ServerProcess svc("bench-events", "svc-server",
                      withDatabase({server, "serve", "--data-dir", dataDir, "--listen", "127.0.0.1:0", "--threads",
                                    std::to_string(options.svcThreads)}),
                      dir, 10);
    int port = svc.awaitListening(15);

    std::vector<ShapeRun> runs;
    runs.emplace_back().shape = {"single", "1 event per request", 1, 2};
    runs.emplace_back().shape = {"beacon", "{\"events\": [" + std::to_string(options.batch) + " widget events]} per request",
                                 options.batch, 5};

    uint64_t ackedEvents = 0, ackedPurchases = 0, ackedLines = 0, duplicates = 0;
    uint64_t uncertainEvents = 0, uncertainPurchases = 0, uncertainLines = 0;
    auto account = [&](const LoadResult& result) {
        ackedEvents += result.events;
        ackedPurchases += result.purchases;
        ackedLines += result.lines;
        duplicates += result.duplicates;
        uncertainEvents += result.unansweredEvents;
        uncertainPurchases += result.unansweredPurchases;
        uncertainLines += result.unansweredLines;
    };
    auto checkRun = [&](const std::string& label, const LoadResult& result) {
        uint64_t total = result.requests + result.refused + result.unanswered;
        if (result.requests == 0) throw StepFailure(label + ": no request was acknowledged (" + result.firstRefusal + ")");
        if (static_cast<double>(result.refused + result.unanswered) > 0.001 * static_cast<double>(total)) {
            throw StepFailure(label + ": " + withThousands(result.refused) + " requests refused (" +
                              withThousands(result.status429) + " with 429) and " + withThousands(result.unanswered) +
                              " unanswered of " + withThousands(total) + " (more than 0.1%); first refusal: " +
                              result.firstRefusal + (result.status429 ? " (raise --addresses)" : ""));
        }
        if (result.refused + result.unanswered > 0) {
            notes.push_back(label + ": " + std::to_string(result.refused) + " requests refused (" +
                            std::to_string(result.status429) + " with 429), " + std::to_string(result.unanswered) +
                            " unanswered (within 0.1%); first refusal: " + result.firstRefusal);
        }
        if (result.duplicates > 0) notes.push_back(label + ": " + std::to_string(result.duplicates) + " duplicates acknowledged");
    };

    std::cout << "bench-events: " << options.clients << " clients x " << options.addresses << " source addresses, "
              << options.seconds << " s per run after a " << options.warmupSeconds << " s warm-up\n";
    uint32_t seed = 1;
    for (auto& shapeRun : runs) {
        LoadSettings settings;
        settings.port = port;
        settings.apiId = apiId;
        settings.shape = shapeRun.shape;
        settings.clients = options.clients;
        settings.addressesPerClient = options.addresses;
        settings.threads = options.clientThreads;
        std::string label = "(b) " + shapeRun.shape.name;
        std::cout << "  running " << label << " (" << shapeRun.shape.description << ") ..." << std::flush;
        if (options.warmupSeconds > 0) {
            settings.seconds = options.warmupSeconds;
            settings.seedBase = seed++;
            settings.orderPrefix = "w" + std::to_string(settings.seedBase) + "-";
            LoadResult warm = runLoad(settings);
            account(warm);
            checkRun(label + " warm-up", warm);
        }
        svc.checkAlive();
        settings.seconds = options.seconds;
        settings.seedBase = seed++;
        settings.orderPrefix = "t" + std::to_string(settings.seedBase) + "-";
        double cpuBefore = svc.cpuSeconds();
        CommitCounts commitsBefore = readCommits(port);
        shapeRun.timed = runLoad(settings);
        CommitCounts commitsAfter = readCommits(port);
        shapeRun.commits = {commitsAfter.events - commitsBefore.events, commitsAfter.commits - commitsBefore.commits};
        shapeRun.serverCpuSeconds = svc.cpuSeconds() - cpuBefore;
        svc.checkAlive();
        account(shapeRun.timed);
        checkRun(label, shapeRun.timed);
        std::cout << " " << withThousands(static_cast<uint64_t>(shapeRun.timed.events / shapeRun.timed.seconds + 0.5))
                  << " events/s\n" << std::flush;
        sleepMs(300);  // the server closes the finished run's connections before the next run opens its own
    }
    long serverThreads = svc.statusField("Threads:"), serverRssKiB = svc.statusField("VmHWM:");
    svc.stop();

    // ---- Stored = acknowledged, counted in the events file (or the database) after the server stopped.
    StoredCounts stored = database ? countPg(database->url()) : countSqlite(eventsFile);
    int64_t storedEvents = stored.events, storedPurchases = stored.purchases, storedLines = stored.lines, storedOrders = stored.orders;
    auto within = [](int64_t stored, uint64_t acked, uint64_t uncertain) {
        return stored >= static_cast<int64_t>(acked) && stored <= static_cast<int64_t>(acked + uncertain);
    };
    bool countsMatch = duplicates == 0 && within(storedEvents, ackedEvents, uncertainEvents) &&
                       within(storedPurchases, ackedPurchases, uncertainPurchases) &&
                       within(storedLines, ackedLines, uncertainLines) && storedOrders == storedPurchases;
    std::string countLine = std::string(database ? "PostgreSQL" : "events.sqlite3") + " after the server stopped: " + withThousands(static_cast<uint64_t>(storedEvents)) +
                            " events (" + withThousands(static_cast<uint64_t>(storedPurchases)) + " purchases, " +
                            withThousands(static_cast<uint64_t>(storedOrders)) + " distinct order ids, " +
                            withThousands(static_cast<uint64_t>(storedLines)) + " order lines); acknowledged " +
                            withThousands(ackedEvents) + " events (" + withThousands(ackedPurchases) + " purchases, " +
                            withThousands(ackedLines) + " order lines, " + std::to_string(duplicates) + " duplicates)" +
                            (uncertainEvents ? ", unanswered " + withThousands(uncertainEvents) : std::string());
    if (!countsMatch) throw StepFailure("stored rows differ from the acknowledged events: " + countLine);

    // ---- (a) the floor, per shape: as many rows as (b) acknowledged in its timed run, in commits as large as (b)'s.
    CoreWarmers warmers(!options.idleFloor);
    for (auto& shapeRun : runs) {
        const LoadResult& timed = shapeRun.timed;
        double eventsPerRequest = static_cast<double>(timed.events) / static_cast<double>(timed.requests);
        size_t commitEvents = 0;
        if (shapeRun.commits.commits > 0) {
            commitEvents = static_cast<size_t>(std::llround(shapeRun.commits.events / shapeRun.commits.commits));
        } else {
            commitEvents = static_cast<size_t>(std::llround(eventsPerRequest * options.clients));
        }
        commitEvents = std::max<size_t>(commitEvents, 1);
        uint64_t rows = database ? std::min(timed.events, options.floorEvents) : timed.events;
        auto floorRun = [&](size_t eventsPerCommit) {
            return database ? runPgFloor(database->url(), shapeRun.shape, rows, eventsPerCommit, 1000 + seed++)
                            : runFloor(floorFile, shapeRun.shape, rows, eventsPerCommit, 1000 + seed++);
        };
        std::cout << "  running (a) floor for " << shapeRun.shape.name << " (" << withThousands(rows)
                  << " rows, commits of " << commitEvents << ") ..." << std::flush;
        shapeRun.floor = floorRun(commitEvents);
        std::cout << " " << withThousands(static_cast<uint64_t>(shapeRun.floor.rows / shapeRun.floor.seconds + 0.5))
                  << " rows/s; commits of " << kCeilingCommitEvents << " ..." << std::flush;
        shapeRun.ceiling = floorRun(kCeilingCommitEvents);
        std::cout << " " << withThousands(static_cast<uint64_t>(shapeRun.ceiling.rows / shapeRun.ceiling.seconds + 0.5))
                  << " rows/s\n" << std::flush;
    }
    std::cout << "\n";

    // ---- The table.
    auto passFail = [](bool pass) { return pass ? "PASS" : "FAIL"; };
    auto ms = [](double value) { return fixed(value, value < 10 ? 2 : 1) + " ms"; };
    auto pct = [](double share) { return fixed(100.0 * share, share < 0.1 ? 1 : 0) + "%"; };
    auto perSecond = [](double value) { return withThousands(static_cast<uint64_t>(value + 0.5)); };
    const std::string floorName = database ? "PostgreSQL INSERT loop" : "SQLite direct";
    const size_t labelWidth = database ? 43 : 34;
    for (size_t i = 0; i < runs.size(); ++i) {
        const ShapeRun& r = runs[i];
        std::string n = std::to_string(i + 1);
        double floorRate = static_cast<double>(r.floor.rows) / r.floor.seconds;
        double eventRate = static_cast<double>(r.timed.events) / r.timed.seconds;
        double requestRate = static_cast<double>(r.timed.requests) / r.timed.seconds;
        double share = eventRate / floorRate;
        double p99 = percentileMs(r.timed.latencyUs, 99);
        double ceilingRate = static_cast<double>(r.ceiling.rows) / r.ceiling.seconds;
        std::cout << padRight("(a" + n + ") floor, " + floorName, labelWidth) << padLeft(perSecond(floorRate), 9)
                  << " rows/s     commits of " << r.floor.commitEvents << " events, as (b" << n << ")'s group commits\n";
        std::cout << padRight("(a" + n + "') " + floorName + ", big commits", labelWidth) << padLeft(perSecond(ceilingRate), 9)
                  << " rows/s     commits of " << kCeilingCommitEvents << " events (informational: (b" << n << ") = "
                  << pct(static_cast<double>(r.timed.events) / r.timed.seconds / ceilingRate) << " of it)\n";
        std::cout << padRight("(b" + n + ") POST /events, " + r.shape.name, labelWidth) << padLeft(perSecond(eventRate), 9)
                  << " events/s   " << padLeft(perSecond(requestRate), 7) << " req/s   = " << padRight(pct(share) + " of (a" + n + ")", 13)
                  << (database ? std::string(" target >= 50% ") + passFail(share >= 0.5)
                               : std::string(" target >= 20,000/s ") + passFail(eventRate >= 20000) + ", >= 25% " + passFail(share >= 0.25))
                  << "   p50 " << ms(percentileMs(r.timed.latencyUs, 50)) << "  p99 " << ms(p99) << "  target < 20 ms "
                  << passFail(p99 < 20.0) << "\n";
    }
    std::cout << "check: " << countLine << ": " << (countsMatch ? "equal" : "DIFFERENT") << "\n";

    std::cout << "\ndetails\n";
    for (size_t i = 0; i < runs.size(); ++i) {
        const ShapeRun& r = runs[i];
        const LoadResult& t = r.timed;
        std::string n = std::to_string(i + 1);
        double eventsPerRequest = static_cast<double>(t.events) / static_cast<double>(t.requests);
        std::cout << "  (b" << n << ") " << r.shape.name << ": " << r.shape.description << ", " << r.shape.purchasePercent
                  << "% of requests a purchase instead (1-3 lines); " << fixed(eventsPerRequest, 2) << " events and "
                  << withThousands(t.requestBytes / std::max<uint64_t>(1, t.requests + t.refused + t.unanswered))
                  << " bytes per request\n";
        std::cout << "       " << withThousands(t.requests) << " requests, " << withThousands(t.events) << " events ("
                  << withThousands(t.purchases) << " purchases) in " << fixed(t.seconds, 2) << " s; latency p50 "
                  << ms(percentileMs(t.latencyUs, 50)) << ", p90 " << ms(percentileMs(t.latencyUs, 90)) << ", p99 "
                  << ms(percentileMs(t.latencyUs, 99)) << ", p99.9 " << ms(percentileMs(t.latencyUs, 99.9)) << ", max "
                  << ms(t.latencyUs.empty() ? 0 : t.latencyUs.back() / 1000.0) << "\n";
        std::cout << "       server CPU " << fixed(100 * r.serverCpuSeconds / t.seconds, 0) << "% of a core ("
                  << fixed(1e6 * r.serverCpuSeconds / static_cast<double>(t.events), 1) << " us/event, "
                  << fixed(1e6 * r.serverCpuSeconds / static_cast<double>(t.requests), 0) << " us/request); client CPU "
                  << fixed(100 * t.clientCpuSeconds / t.seconds, 0) << "% of a core ("
                  << options.clientThreads << " thread" << (options.clientThreads > 1 ? "s" : "") << ")\n";
        double commits = std::max(1.0, r.commits.commits);
        std::cout << "       group commit: " << withThousands(static_cast<uint64_t>(r.commits.commits)) << " commits of the server's "
                  << "event writer (its /metrics), " << fixed(r.commits.events / commits, 1) << " events ("
                  << fixed(static_cast<double>(t.requests) / commits, 1) << " requests) per commit\n";
        std::cout << "       connections: " << options.clients * options.addresses << " opened before the run ("
                  << fixed(t.connectSeconds, 2) << " s), " << withThousands(t.connects) << " reopened during it, "
                  << withThousands(t.serverCloses) << " closed by the server\n";
        for (const FloorResult* f : {&r.floor, &r.ceiling}) {
            std::cout << "  (a" << n << (f == &r.ceiling ? "')" : ") ") << withThousands(f->rows) << " rows ("
                      << withThousands(f->purchases) << " purchases, " << withThousands(f->lines) << " order lines) in "
                      << withThousands(f->commits) << " transactions of up to " << f->commitEvents << ": "
                      << fixed(f->seconds, 2) << " s inside BEGIN..COMMIT, "
                      << fixed(1000 * f->seconds / static_cast<double>(f->commits), 2) << " ms per commit; bench CPU "
                      << fixed(f->cpuSeconds, 2) << " s\n";
        }
    }
    std::cout << "  svc-server: " << options.server << " (run as a copy made at the start), serve --threads "
              << options.svcThreads << " (" << serverThreads << " threads at the end), peak RSS " << serverRssKiB / 1024
              << " MiB; data in " << (database ? "PostgreSQL " + postgresVersion + " (" + postgresDurability + "), database " + database->url()
                                                : dir + " (" + fs::path(dir).root_path().string() + " of the same disk for (a) and (b))")
              << "\n";
    std::cout << "  clients: " << options.clients << " concurrent, one request in flight each, keep-alive, each cycling "
              << "through " << options.addresses << " connections from its own loopback addresses (127.1.x.y: the "
              << "endpoint's 100 req/s per address limit stays on, as in production, and never refuses them); sendBeacon-like "
                 "requests (text/plain, ?apiId=, browser headers); latency = send to complete answer\n";
    if (database) {
        std::cout << "  floor: one connection to the same PostgreSQL, one INSERT per event and order line into a plain table of "
                     "every event's columns (bigserial key), BEGIN/COMMIT per transaction, events generated outside the clock, at most "
                  << withThousands(options.floorEvents) << " rows per run; ";
    } else {
        std::cout << "  floor: the events file made by svc-server (same schema, checked), WAL, synchronous=FULL, "
                     "foreign_keys=ON, the server's INSERT statements prepared once, one thread, BEGIN IMMEDIATE/COMMIT per "
                     "transaction, events generated outside the clock; ";
    }
    std::cout
              << (options.idleFloor ? "cores left to idle (--idle-floor)"
                                    : "cores kept busy by SCHED_IDLE threads (an fsync on an idle vCPU waits for a host tick)")
              << "\n";
    std::cout << "  machine: " << std::thread::hardware_concurrency()
              << " cores shared by the clients and the server under test\n";
    for (const auto& note : notes) std::cout << "  note: " << note << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::benchMain<Options>("bench-events", argc, argv, parseOptions, run); }
