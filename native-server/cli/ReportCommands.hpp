#pragma once
// `svc-server report summary|ledger`: commission reports of what the server booked.
#include <string>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"

namespace svc {

class ReportCommands : public CliCommand {
public:
    explicit ReportCommands(CLI::App& app);
    bool parsed() const override;
    int run() override;

private:
    CLI::App* summary_ = nullptr;
    CLI::App* ledger_ = nullptr;
    std::string dataDir_;
    std::string databaseUrl_;  // --database-url: the stores in PostgreSQL
    std::string apiId_;
    std::string from_;
    std::string to_;
};

}  // namespace svc
