#pragma once
// `svc-server backup --data-dir D --to DIR [--verify]` and `svc-server restore --from DIR --data-dir D`
// (docs/adr/0063, docs/operations.md "Backups"): an online copy of everything svc needs, and the
// way back into a new data dir. Same conventions as the other commands: options named in every
// refusal, JSON on stdout, exit code 0 success, 1 failure.
#include <string>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"

namespace svc {

class BackupCommands : public CliCommand {
public:
    explicit BackupCommands(CLI::App& app);
    bool parsed() const override;
    int run() override;

private:
    CLI::App* backup_ = nullptr;
    CLI::App* restore_ = nullptr;
    std::string dataDir_;
    std::string backupDir_;
    bool verifyOnly_ = false;
};

}  // namespace svc
