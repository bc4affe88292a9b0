#pragma once
// `svc-server feed source add|list|remove|run`: the operator's pull sources (spec endpoint 3).
// Kept apart from Cli.cpp so the feed commands stay readable; same conventions: options named
// in every refusal, JSON on stdout, exit code 0 success, 1 failure.
#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"

#include <optional>
#include <string>
#include <vector>

namespace svc {

class FeedSourceCommands : public CliCommand {
public:
    // Adds `source` and its subcommands to the `feed` command.
    explicit FeedSourceCommands(CLI::App& feedCommand);
    bool parsed() const override;
    int run() override;

private:
    int add();
    int list();
    int remove();
    int pullNow();

    CLI::App* add_ = nullptr;
    CLI::App* list_ = nullptr;
    CLI::App* remove_ = nullptr;
    CLI::App* run_ = nullptr;
    std::string dataDir_;
    std::string databaseUrl_;  // --database-url: the stores in PostgreSQL
    std::string apiId_;
    std::string feed_ = "default";
    std::string url_;
    std::optional<std::string> every_;
    bool delta_ = false;
    std::string identifier_ = "sku";
    std::string delimiter_ = ";";
    std::string username_;
    std::string passwordEnv_;
    std::string hostKey_;
    std::string privateKeyFile_;
    std::vector<std::string> allowList_;
};

}  // namespace svc
