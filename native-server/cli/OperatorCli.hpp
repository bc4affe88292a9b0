#pragma once
// The first operator account (and any later one) for the console (docs/operations.md, Console):
//   svc-server operator create --data-dir DIR --email ops@example.com
// The password comes from SVC_OPERATOR_PASSWORD or standard input (not echoed on a terminal),
// never from an option: options show up in `ps` and shell histories.
#include <string>

#include <CLI/CLI.hpp>

namespace svc {

class OperatorCli {
public:
    void addTo(CLI::App& app, std::string& dataDir);
    bool parsed() const;
    int run(const std::string& dataDir);

private:
    CLI::App* create_ = nullptr;
    std::string email_;
};

}  // namespace svc
