#pragma once
// Up to where a tenant's recommendations have learned from its orders, asked of the running
// server (the figure lives in its memory; docs/adr/0074):
//   svc-server content status --api-id ID --server http://127.0.0.1:8080 [--learn]
// The operator key comes from SVC_OPERATOR_KEY, never from an option (options show in `ps`).
// --learn makes the server learn every stored purchase first and answers when it has: the way
// a script waits for learning.
#include <string>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"

namespace svc {

class ContentLearningCli : public CliCommand {
public:
    explicit ContentLearningCli(CLI::App& app);
    bool parsed() const override;
    int run() override;

private:
    CLI::App* status_ = nullptr;
    std::string apiId_;
    std::string server_;
    bool learn_ = false;
};

}  // namespace svc
