#pragma once
// `svc-server demo setup`: the demo tenant, its generated catalog and the default set templates.
#include <string>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"

namespace svc {

class DemoCommands : public CliCommand {
public:
    DemoCommands(CLI::App& app, const std::string& defaultAssetsDir);
    bool parsed() const override;
    int run() override;

private:
    CLI::App* setup_ = nullptr;
    std::string dataDir_;
    std::string databaseUrl_;  // --database-url: the stores in PostgreSQL
    std::string assetsDir_;
};

}  // namespace svc
