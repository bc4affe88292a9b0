#include "cli/ServeLoggingCli.hpp"

#include "log/Log.hpp"

namespace svc {

void ServeLoggingCli::addTo(CLI::App& serve) {
    serve.add_option("--trusted-proxy", trustedProxies_,
                     "A reverse proxy's address or network (repeatable): only from these peers are X-Forwarded-For, "
                     "X-Forwarded-Proto, Forwarded and X-Request-Id believed; rate limits and sign-in lock-out then count the "
                     "client they name (docs/adr/0069)");
    serve.add_option("--log-level", level_, "Least important log entries written: debug, info, warn or error")
        ->check(CLI::IsMember({"debug", "info", "warn", "error"}))
        ->capture_default_str();
    serve.add_option("--log-format", format_, "Log lines on stderr as text, or json (one object a line: time, level, message, "
                                              "request_id, tenant)")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
    serve.add_option("--access-log", accessLog_, "One entry per answered request: - for the log (stderr), or a file appended to");
}

Status ServeLoggingCli::applyToLog() const {
    Log::configure(parseLogLevel(level_).value_or(LogLevel::Info), parseLogFormat(format_).value_or(LogFormat::Text));
    return Log::openAccessLog(accessLog_);
}

}  // namespace svc
