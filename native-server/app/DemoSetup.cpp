#include "app/DemoSetup.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "demo/DemoCatalogGenerator.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

Result<DemoSetupResult> setupDemo(SqliteStorage& storage, FeedImportService& imports, const std::string& dataDir) {
    namespace fs = std::filesystem;
    fs::path demoDir = fs::path(dataDir) / "demo";
    fs::path tenantFile = demoDir / "tenant.json";
    TenantService tenants(storage.tenants());

    std::optional<Tenant> tenant;
    if (std::ifstream in(tenantFile); in) {
        std::stringstream text;
        text << in.rdbuf();
        auto json = nlohmann::json::parse(text.str(), nullptr, false);
        if (json.is_object() && json.contains("apiId") && json["apiId"].is_string()) {
            auto found = tenants.findByApiId(json["apiId"].get<std::string>());
            if (!found) return found.error();
            tenant = *found;
        }
    }
    if (!tenant) {
        auto created = tenants.create("Demo Shop");
        if (!created) return created.error();
        tenant = created->tenant;
    }

    DemoCatalogGenerator generator;
    auto summary = generator.generate(demoDir.string());
    if (!summary) return summary.error();
    auto outcome = imports.importFile(*tenant, summary->feedPath, FeedImportOptions{}, "demo");
    if (!outcome) return outcome.error();
    if (outcome->record.status != ImportStatus::Applied) return Error::internal("demo import: " + outcome->record.message);

    std::ofstream out(tenantFile, std::ios::trunc);
    out << nlohmann::json{{"apiId", tenant->apiId}, {"name", tenant->name}}.dump(2) << "\n";
    if (!out) return Error::unavailable("cannot write " + tenantFile.string());
    return DemoSetupResult{tenant->apiId, summary->firstSku, outcome->report};
}

}  // namespace svc
