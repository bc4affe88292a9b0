#include "graphql/Introspection.hpp"

#include <algorithm>
#include <set>

namespace svc::graphql {
namespace {

ArgumentDefinition includeDeprecated() {
    return argumentDef("includeDeprecated", "Boolean", false);
}

struct DirectiveDefinition {
    std::string name;
    std::string description;
    std::vector<std::string> locations;
    std::vector<ArgumentDefinition> arguments;
};

// The directives every schema has (the specification's built-in ones).
const std::vector<DirectiveDefinition>& builtInDirectives() {
    static const std::vector<DirectiveDefinition> directives = {
        {"include", "Directs the executor to include this field or fragment only when the `if` argument is true.",
         {"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"},
         {argumentDef("if", "Boolean!", std::nullopt, "Included when true.")}},
        {"skip", "Directs the executor to skip this field or fragment when the `if` argument is true.",
         {"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"},
         {argumentDef("if", "Boolean!", std::nullopt, "Skipped when true.")}},
        {"deprecated", "Marks an element of a GraphQL schema as no longer supported.",
         {"FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INPUT_FIELD_DEFINITION", "ENUM_VALUE"},
         {argumentDef("reason", "String", "No longer supported", "Explains why this element was deprecated.")}},
        {"specifiedBy", "Exposes a URL that specifies the behavior of this scalar.", {"SCALAR"},
         {argumentDef("url", "String!", std::nullopt, "The URL that specifies the behavior of this scalar.")}},
    };
    return directives;
}

uint64_t mostDirectiveArguments() {
    uint64_t most = 0;
    for (const auto& directive : builtInDirectives()) most = std::max<uint64_t>(most, directive.arguments.size());
    return most;
}

nlohmann::json optionalText(const std::string& text) { return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text); }

const char* kindName(TypeDefinition::Kind kind) {
    switch (kind) {
        case TypeDefinition::Kind::Scalar: return "SCALAR";
        case TypeDefinition::Kind::Object: return "OBJECT";
        case TypeDefinition::Kind::Interface: return "INTERFACE";
        case TypeDefinition::Kind::Union: return "UNION";
        case TypeDefinition::Kind::Enum: return "ENUM";
        case TypeDefinition::Kind::InputObject: return "INPUT_OBJECT";
    }
    return "SCALAR";
}

// The specification lists a built-in scalar only when the schema uses it (graphql-js
// leaves out Float when no field or argument is a Float). Every other type is listed.
bool isListed(const Schema& schema, const TypeDefinition& type) {
    static const std::set<std::string> builtIn = {"Int", "Float", "String", "Boolean", "ID"};
    if (type.kind != TypeDefinition::Kind::Scalar || !builtIn.count(type.name)) return true;
    for (const auto& [name, candidate] : schema.types()) {
        for (const auto& field : candidate.fields) {
            if (namedType(field.type) == type.name) return true;
            for (const auto& argument : field.arguments) {
                if (namedType(argument.type) == type.name) return true;
            }
        }
        for (const auto& input : candidate.inputFields) {
            if (namedType(input.type) == type.name) return true;
        }
    }
    return false;
}

class TypeResolver;
ObjectPtr typeObject(const Schema& schema, const TypeReference& type);
ObjectPtr namedTypeObject(const Schema& schema, const std::string& name);

class InputValueResolver : public ObjectResolver {
public:
    InputValueResolver(const Schema& schema, const ArgumentDefinition& definition) : schema_(schema), definition_(definition) {}
    std::string_view typeName() const override { return "__InputValue"; }
    Result<ResolvedValue> resolve(const std::string& name, const ArgumentValues&) const override {
        if (name == "name") return ResolvedValue::scalar(definition_.name);
        if (name == "description") return ResolvedValue::scalar(optionalText(definition_.description));
        if (name == "type") return ResolvedValue::object(typeObject(schema_, definition_.type));
        if (name == "defaultValue") {
            return ResolvedValue::scalar(definition_.defaultValue ? nlohmann::json(graphqlLiteral(*definition_.defaultValue))
                                                                  : nlohmann::json(nullptr));
        }
        if (name == "isDeprecated") return ResolvedValue::scalar(false);
        if (name == "deprecationReason") return ResolvedValue::null();
        return Error::internal("__InputValue has no field " + name);
    }

private:
    const Schema& schema_;
    const ArgumentDefinition& definition_;
};

ResolvedValue inputValues(const Schema& schema, const std::vector<ArgumentDefinition>& definitions) {
    std::vector<ResolvedValue> items;
    for (const auto& definition : definitions) items.push_back(ResolvedValue::object(std::make_shared<InputValueResolver>(schema, definition)));
    return ResolvedValue::list(std::move(items));
}

class FieldResolver : public ObjectResolver {
public:
    FieldResolver(const Schema& schema, const FieldDefinition& definition) : schema_(schema), definition_(definition) {}
    std::string_view typeName() const override { return "__Field"; }
    Result<ResolvedValue> resolve(const std::string& name, const ArgumentValues&) const override {
        if (name == "name") return ResolvedValue::scalar(definition_.name);
        if (name == "description") return ResolvedValue::scalar(optionalText(definition_.description));
        if (name == "args") return inputValues(schema_, definition_.arguments);
        if (name == "type") return ResolvedValue::object(typeObject(schema_, definition_.type));
        if (name == "isDeprecated") return ResolvedValue::scalar(definition_.deprecationReason.has_value());
        if (name == "deprecationReason") {
            return ResolvedValue::scalar(definition_.deprecationReason ? nlohmann::json(*definition_.deprecationReason) : nlohmann::json(nullptr));
        }
        return Error::internal("__Field has no field " + name);
    }

private:
    const Schema& schema_;
    const FieldDefinition& definition_;
};

class EnumValueResolver : public ObjectResolver {
public:
    explicit EnumValueResolver(std::string name) : name_(std::move(name)) {}
    std::string_view typeName() const override { return "__EnumValue"; }
    Result<ResolvedValue> resolve(const std::string& name, const ArgumentValues&) const override {
        if (name == "name") return ResolvedValue::scalar(name_);
        if (name == "description" || name == "deprecationReason") return ResolvedValue::null();
        if (name == "isDeprecated") return ResolvedValue::scalar(false);
        return Error::internal("__EnumValue has no field " + name);
    }

private:
    std::string name_;
};

// A named type from the schema, or a LIST / NON_NULL wrapper around another type.
class TypeResolver : public ObjectResolver {
public:
    TypeResolver(const Schema& schema, const TypeDefinition* named, const TypeReference* wrapper)
        : schema_(schema), named_(named), wrapper_(wrapper) {}
    std::string_view typeName() const override { return "__Type"; }
    Result<ResolvedValue> resolve(const std::string& name, const ArgumentValues& arguments) const override {
        if (wrapper_) {
            if (name == "kind") return ResolvedValue::scalar(wrapper_->kind == TypeReference::Kind::List ? "LIST" : "NON_NULL");
            if (name == "ofType") return ResolvedValue::object(typeObject(schema_, *wrapper_->ofType));
            return ResolvedValue::null();  // every other field is null on wrappers
        }
        const TypeDefinition& type = *named_;
        using Kind = TypeDefinition::Kind;
        bool withDeprecated = arguments.is_object() && arguments.value("includeDeprecated", false);
        if (name == "kind") return ResolvedValue::scalar(kindName(type.kind));
        if (name == "name") return ResolvedValue::scalar(type.name);
        if (name == "description") return ResolvedValue::scalar(optionalText(type.description));
        if (name == "specifiedByURL" || name == "ofType") return ResolvedValue::null();
        if (name == "isOneOf") return type.kind == Kind::InputObject ? ResolvedValue::scalar(false) : ResolvedValue::null();
        if (name == "fields") {
            if (type.kind != Kind::Object && type.kind != Kind::Interface) return ResolvedValue::null();
            std::vector<ResolvedValue> items;
            for (const auto& definition : type.fields) {
                if (definition.deprecationReason && !withDeprecated) continue;
                items.push_back(ResolvedValue::object(std::make_shared<FieldResolver>(schema_, definition)));
            }
            return ResolvedValue::list(std::move(items));
        }
        if (name == "interfaces") {
            if (type.kind != Kind::Object && type.kind != Kind::Interface) return ResolvedValue::null();
            std::vector<ResolvedValue> items;
            for (const auto& interface : type.interfaces) items.push_back(ResolvedValue::object(namedTypeObject(schema_, interface)));
            return ResolvedValue::list(std::move(items));
        }
        if (name == "possibleTypes") {
            if (type.kind != Kind::Interface && type.kind != Kind::Union) return ResolvedValue::null();
            std::vector<ResolvedValue> items;
            for (const auto& possible : type.possibleTypes) items.push_back(ResolvedValue::object(namedTypeObject(schema_, possible)));
            return ResolvedValue::list(std::move(items));
        }
        if (name == "enumValues") {
            if (type.kind != Kind::Enum) return ResolvedValue::null();
            std::vector<ResolvedValue> items;
            for (const auto& value : type.enumValues) items.push_back(ResolvedValue::object(std::make_shared<EnumValueResolver>(value)));
            return ResolvedValue::list(std::move(items));
        }
        if (name == "inputFields") {
            if (type.kind != Kind::InputObject) return ResolvedValue::null();
            return inputValues(schema_, type.inputFields);
        }
        return Error::internal("__Type has no field " + name);
    }

private:
    const Schema& schema_;
    const TypeDefinition* named_;
    const TypeReference* wrapper_;
};

ObjectPtr namedTypeObject(const Schema& schema, const std::string& name) {
    const TypeDefinition* type = schema.type(name);
    if (!type || !isListed(schema, *type)) return nullptr;
    return std::make_shared<TypeResolver>(schema, type, nullptr);
}

ObjectPtr typeObject(const Schema& schema, const TypeReference& type) {
    if (type.kind == TypeReference::Kind::Named) return namedTypeObject(schema, type.name);
    return std::make_shared<TypeResolver>(schema, nullptr, &type);
}

class DirectiveResolver : public ObjectResolver {
public:
    DirectiveResolver(const Schema& schema, const DirectiveDefinition& definition) : schema_(schema), definition_(definition) {}
    std::string_view typeName() const override { return "__Directive"; }
    Result<ResolvedValue> resolve(const std::string& name, const ArgumentValues&) const override {
        if (name == "name") return ResolvedValue::scalar(definition_.name);
        if (name == "description") return ResolvedValue::scalar(optionalText(definition_.description));
        if (name == "isRepeatable") return ResolvedValue::scalar(false);
        if (name == "locations") {
            std::vector<ResolvedValue> items;
            for (const auto& location : definition_.locations) items.push_back(ResolvedValue::scalar(location));
            return ResolvedValue::list(std::move(items));
        }
        if (name == "args") return inputValues(schema_, definition_.arguments);
        return Error::internal("__Directive has no field " + name);
    }

private:
    const Schema& schema_;
    const DirectiveDefinition& definition_;
};

class SchemaResolver : public ObjectResolver {
public:
    explicit SchemaResolver(const Schema& schema) : schema_(schema) {}
    std::string_view typeName() const override { return "__Schema"; }
    Result<ResolvedValue> resolve(const std::string& name, const ArgumentValues&) const override {
        if (name == "description") return ResolvedValue::scalar(optionalText(schema_.description()));
        if (name == "mutationType" || name == "subscriptionType") return ResolvedValue::null();
        if (name == "queryType") return ResolvedValue::object(namedTypeObject(schema_, schema_.queryTypeName()));
        if (name == "types") {
            std::vector<ResolvedValue> items;
            for (const auto& [typeName, type] : schema_.types()) {
                if (isListed(schema_, type)) items.push_back(ResolvedValue::object(std::make_shared<TypeResolver>(schema_, &type, nullptr)));
            }
            return ResolvedValue::list(std::move(items));
        }
        if (name == "directives") {
            std::vector<ResolvedValue> items;
            for (const auto& directive : builtInDirectives()) {
                items.push_back(ResolvedValue::object(std::make_shared<DirectiveResolver>(schema_, directive)));
            }
            return ResolvedValue::list(std::move(items));
        }
        return Error::internal("__Schema has no field " + name);
    }

private:
    const Schema& schema_;
};

class IntrospectionRoot : public ObjectResolver {
public:
    explicit IntrospectionRoot(const Schema& schema) : schema_(schema) {}
    std::string_view typeName() const override { return schema_.queryTypeName(); }
    Result<ResolvedValue> resolve(const std::string& name, const ArgumentValues& arguments) const override {
        if (name == "__schema") return ResolvedValue::object(std::make_shared<SchemaResolver>(schema_));
        if (name == "__type") return ResolvedValue::object(namedTypeObject(schema_, arguments.value("name", "")));
        return Error::internal("not an introspection field: " + name);
    }

private:
    const Schema& schema_;
};

}  // namespace

