#pragma once
// The server's log (docs/adr/0069): one line per entry on stderr (journald keeps it under
// systemd), as text or as one JSON object a line, each with its time, level, message, and the
// request id and tenant when known; an optional access log of one entry per request.
// Messages may carry text from outside (a tenant's CSS, a feed's error, a request path): text
// lines escape control characters, so nobody can forge a line. Secrets never reach it: callers
// pass no credentials, and request entries carry the path without its query.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.hpp"

namespace svc {

enum class LogLevel { Debug, Info, Warn, Error };
enum class LogFormat { Text, Json };

std::optional<LogLevel> parseLogLevel(std::string_view text);    // debug, info, warn, error
std::optional<LogFormat> parseLogFormat(std::string_view text);  // text, json

// One answered request, for the access log.
struct AccessEntry {
    std::string method;  // from a fixed set (Metrics' routeLabel), never the raw token
    std::string path;    // without the query string
    int status = 0;
    double seconds = 0;
    size_t bytes = 0;
    std::string client;  // the real client address (behind a trusted proxy: the one it names)
};

class Log {
public:
    static void configure(LogLevel level, LogFormat format);
    // "": off; "-": the access entries go to the log (stderr); else a file, appended to (0600).
    static Status openAccessLog(const std::string& destination);
    static bool enabled(LogLevel level);

    static void write(LogLevel level, std::string_view message, std::string_view tenant = {});
    static void debug(std::string_view message, std::string_view tenant = {}) { write(LogLevel::Debug, message, tenant); }
    static void info(std::string_view message, std::string_view tenant = {}) { write(LogLevel::Info, message, tenant); }
    static void warn(std::string_view message, std::string_view tenant = {}) { write(LogLevel::Warn, message, tenant); }
    static void error(std::string_view message, std::string_view tenant = {}) { write(LogLevel::Error, message, tenant); }
    static void access(const AccessEntry& entry);

    // Lines go to `sink` instead of stderr (nullptr: stderr again): tests read what was logged.
    static void divert(std::function<void(std::string_view line)> sink);

    // The request this thread is serving: its id goes into every line written meanwhile. Set by
    // the HTTP layer when a request starts, cleared when its answer is written.
    static void setRequestId(std::string requestId);
    static const std::string& requestId();
};

}  // namespace svc
