#pragma once
// A GraphQL type system: what the validator checks documents against and what the
// executor completes values by.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graphql/Ast.hpp"

namespace svc::graphql {

struct ArgumentDefinition {
    std::string name;
    TypeReference type;
    std::optional<nlohmann::json> defaultValue;
    std::string description;
};

struct FieldDefinition {
    std::string name;
    TypeReference type;
    std::vector<ArgumentDefinition> arguments;
    std::string description;
    std::optional<std::string> deprecationReason;
    // The most items a list field can hold, or a connection's largest page (its `first`):
    // what the query cost multiplies by (QueryCost). Unset: not documented.
    std::optional<uint64_t> maxItems;

    const ArgumentDefinition* argument(const std::string& argumentName) const;
};

struct TypeDefinition {
    enum class Kind { Scalar, Object, Interface, Union, Enum, InputObject };
    Kind kind = Kind::Object;
    std::string name;
    std::string description;
    std::vector<FieldDefinition> fields;           // Object, Interface
    std::vector<std::string> interfaces;           // Object
    std::vector<std::string> possibleTypes;        // Union, Interface
    std::vector<std::string> enumValues;           // Enum
    std::vector<ArgumentDefinition> inputFields;   // InputObject

    const FieldDefinition* field(const std::string& fieldName) const;
    bool isLeaf() const { return kind == Kind::Scalar || kind == Kind::Enum; }
    bool isComposite() const { return kind == Kind::Object || kind == Kind::Interface || kind == Kind::Union; }
};

// Builders for schemas written in code: a field, an argument and an object type, with
// types in SDL notation ("[ID!]!").
FieldDefinition fieldDef(std::string name, const std::string& type, std::vector<ArgumentDefinition> arguments = {});
ArgumentDefinition argumentDef(std::string name, const std::string& type, std::optional<nlohmann::json> defaultValue = std::nullopt,
                               std::string description = "");
TypeDefinition objectType(std::string name, std::vector<FieldDefinition> fields);
// The field with its documented list size (FieldDefinition::maxItems).
FieldDefinition withMaxItems(FieldDefinition field, uint64_t maxItems);
TypeDefinition enumType(std::string name, std::vector<std::string> values);
TypeDefinition inputObjectType(std::string name, std::vector<ArgumentDefinition> fields);

// Parses a type reference such as "[ID!]!".
TypeReference parseTypeReference(const std::string& text);
// The named type at the bottom of list and non-null wrappers.
const std::string& namedType(const TypeReference& type);

class Schema {
public:
    Schema();  // with the built-in scalars and the introspection types
    void addType(TypeDefinition type);
    const TypeDefinition* type(const std::string& name) const;
    // A field of `parent` by name, including the query type's introspection meta-fields
    // __schema and __type (not listed among its fields, as the specification says).
    const FieldDefinition* fieldOf(const TypeDefinition& parent, const std::string& name) const;
    static bool isIntrospectionMetaField(const std::string& name) { return name == "__schema" || name == "__type"; }
    const std::map<std::string, TypeDefinition>& types() const { return types_; }
    const std::string& queryTypeName() const { return queryType_; }
    // Introspection's __schema.description; empty: null.
    const std::string& description() const { return description_; }
    void setDescription(std::string description) { description_ = std::move(description); }
    void setQueryType(std::string name) { queryType_ = std::move(name); }
    // True when a value of `type` may be returned for an object of `objectType` (same type, or an
    // interface/union the object belongs to).
    bool isPossibleType(const std::string& abstractOrObject, const std::string& objectType) const;

private:
    // The introspection lists' sizes follow the types: __Schema.types holds every type,
    // __Type.fields the most fields a type has, and so on.
    void updateIntrospectionListSizes();

    std::map<std::string, TypeDefinition> types_;
    std::string queryType_ = "Query";
    std::string description_;
};

}  // namespace svc::graphql