void addIntrospectionTypes(Schema& schema) {
    schema.addType(objectType("__Schema", {
        fieldDef("description", "String"),
        fieldDef("types", "[__Type!]!"),
        fieldDef("queryType", "__Type!"),
        fieldDef("mutationType", "__Type"),
        fieldDef("subscriptionType", "__Type"),
        withMaxItems(fieldDef("directives", "[__Directive!]!"), builtInDirectives().size()),
    }));
    schema.addType(objectType("__Type", {
        fieldDef("kind", "__TypeKind!"),
        fieldDef("name", "String"),
        fieldDef("description", "String"),
        fieldDef("specifiedByURL", "String"),
        fieldDef("fields", "[__Field!]", {includeDeprecated()}),
        fieldDef("interfaces", "[__Type!]"),
        fieldDef("possibleTypes", "[__Type!]"),
        fieldDef("enumValues", "[__EnumValue!]", {includeDeprecated()}),
        fieldDef("inputFields", "[__InputValue!]", {includeDeprecated()}),
        fieldDef("ofType", "__Type"),
        fieldDef("isOneOf", "Boolean"),
    }));
    schema.addType(enumType("__TypeKind", {"SCALAR", "OBJECT", "INTERFACE", "UNION", "ENUM", "INPUT_OBJECT", "LIST", "NON_NULL"}));
    schema.addType(objectType("__Field", {
        fieldDef("name", "String!"),
        fieldDef("description", "String"),
        fieldDef("args", "[__InputValue!]!", {includeDeprecated()}),
        fieldDef("type", "__Type!"),
        fieldDef("isDeprecated", "Boolean!"),
        fieldDef("deprecationReason", "String"),
    }));
    schema.addType(objectType("__InputValue", {
        fieldDef("name", "String!"),
        fieldDef("description", "String"),
        fieldDef("type", "__Type!"),
        fieldDef("defaultValue", "String"),
        fieldDef("isDeprecated", "Boolean!"),
        fieldDef("deprecationReason", "String"),
    }));
    schema.addType(objectType("__EnumValue", {
        fieldDef("name", "String!"),
        fieldDef("description", "String"),
        fieldDef("isDeprecated", "Boolean!"),
        fieldDef("deprecationReason", "String"),
    }));
    schema.addType(objectType("__Directive", {
        fieldDef("name", "String!"),
        fieldDef("description", "String"),
        fieldDef("isRepeatable", "Boolean!"),
        fieldDef("locations", "[__DirectiveLocation!]!"),
        withMaxItems(fieldDef("args", "[__InputValue!]!", {includeDeprecated()}), mostDirectiveArguments()),
    }));
    schema.addType(enumType("__DirectiveLocation",
                               {"QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD", "INLINE_FRAGMENT",
                                "VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION", "ARGUMENT_DEFINITION",
                                "INTERFACE", "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION"}));
}

const FieldDefinition* introspectionMetaField(const std::string& name) {
    static const FieldDefinition schemaField = fieldDef("__schema", "__Schema!");
    static const FieldDefinition typeField = fieldDef("__type", "__Type", {argumentDef("name", "String!")});
    if (name == "__schema") return &schemaField;
    if (name == "__type") return &typeField;
    return nullptr;
}

ObjectPtr makeIntrospectionRoot(const Schema& schema) { return std::make_shared<IntrospectionRoot>(schema); }

std::string graphqlLiteral(const nlohmann::json& value) {
    if (value.is_array()) {
        std::string text = "[";
        for (size_t i = 0; i < value.size(); ++i) text += (i ? ", " : "") + graphqlLiteral(value[i]);
        return text + "]";
    }
    if (value.is_object()) {
        std::string text = "{";
        bool first = true;
        for (const auto& [key, item] : value.items()) {
            text += (first ? "" : ", ") + key + ": " + graphqlLiteral(item);
            first = false;
        }
        return text + "}";
    }
    return value.dump();  // numbers, booleans, null, and strings (JSON string escapes are valid GraphQL)
}

}  // namespace svc::graphql
