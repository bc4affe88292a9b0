#pragma once
// `svc-server serve`: every serve option (each also from SVC_* and --config FILE, through
// ConfigurationSources) and the server's lifecycle: signals, drain, stop.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"
#include "cli/ConnectionLimitsCli.hpp"
#include "cli/ServeLoggingCli.hpp"
#include "http/ApiServer.hpp"

namespace svc {

class ServeCommand : public CliCommand {
public:
    ServeCommand(CLI::App& app, const std::string& defaultAssetsDir);
    bool parsed() const override;
    int run() override;
    // The serve subcommand, whose options ConfigurationSources also reads from SVC_* and --config.
    CLI::App& command() { return *serve_; }

private:
    // Purchases per minute per client address and per hour per visitor (docs/adr/0056); 0: off.
    struct PurchaseRateLimits {
        double perAddressPerMinute = 60;
        double perVisitorPerHour = 20;
    };

    CLI::App* serve_ = nullptr;
    std::string dataDir_;
    std::string databaseUrl_;  // --database-url: the stores in PostgreSQL
    std::string listen_ = "127.0.0.1:8080";
    std::string assetsDir_;
    int threads_ = 64;
    double eventsRateLimit_ = 100;
    PurchaseRateLimits purchases_;
    std::vector<std::string> outboundAllow_;
    int purchaseLearningSeconds_ = 60;
    int contentPollSeconds_ = 2;
    bool noImageBot_ = false;
    std::string imageBotInfoUrl_;
    std::string publicUrl_;
    OperatorConsoleOptions console_;
    GraphqlRouteOptions graphql_;
    int64_t graphqlDeadlineMs_ = 0;
    std::string metricsListen_;
    std::string blobUrl_;
    S3Credentials blobCredentials_;
    ConnectionLimitsCli connectionLimits_;
    ServeLoggingCli logging_;
    double drainSeconds_ = 0;
};

}  // namespace svc
