#include "app/DemoSetup.hpp"

#include <map>
#include <vector>

#include "sets/SetJson.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "demo/DemoCatalogGenerator.hpp"
#include "store/PrivateFiles.hpp"
#include "tenant/TenantService.hpp"
#include "text/BoundedJson.hpp"

namespace svc {

namespace {

// Custom sets of the demo: one look per department, made of the first article of each
// category listed (the generated catalog always has them), plus photo sets tagged for
// the landing pages.
Status addDemoSets(Storage& storage, const Tenant& tenant) {
    struct Look {
        const char* id;
        const char* title;
        const char* description;
        std::vector<std::string> tags;
        std::vector<std::string> categories;
    };
    const std::vector<Look> looks = {
        {"demo-look-city", "City weekend", "A relaxed look for a weekend in town.", {"women", "casual", "summer"},
         {"Women > Clothing > Blouses", "Women > Clothing > Jeans", "Women > Shoes > Sneakers", "Women > Accessories > Bags"}},
        {"demo-look-autumn", "Autumn layers", "Warm layers for cooler days.", {"men", "autumn"},
         {"Men > Clothing > Sweaters", "Men > Clothing > Chinos", "Men > Shoes > Boots", "Men > Accessories > Belts"}},
    };
    std::map<std::string, Product> firstOfCategory;
    auto status = storage.catalog().forEachLiveProduct(tenant.id, [&](Product&& product) {
        if (product.available() && !product.categoryPaths.empty()) firstOfCategory.try_emplace(product.categoryPaths.front(), std::move(product));
    });
    if (!status) return status;
    SetFile file;
    for (const auto& look : looks) {
        CustomSet set{look.id, look.title, look.description, look.tags, {}, {}};
        PhotoSet photo{std::string(look.id) + "-photo", look.title, look.tags, {}};
        for (const auto& category : look.categories) {
            auto found = firstOfCategory.find(category);
            if (found == firstOfCategory.end()) continue;
            set.skus.push_back(found->second.mainSku);
            if (!found->second.image.empty()) {
                set.images.push_back(found->second.image);
                photo.images.push_back(found->second.image);
            }
        }
        if (set.skus.empty()) continue;
        file.customSets.push_back(std::move(set));
        if (!photo.images.empty()) file.photoSets.push_back(std::move(photo));
    }
    return storage.content().importFile(tenant.id, file);
}

Status installContentPool(Storage& storage, const std::string& contentPoolFile) {
    auto existing = storage.content().templates();
    if (!existing) return existing.error();
    if (!existing->empty()) return {};
    std::ifstream in(contentPoolFile, std::ios::binary);
    if (!in) return Error::notFound("content pool: cannot read " + contentPoolFile);
    std::stringstream text;
    text << in.rdbuf();
    auto file = setFileFromJson(text.str());
    if (!file) return Error::invalidArgument(contentPoolFile + ": " + file.error().message);
    return storage.content().importFile(std::nullopt, *file);
}

constexpr const char* kDemoCommissionRates = "500";

}  // namespace

Result<DemoSetupResult> setupDemo(Storage& storage, FeedImportService& imports, const std::string& dataDir,
                                  const std::string& contentPoolFile) {
    namespace fs = std::filesystem;
    fs::path demoDir = fs::path(dataDir) / "demo";
    fs::path tenantFile = demoDir / "tenant.json";
    TenantService tenants(storage.tenants());

    std::optional<Tenant> tenant;
    if (std::ifstream in(tenantFile); in) {
        std::stringstream text;
        text << in.rdbuf();
        auto json = BoundedJson::parse(text.str(), tenantFile.string());
        if (json && json->is_object() && json->contains("apiId") && (*json)["apiId"].is_string()) {
            auto found = tenants.findByApiId((*json)["apiId"].get<std::string>());
            if (!found) return found.error();
            tenant = *found;
        }
    }
    if (!tenant) {
        auto created = tenants.create("Demo Shop");
        if (!created) return created.error();
        tenant = created->tenant;
        // A commission the demo's Performance page can show (5 %, every widget type); set once at
        // creation, so an operator's later change in the console stays.
        if (auto status = storage.tenants().setCommission(tenant->id, tenant->attributionWindowDays, kDemoCommissionRates); !status) {
            return status.error();
        }
        tenant->commissionRates = kDemoCommissionRates;
    }

    DemoCatalogGenerator generator;
    auto summary = generator.generate(demoDir.string());
    if (!summary) return summary.error();
    auto outcome = imports.importFile(*tenant, summary->feedPath, FeedImportOptions{}, "demo");
    if (!outcome) return outcome.error();
    if (outcome->record.status != ImportStatus::Applied) return Error::internal("demo import: " + outcome->record.message);

    if (auto status = installContentPool(storage, contentPoolFile); !status) return status.error();
    if (auto status = addDemoSets(storage, *tenant); !status) return status.error();

    std::ofstream out = PrivateFiles::openForWriting(tenantFile);
    out << nlohmann::json{{"apiId", tenant->apiId}, {"name", tenant->name}}.dump(2) << "\n";
    if (!out) return Error::unavailable("cannot write " + tenantFile.string());
    return DemoSetupResult{tenant->apiId, summary->firstSku, outcome->report};
}

}  // namespace svc
