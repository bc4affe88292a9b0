#pragma once
// The console's mapping of a tenant's categories onto the content pool's slots (ADR 0075):
//   GET  /operator/api/tenants/<apiId>/category-mapping: the catalog's categories with their
//        article counts, the slots that match each today, svc's proposal and the saved mapping;
//   PUT  the same path {"entries": [{"category", "slot"}]}: replaces the mapping (the tenant's
//        content is rebuilt: its generation is bumped with the write);
//   POST .../category-mapping/preview?<the SDK's content query> {"entries": [...]}: the content
//        answer as it would be with that mapping, for the widget preview; nothing is stored.
// Session with CSRF token (state-changing calls) or operator key, like every operator route.
#include <httplib.h>

#include <functional>

#include "http/OperatorAuth.hpp"
#include "recommend/CatalogCategories.hpp"
#include "recommend/ContentIndex.hpp"
#include "store/CatalogStore.hpp"
#include "store/CategoryMappingStore.hpp"
#include "store/ContentStore.hpp"
#include "http/WidgetPresentation.hpp"
#include "widget/WidgetContent.hpp"

namespace svc {

class OperatorCategoryMappingRoutes {
public:
    // Categories listed at most (most articles first); all of them can be mapped.
    static constexpr size_t kMaxListed = 500;

    // `decorate` adds the tenant's texts and price rules to preview content (WidgetPresentation).
    OperatorCategoryMappingRoutes(OperatorAuth& auth, CatalogStore& catalog, ContentStore& content, CategoryMappingStore& mappings,
                                  ContentIndex& index, std::function<Status(const Tenant&, const PageHints&, ContentResponse&)> decorate)
        : auth_(auth), catalog_(catalog), content_(content), mappings_(mappings), index_(index), decorate_(std::move(decorate)) {}
    void registerOn(httplib::Server& server);

private:
    void show(const httplib::Request& request, httplib::Response& response);
    void replace(const httplib::Request& request, httplib::Response& response);
    void preview(const httplib::Request& request, httplib::Response& response);
    Result<CatalogCategories> categoriesOf(int64_t tenantId);
    // The request body's mapping, checked against the templates and the tenant's catalog.
    Result<CategorySlotMapping> mappingFrom(const httplib::Request& request, int64_t tenantId, const std::vector<SetTemplate>& templates);
    Status sendOverview(httplib::Response& response, int64_t tenantId);

    OperatorAuth& auth_;
    CatalogStore& catalog_;
    ContentStore& content_;
    CategoryMappingStore& mappings_;
    ContentIndex& index_;
    std::function<Status(const Tenant&, const PageHints&, ContentResponse&)> decorate_;
};

}  // namespace svc
