#pragma once
// One group of svc-server's subcommands (serve, tenant, feed, ...). Its constructor adds the
// subcommands and their options to the command line; runCli parses once and runs the group
// whose subcommand was given. Conventions every group keeps: options named in every refusal,
// JSON on stdout, exit code 0 success, 1 failure, 2 a wrong command line (CLI11's).

namespace svc {

class CliCommand {
public:
    virtual ~CliCommand() = default;
    virtual bool parsed() const = 0;
    // Runs the parsed subcommand; the process exit code.
    virtual int run() = 0;
};

}  // namespace svc
