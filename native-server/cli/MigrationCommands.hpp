#pragma once
// `svc-server migrate --data-dir D [--check]` (docs/adr/0067, docs/operations.md "Upgrades"):
// which migrations of which database an upgrade applies, and applying them before `serve`
// starts. JSON on stdout. Exit codes: 0 up to date (or, without --check, migrated), 1 failure
// (a database newer than this binary is one, named), 2 a wrong command line,
// 4 (--check only) migrations are pending.
#include <string>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"

namespace svc {

class MigrationCommands : public CliCommand {
public:
    static constexpr int kPendingExitCode = 4;

    explicit MigrationCommands(CLI::App& app);
    bool parsed() const override;
    int run() override;

private:
    CLI::App* migrate_ = nullptr;
    std::string dataDir_;
    bool checkOnly_ = false;
};

}  // namespace svc
