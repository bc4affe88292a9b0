#include "http/OperatorCategoryMappingRoutes.hpp"

#include <nlohmann/json.hpp>

#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "recommend/TextTokenizer.hpp"
#include "recommend/WidgetContentService.hpp"
#include "sets/CategorySlotProposer.hpp"
#include "widget/ContentRequest.hpp"

namespace svc {
namespace {

using nlohmann::json;

constexpr const char* kPath = "/operator/api/tenants/([A-Za-z0-9-]{1,64})/category-mapping";

// The preview's content comes from a draft snapshot that is never served.
class DraftContent : public ContentSource {
public:
    explicit DraftContent(std::shared_ptr<const ContentSnapshot> snapshot) : snapshot_(std::move(snapshot)) {}
    Result<std::shared_ptr<const ContentSnapshot>> snapshot(int64_t) override { return snapshot_; }

private:
    std::shared_ptr<const ContentSnapshot> snapshot_;
};

}  // namespace

void OperatorCategoryMappingRoutes::registerOn(httplib::Server& server) {
    server.Get(kPath, [this](const httplib::Request& q, httplib::Response& r) { show(q, r); });
    server.Put(kPath, [this](const httplib::Request& q, httplib::Response& r) { replace(q, r); });
    server.Post(std::string(kPath) + "/preview", [this](const httplib::Request& q, httplib::Response& r) { preview(q, r); });
}

Result<CatalogCategories> OperatorCategoryMappingRoutes::categoriesOf(int64_t tenantId) {
    CatalogCategories categories;
    auto read = catalog_.forEachLiveProduct(tenantId, [&](Product&& product) { categories.add(product); });
    if (!read) return read.error();
    return categories;
}

Result<CategorySlotMapping> OperatorCategoryMappingRoutes::mappingFrom(const httplib::Request& request, int64_t tenantId,
                                                                      const std::vector<SetTemplate>& templates) {
    auto body = readJsonBody(request);
    if (!body) return body.error();
    auto categories = categoriesOf(tenantId);
    if (!categories) return categories.error();
    return CategorySlotMapping::fromJson(*body, templates, [&](const std::string& key) { return categories->has(key); });
}

Status OperatorCategoryMappingRoutes::sendOverview(httplib::Response& response, int64_t tenantId) {
    auto templates = content_.templates();
    if (!templates) return templates.error();
    auto categories = categoriesOf(tenantId);
    if (!categories) return categories.error();
    auto saved = mappings_.categoryMapping(tenantId);
    if (!saved) return saved.error();
    std::map<std::string, std::string> savedByKey;
    for (const auto& entry : *saved) savedByKey.emplace(TextTokenizer::key(entry.category), entry.slot);
    // Which slots list a category by name today (the stored templates, before any mapping).
    std::map<std::string, std::vector<std::string>> listedBy;
    json slots = json::array();
    for (const auto& name : CategorySlotMapping::slotNames(*templates)) {
        json ids = json::array();
        for (const auto& setTemplate : *templates) {
            for (const auto& slot : setTemplate.slots) {
                if (slot.name != name) continue;
                ids.push_back(setTemplate.id);
                for (const auto& category : slot.categories) {
                    auto& names = listedBy[TextTokenizer::key(category)];
                    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
                }
            }
        }
        slots.push_back({{"name", name}, {"templates", ids}});
    }
    CategorySlotProposer proposer(*templates);
    json list = json::array();
    for (const auto& category : categories->list(kMaxListed)) {
        json entry{{"category", category.name}, {"key", category.key}, {"products", category.products}, {"paths", category.paths},
                   {"matchedToday", listedBy.count(category.key) ? json(listedBy[category.key]) : json::array()},
                   {"slot", nullptr}, {"proposal", nullptr}};
        if (auto found = savedByKey.find(category.key); found != savedByKey.end()) entry["slot"] = found->second;
        if (auto proposal = proposer.propose(category)) {
            entry["proposal"] = {{"slot", proposal->slot}, {"confidence", proposal->confidence}, {"basis", proposal->basis}};
        }
        list.push_back(std::move(entry));
    }
    sendJson(response, 200,
             json{{"slots", slots}, {"categories", list}, {"categoryCount", categories->size()}, {"entries", CategorySlotMapping(*saved).toJson()["entries"]}},
             JsonCaching::NoStore);
    return {};
}

void OperatorCategoryMappingRoutes::show(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    if (auto status = sendOverview(response, tenant->id); !status) return sendError(response, status.error());
}

void OperatorCategoryMappingRoutes::replace(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    auto templates = content_.templates();
    if (!templates) return sendError(response, templates.error());
    auto mapping = mappingFrom(request, tenant->id, *templates);
    if (!mapping) return sendError(response, mapping.error());
    if (auto status = mappings_.replaceCategoryMapping(tenant->id, mapping->entries()); !status) return sendError(response, status.error());
    // The bumped generation reaches every process; this one rebuilds at once.
    index_.contentChanged(tenant->id);
    if (auto status = sendOverview(response, tenant->id); !status) return sendError(response, status.error());
}

void OperatorCategoryMappingRoutes::preview(const httplib::Request& request, httplib::Response& response) {
    // A POST only because the draft travels in the body: it changes nothing, but it carries the
    // CSRF token like every POST of the console.
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    size_t queryStart = request.target.find('?');
    std::string_view query = queryStart == std::string::npos ? std::string_view() : std::string_view(request.target).substr(queryStart + 1);
    auto widgets = ContentRequest::fromQueryString(query);
    if (!widgets) return sendError(response, widgets.error());
    auto templates = content_.templates();
    if (!templates) return sendError(response, templates.error());
    auto mapping = mappingFrom(request, tenant->id, *templates);
    if (!mapping) return sendError(response, mapping.error());
    auto draft = index_.draftWithMapping(tenant->id, *mapping);
    if (!draft) return sendError(response, draft.error());
    DraftContent source(*draft);
    RecommendationService recommendations(source);
    WidgetContentService widgetContent(recommendations);
    auto content = widgetContent.contentFor(*tenant, *widgets);
    if (!content) return sendError(response, content.error());
    if (auto decorated = decorate_(*tenant, PageHints{request.get_param_value("hl"), request.get_param_value("hp")}, *content); !decorated) return sendError(response, decorated.error());
    sendJsonText(response, 200, content->toJson(), JsonCaching::NoStore);
}

}  // namespace svc
