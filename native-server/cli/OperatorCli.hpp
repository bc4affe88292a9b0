#pragma once
// The first operator account (and any later one) for the console (docs/operations.md, Console):
//   svc-server operator create --data-dir DIR --email ops@example.com
// The password comes from SVC_OPERATOR_PASSWORD or standard input (not echoed on a terminal),
// never from an option: options show up in `ps` and shell histories.
//   svc-server operator password --data-dir DIR --email ops@example.com
// sets a new password the same way (a forgotten one, or after a lock-out): every session of the
// account ends and the lock-out is cleared (docs/adr/0050).
#include <string>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"

namespace svc {

class OperatorCli : public CliCommand {
public:
    explicit OperatorCli(CLI::App& app);
    bool parsed() const override;
    int run() override;

private:
    CLI::App* create_ = nullptr;
    CLI::App* password_ = nullptr;
    std::string dataDir_;
    std::string databaseUrl_;  // --database-url: the stores in PostgreSQL
    std::string email_;
};

}  // namespace svc
