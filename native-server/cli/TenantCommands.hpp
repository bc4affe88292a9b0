#pragma once
// `svc-server tenant create|configure|widgets|texts`: tenants (shops) and their settings.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"
#include "cli/TenantWidgetsCli.hpp"
#include "tenant/TenantSettingsCommand.hpp"

namespace svc {

class TenantCommands : public CliCommand {
public:
    explicit TenantCommands(CLI::App& app);
    bool parsed() const override;
    int run() override;

private:
    int create();
    int configure();
    TenantSettingsChange settingsChange() const;
    Result<std::string> commissionRates(const Tenant& tenant) const;

    CLI::App* create_ = nullptr;
    CLI::App* configure_ = nullptr;
    TenantWidgetsCli widgets_;
    std::string dataDir_;
    std::string databaseUrl_;  // --database-url: the stores in PostgreSQL
    std::string apiId_;
    std::string name_;
    std::optional<double> maxDeleteShare_;
    std::optional<std::string> currency_;
    std::optional<int64_t> windowDays_;
    std::optional<std::string> commissionRate_;
    std::vector<std::string> widgetRates_;
};

}  // namespace svc
