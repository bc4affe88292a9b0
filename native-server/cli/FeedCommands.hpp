#pragma once
// `svc-server feed import|validate|history|show|confirm|discard` and `feed source ...`
// (FeedSourceCommands): a tenant's feed files, their import history and held imports.
// Import exit codes: 0 applied, 1 failed, 3 held for confirmation.
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"
#include "cli/FeedSourceCommands.hpp"
#include "feed/FeedParser.hpp"

namespace svc {

struct DataDirContext;

class FeedCommands : public CliCommand {
public:
    explicit FeedCommands(CLI::App& app);
    bool parsed() const override;
    int run() override;

private:
    int importOrValidate(DataDirContext& context);
    int history(DataDirContext& context);
    int oneImport(DataDirContext& context);

    CLI::App* import_ = nullptr;
    CLI::App* validate_ = nullptr;
    CLI::App* history_ = nullptr;
    CLI::App* show_ = nullptr;
    CLI::App* confirm_ = nullptr;
    CLI::App* discard_ = nullptr;
    std::unique_ptr<FeedSourceCommands> sources_;
    std::string dataDir_;
    std::string databaseUrl_;  // --database-url: the stores in PostgreSQL
    std::string apiId_;
    std::string file_;
    FeedImportOptions options_;
    std::string delimiter_ = ";";
    bool force_ = false;
    int64_t importId_ = 0;
    size_t historyLimit_ = 20;
    std::string feedName_ = "default";
    std::string historyFeed_;
};

}  // namespace svc
