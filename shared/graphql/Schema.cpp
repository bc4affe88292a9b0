#include "graphql/Schema.hpp"

#include <algorithm>

#include "graphql/Introspection.hpp"

namespace svc::graphql {

const ArgumentDefinition* FieldDefinition::argument(const std::string& argumentName) const {
    for (const auto& argument : arguments) {
        if (argument.name == argumentName) return &argument;
    }
    return nullptr;
}

const FieldDefinition* TypeDefinition::field(const std::string& fieldName) const {
    for (const auto& definition : fields) {
        if (definition.name == fieldName) return &definition;
    }
    return nullptr;
}

FieldDefinition fieldDef(std::string name, const std::string& type, std::vector<ArgumentDefinition> arguments) {
    FieldDefinition field;
    field.name = std::move(name);
    field.type = parseTypeReference(type);
    field.arguments = std::move(arguments);
    return field;
}

FieldDefinition withMaxItems(FieldDefinition field, uint64_t maxItems) {
    field.maxItems = maxItems;
    return field;
}

ArgumentDefinition argumentDef(std::string name, const std::string& type, std::optional<nlohmann::json> defaultValue,
                               std::string description) {
    return ArgumentDefinition{std::move(name), parseTypeReference(type), std::move(defaultValue), std::move(description)};
}

TypeDefinition objectType(std::string name, std::vector<FieldDefinition> fields) {
    TypeDefinition type;
    type.kind = TypeDefinition::Kind::Object;
    type.name = std::move(name);
    type.fields = std::move(fields);
    return type;
}

TypeDefinition enumType(std::string name, std::vector<std::string> values) {
    TypeDefinition type;
    type.kind = TypeDefinition::Kind::Enum;
    type.name = std::move(name);
    type.enumValues = std::move(values);
    return type;
}

TypeDefinition inputObjectType(std::string name, std::vector<ArgumentDefinition> fields) {
    TypeDefinition type;
    type.kind = TypeDefinition::Kind::InputObject;
    type.name = std::move(name);
    type.inputFields = std::move(fields);
    return type;
}

TypeReference parseTypeReference(const std::string& text) {
    TypeReference result;
    std::string body = text;
    bool nonNull = !body.empty() && body.back() == '!';
    if (nonNull) body.pop_back();
    if (!body.empty() && body.front() == '[') {
        result.kind = TypeReference::Kind::List;
        result.ofType = std::make_shared<TypeReference>(parseTypeReference(body.substr(1, body.size() - 2)));
    } else {
        result.kind = TypeReference::Kind::Named;
        result.name = body;
    }
    if (nonNull) {
        TypeReference wrapper;
        wrapper.kind = TypeReference::Kind::NonNull;
        wrapper.ofType = std::make_shared<TypeReference>(result);
        return wrapper;
    }
    return result;
}

const std::string& namedType(const TypeReference& type) {
    const TypeReference* current = &type;
    while (current->kind != TypeReference::Kind::Named) current = current->ofType.get();
    return current->name;
}

Schema::Schema() {
    for (const char* scalar : {"Int", "Float", "String", "Boolean", "ID"}) {
        TypeDefinition type;
        type.kind = TypeDefinition::Kind::Scalar;
        type.name = scalar;
        addType(std::move(type));
    }
    addIntrospectionTypes(*this);
}

const FieldDefinition* Schema::fieldOf(const TypeDefinition& parent, const std::string& name) const {
    if (isIntrospectionMetaField(name) && parent.name == queryType_) return introspectionMetaField(name);
    return parent.field(name);
}

void Schema::addType(TypeDefinition type) {
    std::string name = type.name;
    types_[name] = std::move(type);
    updateIntrospectionListSizes();
}

void Schema::updateIntrospectionListSizes() {
    auto schemaType = types_.find("__Schema"), typeType = types_.find("__Type"), fieldType = types_.find("__Field");
    if (schemaType == types_.end() || typeType == types_.end() || fieldType == types_.end()) return;  // still being built
    uint64_t fields = 0, interfaces = 0, possibleTypes = 0, enumValues = 0, inputFields = 0, arguments = 0;
    for (const auto& [name, type] : types_) {
        fields = std::max<uint64_t>(fields, type.fields.size());
        interfaces = std::max<uint64_t>(interfaces, type.interfaces.size());
        possibleTypes = std::max<uint64_t>(possibleTypes, type.possibleTypes.size());
        enumValues = std::max<uint64_t>(enumValues, type.enumValues.size());
        inputFields = std::max<uint64_t>(inputFields, type.inputFields.size());
        for (const auto& field : type.fields) arguments = std::max<uint64_t>(arguments, field.arguments.size());
    }
    auto set = [](TypeDefinition& type, const char* field, uint64_t maxItems) {
        for (auto& definition : type.fields) {
            if (definition.name == field) definition.maxItems = maxItems;
        }
    };
    set(schemaType->second, "types", types_.size());
    set(typeType->second, "fields", fields);
    set(typeType->second, "interfaces", interfaces);
    set(typeType->second, "possibleTypes", possibleTypes);
    set(typeType->second, "enumValues", enumValues);
    set(typeType->second, "inputFields", inputFields);
    set(fieldType->second, "args", arguments);
}

const TypeDefinition* Schema::type(const std::string& name) const {
    auto it = types_.find(name);
    return it == types_.end() ? nullptr : &it->second;
}

bool Schema::isPossibleType(const std::string& abstractOrObject, const std::string& objectType) const {
    if (abstractOrObject == objectType) return true;
    const TypeDefinition* abstract = type(abstractOrObject);
    if (!abstract) return false;
    return std::find(abstract->possibleTypes.begin(), abstract->possibleTypes.end(), objectType) != abstract->possibleTypes.end();
}

}  // namespace svc::graphql
