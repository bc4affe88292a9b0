#pragma once
// `svc-server operator-key create|list|delete`: keys for the operator's HTTP endpoints
// (Authorization: Bearer <key>); a key is printed once, only its hash is stored.
#include <string>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"

namespace svc {

class OperatorKeyCommands : public CliCommand {
public:
    explicit OperatorKeyCommands(CLI::App& app);
    bool parsed() const override;
    int run() override;

private:
    CLI::App* create_ = nullptr;
    CLI::App* list_ = nullptr;
    CLI::App* delete_ = nullptr;
    std::string dataDir_;
    std::string databaseUrl_;  // --database-url: the stores in PostgreSQL
    std::string name_;
};

}  // namespace svc
