#include "cli/DemoCommands.hpp"

#include "app/DemoSetup.hpp"
#include "cli/CliOutput.hpp"
#include "cli/DataDirContext.hpp"
#include "cli/DatabaseUrlOption.hpp"

namespace svc {

DemoCommands::DemoCommands(CLI::App& app, const std::string& defaultAssetsDir) : assetsDir_(defaultAssetsDir) {
    auto* demo = app.add_subcommand("demo", "The demo shop");
    demo->require_subcommand(1);
    setup_ = demo->add_subcommand("setup", "Create the demo tenant, generate the demo catalog and import it");
    setup_->add_option("--data-dir", dataDir_, "Data directory (the demo shop's pages and pictures are written here)")->required();
    DatabaseUrlOption::addTo(*setup_, databaseUrl_);
    setup_->add_option("--assets-dir", assetsDir_, "Directory with content-pool/ (the default set templates)")->capture_default_str();
}

bool DemoCommands::parsed() const { return setup_->parsed(); }

int DemoCommands::run() {
    auto context = DataDirContext::open(dataDir_, databaseUrl_);
    if (!context) return CliOutput::fail(context.error());
    auto result = setupDemo(*context->storage, *context->imports, dataDir_, assetsDir_ + "/content-pool/fashion.json");
    if (!result) return CliOutput::fail(result.error());
    CliOutput::print({{"apiId", result->apiId},
                      {"firstSku", result->firstSku},
                      {"import",
                       {{"rowsRead", result->report.rowsRead},
                        {"inserted", result->report.counts.inserted},
                        {"updated", result->report.counts.updated},
                        {"unchanged", result->report.counts.unchanged},
                        {"rejected", result->report.rejected},
                        {"markedDeleted", result->report.counts.markedDeleted}}}});
    return 0;
}

}  // namespace svc
