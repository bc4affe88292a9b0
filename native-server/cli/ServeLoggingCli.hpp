#pragma once
// The options of `svc-server serve` about who its clients are and what it logs (docs/adr/0069):
// --trusted-proxy, --log-level, --log-format and --access-log.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "core/Result.hpp"
#include "net/TrustedProxies.hpp"

namespace svc {

class ServeLoggingCli {
public:
    void addTo(CLI::App& serve);
    // Configures the process's log and opens the access log; the error names the option.
    Status applyToLog() const;
    Result<TrustedProxies> trustedProxies() const { return TrustedProxies::parse(trustedProxies_); }

private:
    std::vector<std::string> trustedProxies_;
    std::string level_ = "info";
    std::string format_ = "text";
    std::string accessLog_;
};

}  // namespace svc
