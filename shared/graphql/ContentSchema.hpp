#pragma once
// svc's content schema and its resolvers: products and their similar products.
// docs/api/schema.graphql is the schema as served.
#include <cstdint>
#include <memory>

#include "graphql/Cursor.hpp"
#include "graphql/ObjectResolver.hpp"
#include "graphql/Schema.hpp"
#include "recommend/RecommendationService.hpp"
#include "tenant/Tenant.hpp"

namespace svc::graphql {

const Schema& contentSchema();

struct ContentContext {
    Tenant tenant;
    RecommendationService& recommendations;
    const CursorCodec& cursors;
};

// Root for an authorised tenant.
ObjectPtr makeQueryRoot(std::shared_ptr<ContentContext> context);
// Root for a request without a valid x-api-id: every top-level field fails Unauthorized.
ObjectPtr makeUnauthorizedRoot();

}  // namespace svc::graphql
