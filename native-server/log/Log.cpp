#include "log/Log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include <nlohmann/json.hpp>

namespace svc {
namespace {

std::atomic<LogLevel> configuredLevel{LogLevel::Info};
std::atomic<LogFormat> configuredFormat{LogFormat::Text};
std::mutex writing;  // whole lines: threads never interleave inside one
int accessFd = -1;   // -1: off; 2: stderr
thread_local std::string currentRequestId;
std::function<void(std::string_view)> diverted;  // guarded by `writing`

const char* levelName(LogLevel level) {
    switch (level) {
        case LogLevel::Debug: return "debug";
        case LogLevel::Info: return "info";
        case LogLevel::Warn: return "warn";
        case LogLevel::Error: return "error";
    }
    return "info";
}

std::string timestamp() {
    auto now = std::chrono::system_clock::now();
    auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[40];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                  utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
    return text;
}

// Control characters as \n, \r, \t or \xNN, and the backslash doubled: one entry, one line.
void appendEscaped(std::string& out, std::string_view text) {
    for (unsigned char c : text) {
        if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c < 0x20 || c == 0x7f) {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else {
            out += static_cast<char>(c);
        }
    }
}

std::string dumpJson(const nlohmann::json& entry) { return entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

void writeLine(int fd, std::string line) {
    line += '\n';
    std::lock_guard<std::mutex> lock(writing);
    if (diverted && fd == 2) return diverted(line);
    size_t written = 0;
    while (written < line.size()) {
        ssize_t n = ::write(fd, line.data() + written, line.size() - written);
        if (n <= 0) return;  // a log that cannot be written must not stop the service
        written += static_cast<size_t>(n);
    }
}

std::string formatLine(LogLevel level, std::string_view message, std::string_view tenant, const nlohmann::json* fields) {
    if (configuredFormat.load() == LogFormat::Json) {
        nlohmann::json entry{{"time", timestamp()}, {"level", levelName(level)}, {"message", message}};
        if (!currentRequestId.empty()) entry["request_id"] = currentRequestId;
        if (!tenant.empty()) entry["tenant"] = tenant;
        if (fields) entry.update(*fields);
        return dumpJson(entry);
    }
    std::string line = timestamp() + " " + levelName(level);
    if (!currentRequestId.empty()) line += " request=" + currentRequestId;
    if (!tenant.empty()) {
        line += " tenant=";
        appendEscaped(line, tenant);
    }
    line += " ";
    appendEscaped(line, message);
    return line;
}

}  // namespace

std::optional<LogLevel> parseLogLevel(std::string_view text) {
    if (text == "debug") return LogLevel::Debug;
    if (text == "info") return LogLevel::Info;
    if (text == "warn") return LogLevel::Warn;
    if (text == "error") return LogLevel::Error;
    return std::nullopt;
}

std::optional<LogFormat> parseLogFormat(std::string_view text) {
    if (text == "text") return LogFormat::Text;
    if (text == "json") return LogFormat::Json;
    return std::nullopt;
}

void Log::configure(LogLevel level, LogFormat format) {
    configuredLevel = level;
    configuredFormat = format;
}

Status Log::openAccessLog(const std::string& destination) {
    std::lock_guard<std::mutex> lock(writing);
    if (accessFd > 2) ::close(accessFd);
    accessFd = -1;
    if (destination.empty()) return {};
    if (destination == "-") {
        accessFd = 2;
        return {};
    }
    int fd = ::open(destination.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return Error::invalidArgument("--access-log: cannot open " + destination + " for appending");
    accessFd = fd;
    return {};
}

bool Log::enabled(LogLevel level) { return level >= configuredLevel.load(); }

void Log::write(LogLevel level, std::string_view message, std::string_view tenant) {
    if (!enabled(level)) return;
    writeLine(2, formatLine(level, message, tenant, nullptr));
}

void Log::access(const AccessEntry& entry) {
    int fd;
    {
        std::lock_guard<std::mutex> lock(writing);
        fd = accessFd;
    }
    if (fd < 0) return;
    std::string line;
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.3f", entry.seconds * 1000);
    if (configuredFormat.load() == LogFormat::Json) {
        nlohmann::json fields{{"method", entry.method}, {"path", entry.path},  {"status", entry.status},
                              {"duration_ms", std::stod(duration)}, {"bytes", entry.bytes}, {"client", entry.client}};
        line = formatLine(LogLevel::Info, "request", {}, &fields);
    } else {
        std::string message = entry.method + " ";
        message += entry.path;
        message += " " + std::to_string(entry.status) + " " + duration + " ms " + std::to_string(entry.bytes) + " B client=" + entry.client;
        line = formatLine(LogLevel::Info, message, {}, nullptr);
    }
    writeLine(fd, std::move(line));
}

void Log::divert(std::function<void(std::string_view line)> sink) {
    std::lock_guard<std::mutex> lock(writing);
    diverted = std::move(sink);
}

void Log::setRequestId(std::string requestId) { currentRequestId = std::move(requestId); }

const std::string& Log::requestId() { return currentRequestId; }

}  // namespace svc
