#pragma once
// GraphQL introspection (spec section 4): the __Schema, __Type, __Field, __InputValue,
// __EnumValue and __Directive types, and resolvers that read them off a Schema, so that
// GraphiQL and graphql-js's buildClientSchema can load any schema this engine serves.
#include "graphql/ObjectResolver.hpp"
#include "graphql/Schema.hpp"

namespace svc::graphql {

// Adds the introspection types to `schema` (Schema's constructor does this).
void addIntrospectionTypes(Schema& schema);

// The query root's meta-fields __schema and __type(name:), by name; null for other names.
const FieldDefinition* introspectionMetaField(const std::string& name);

// Resolves __schema and __type for `schema`, which must outlive what it returns.
ObjectPtr makeIntrospectionRoot(const Schema& schema);

// A JSON value as a GraphQL literal (introspection's defaultValue), e.g. 12, "text", [1, 2].
std::string graphqlLiteral(const nlohmann::json& value);

}  // namespace svc::graphql
