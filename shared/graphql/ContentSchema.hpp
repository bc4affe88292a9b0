#pragma once
// svc's content schema and its resolvers: products and their similar products.
// docs/api/schema.graphql is the schema as served.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "graphql/Cursor.hpp"
#include "graphql/ObjectResolver.hpp"
#include "graphql/Schema.hpp"
#include "recommend/RecommendationService.hpp"
#include "tenant/Tenant.hpp"
#include "widget/ContentPresentation.hpp"

namespace svc::graphql {

// The API version that answers: docs/api/CHANGELOG.md's last row (docs/adr/0072). In every
// response's extensions and in the schema's description.
inline constexpr std::string_view kContentApiVersion = "2.3.0";

const Schema& contentSchema();
// The served schema's description; docs/api/schema.graphql carries the same text.
std::string contentSchemaDescription();

struct ContentContext {
    Tenant tenant;
    RecommendationService& recommendations;
    const CursorCodec& cursors;
    const ContentPresentation* presentation = nullptr;  // null: the catalog's URLs as they are
};

// Root for an authorised tenant.
ObjectPtr makeQueryRoot(std::shared_ptr<ContentContext> context);
// Root for a request without a valid x-api-id: every top-level field fails Unauthorized.
ObjectPtr makeUnauthorizedRoot();

}  // namespace svc::graphql
