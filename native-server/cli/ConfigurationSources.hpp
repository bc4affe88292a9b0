#pragma once
// Where `serve`'s options come from besides the command line (docs/operations.md,
// "Configuration"): a TOML file given by `--config FILE` (its [serve] section, option names
// without the dashes) and SVC_* environment variables (SVC_ and the long name in capitals with
// underscores: --events-rate-limit is SVC_EVENTS_RATE_LIMIT). Precedence, highest first:
// the command line, the environment, the file, the built-in default. An unknown name in the file
// is an error naming it, so a typo never silently leaves a default in force.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace svc {

class ConfigurationSources {
public:
    // Call after every option of `serve` is defined: gives each its environment variable and
    // makes `--config` read the file.
    static void enable(CLI::App& app, CLI::App& serve);

    // The environment variable of a long option name ("events-rate-limit" -> SVC_EVENTS_RATE_LIMIT).
    static std::string environmentName(const std::string& longName);

    // `svc-server serve --config FILE ...` as well as `svc-server --config FILE serve ...`:
    // CLI11 reads the file as an option of the top command, so a --config given after `serve` is
    // moved in front of it.
    static std::vector<std::string> normalized(int argc, char** argv);
};

}  // namespace svc
