#pragma once
// A small GraphQL schema for the validator and executor tests, independent of svc's
// content schema:
//
//   type Query {
//     hello: String
//     count: Int
//     sort: Sort
//     tags: [String]
//     greet(name: String!, punctuation: String = "!"): String!
//     product(sku: String!): Product
//     requiredProduct(sku: String!): Product!
//     products(first: Int = 2, after: String): [Product!]!
//     maybeProducts: [Product]
//     node(id: ID!): Node
//     secret: String
//     echo(value: Int, ratio: Float, list: [Int], sort: Sort, filter: Filter): String
//   }
//   interface Node { sku: ID! }
//   type Product implements Node {
//     sku: ID!  name: String  price: Price  brokenName: String!  nullName: String!
//     brokenNullable: String  related: [Product!]
//   }
//   type Price { amount: String!  cents: Int! }
//   enum Sort { NAME PRICE }
//   input Filter { brand: String!  limit: Int = 3 }
#include <string>
#include <vector>

#include "graphql/Schema.hpp"

namespace svc::graphql::testing {

inline FieldDefinition field(std::string name, const std::string& type, std::vector<ArgumentDefinition> arguments = {}) {
    FieldDefinition definition;
    definition.name = std::move(name);
    definition.type = parseTypeReference(type);
    definition.arguments = std::move(arguments);
    return definition;
}

inline ArgumentDefinition argument(std::string name, const std::string& type,
                                   std::optional<nlohmann::json> defaultValue = std::nullopt) {
    return ArgumentDefinition{std::move(name), parseTypeReference(type), std::move(defaultValue), ""};
}

inline TypeDefinition objectType(std::string name, std::vector<FieldDefinition> fields) {
    TypeDefinition type;
    type.kind = TypeDefinition::Kind::Object;
    type.name = std::move(name);
    type.fields = std::move(fields);
    return type;
}

inline Schema buildTestSchema() {
    Schema schema;
    schema.addType(objectType(
        "Query",
        {
            field("hello", "String"),
            field("count", "Int"),
            field("sort", "Sort"),
            field("tags", "[String]"),
            field("greet", "String!", {argument("name", "String!"), argument("punctuation", "String", "!")}),
            field("product", "Product", {argument("sku", "String!")}),
            field("requiredProduct", "Product!", {argument("sku", "String!")}),
            field("products", "[Product!]!", {argument("first", "Int", 2), argument("after", "String")}),
            field("maybeProducts", "[Product]"),
            field("node", "Node", {argument("id", "ID!")}),
            field("secret", "String"),
            field("echo", "String",
                  {argument("value", "Int"), argument("ratio", "Float"), argument("list", "[Int]"), argument("sort", "Sort"),
                   argument("filter", "Filter")}),
        }));
    TypeDefinition node = objectType("Node", {field("sku", "ID!")});
    node.kind = TypeDefinition::Kind::Interface;
    node.possibleTypes = {"Product"};
    schema.addType(node);
    TypeDefinition product = objectType("Product", {
                                                       field("sku", "ID!"),
                                                       field("name", "String"),
                                                       field("price", "Price"),
                                                       field("brokenName", "String!"),
                                                       field("nullName", "String!"),
                                                       field("brokenNullable", "String"),
                                                       field("related", "[Product!]"),
                                                   });
    product.interfaces = {"Node"};
    schema.addType(product);
    schema.addType(objectType("Price", {field("amount", "String!"), field("cents", "Int!")}));
    TypeDefinition sort;
    sort.kind = TypeDefinition::Kind::Enum;
    sort.name = "Sort";
    sort.enumValues = {"NAME", "PRICE"};
    schema.addType(sort);
    TypeDefinition filter;
    filter.kind = TypeDefinition::Kind::InputObject;
    filter.name = "Filter";
    filter.inputFields = {argument("brand", "String!"), argument("limit", "Int", 3)};
    schema.addType(filter);
    return schema;
}

inline const Schema& testSchema() {
    static const Schema schema = buildTestSchema();
    return schema;
}

}  // namespace svc::graphql::testing
