#pragma once
// The authoring of curated content that both the shop's API (SetRoutes, tenant credentials)
// and the console's (OperatorSetRoutes, an operator) offer: one set of rules, and one place
// that schedules the content rebuild after a change. Answers are the JSON the APIs return; a
// refused write names its bad fields and writes nothing.
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "recommend/ContentIndex.hpp"
#include "store/ContentStore.hpp"

namespace svc {

struct SetWrite {
    std::vector<Error> refused;  // the body's problems; nothing was written
    bool created = false;
    nlohmann::json stored;
};

class SetAuthoring {
public:
    // Further checks of a custom set's SKUs (the console checks them against the catalog).
    using SkuCheck = std::function<std::vector<Error>(int64_t tenantId, const std::vector<std::string>& skus)>;

    SetAuthoring(ContentStore& content, ContentIndex& index, SkuCheck skuCheck = {})
        : content_(content), index_(index), skuCheck_(std::move(skuCheck)) {}

    Result<nlohmann::json> list(int64_t tenantId, SetKind kind);
    Result<std::optional<nlohmann::json>> find(int64_t tenantId, SetKind kind, const std::string& id);
    Result<SetWrite> put(int64_t tenantId, SetKind kind, nlohmann::json body, const std::string& pathId);
    Result<bool> remove(int64_t tenantId, SetKind kind, const std::string& id);

    // The content pool's templates, shared by every tenant.
    Result<nlohmann::json> listTemplates();
    Result<std::optional<nlohmann::json>> findTemplate(const std::string& id);
    Result<SetWrite> putTemplate(nlohmann::json body, const std::string& pathId);
    Result<bool> removeTemplate(const std::string& id);

    // A body may omit the id (the path names it); one that names another is refused.
    static Status pathIdInto(nlohmann::json& body, const std::string& pathId);

private:
    static constexpr int64_t kContentPool = 0;  // ContentIndex's key for the shared templates

    ContentStore& content_;
    ContentIndex& index_;
    SkuCheck skuCheck_;
};

}  // namespace svc
