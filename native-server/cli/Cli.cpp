#include "cli/Cli.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "app/BuildInfo.hpp"
#include "cli/BackupCommands.hpp"
#include "cli/ConfigurationSources.hpp"
#include "cli/ContentLearningCli.hpp"
#include "cli/ContentSetCommands.hpp"
#include "cli/DemoCommands.hpp"
#include "cli/FeedCommands.hpp"
#include "cli/MigrationCommands.hpp"
#include "cli/OperatorCli.hpp"
#include "cli/OperatorKeyCommands.hpp"
#include "cli/ReportCommands.hpp"
#include "cli/ServeCommand.hpp"
#include "cli/TenantCommands.hpp"

namespace svc {
namespace {

std::string defaultAssetsDir() {
    std::error_code error;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) return "share/svc";
    return (exe.parent_path().parent_path() / "share" / "svc").string();
}

}  // namespace

int runCli(int argc, char** argv) {
    CLI::App app{"svc-server: product-recommendation widgets, feeds, GraphQL and tracking for online shops"};
    const BuildInfo& build = buildInfo();
    app.set_version_flag("--version", "svc-server " + build.version + " (commit " + build.commit + ", " + build.date + ")",
                         "Print the version, the commit and its date, then exit");
    app.require_subcommand(1);

    // Each group adds its subcommands; the order is the order of `svc-server --help`.
    std::string assetsDir = defaultAssetsDir();
    std::vector<std::unique_ptr<CliCommand>> commands;
    auto serve = std::make_unique<ServeCommand>(app, assetsDir);
    // Every serve option also from SVC_* variables and a --config file (docs/operations.md, Configuration).
    ConfigurationSources::enable(app, serve->command());
    commands.push_back(std::move(serve));
    commands.push_back(std::make_unique<OperatorCli>(app));
    commands.push_back(std::make_unique<ContentLearningCli>(app));
    commands.push_back(std::make_unique<BackupCommands>(app));
    commands.push_back(std::make_unique<MigrationCommands>(app));
    commands.push_back(std::make_unique<TenantCommands>(app));
    commands.push_back(std::make_unique<ReportCommands>(app));
    commands.push_back(std::make_unique<FeedCommands>(app));
    commands.push_back(std::make_unique<DemoCommands>(app, assetsDir));
    commands.push_back(std::make_unique<ContentSetCommands>(app));
    commands.push_back(std::make_unique<OperatorKeyCommands>(app));

    try {
        // CLI11 takes a vector in reverse order, without the program's name.
        auto arguments = ConfigurationSources::normalized(argc, argv);
        arguments.erase(arguments.begin());
        std::reverse(arguments.begin(), arguments.end());
        app.parse(arguments);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : 2;
    }

    for (const auto& command : commands) {
        if (command->parsed()) return command->run();
    }
    return 2;
}

}  // namespace svc
