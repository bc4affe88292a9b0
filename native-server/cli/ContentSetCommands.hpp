#pragma once
// `svc-server sets import|list|delete` (a tenant's custom and photo sets) and
// `svc-server content-pool import|list|delete` (the operator's templates, shared by every tenant).
#include <string>

#include <CLI/CLI.hpp>

#include "cli/CliCommand.hpp"

namespace svc {

struct DataDirContext;

class ContentSetCommands : public CliCommand {
public:
    explicit ContentSetCommands(CLI::App& app);
    bool parsed() const override;
    int run() override;

private:
    int importFile(DataDirContext& context);
    int tenantSets(DataDirContext& context);
    int templates(DataDirContext& context);

    CLI::App* setsImport_ = nullptr;
    CLI::App* setsList_ = nullptr;
    CLI::App* setsDelete_ = nullptr;
    CLI::App* poolImport_ = nullptr;
    CLI::App* poolList_ = nullptr;
    CLI::App* poolDelete_ = nullptr;
    std::string dataDir_;
    std::string databaseUrl_;  // --database-url: the stores in PostgreSQL
    std::string apiId_;
    std::string file_;
    std::string id_;
    std::string kind_ = "custom";
};

}  // namespace svc
