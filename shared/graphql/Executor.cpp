#include "graphql/Executor.hpp"

#include "graphql/Introspection.hpp"

#include <cmath>
#include <limits>
#include <set>

#include "text/StringUtil.hpp"

namespace svc::graphql {
namespace {

using ordered_json = nlohmann::ordered_json;

// Marks a null that must propagate to the parent (a non-null field failed).
struct Propagate {};

class ExecutionRun {
public:
    ExecutionRun(const Schema& schema, const Document& document) : schema_(schema), document_(document) {}

    std::vector<GraphqlError> errors;

    bool coerceVariables(const OperationDefinition& operation, const nlohmann::json& provided) {
        for (const auto& definition : operation.variables) {
            bool present = provided.is_object() && provided.contains(definition.name);
            if (!present) {
                if (definition.defaultValue) {
                    nlohmann::json value = literalToJson(definition.defaultValue);
                    std::string problem;
                    if (!inputValueFits(value, definition.type, problem)) {
                        requestError("Variable '" + definition.name + "' has an invalid default value: " + problem, definition.location);
                        return false;
                    }
                    coerced_[definition.name] = value;
                } else if (definition.type.kind == TypeReference::Kind::NonNull) {
                    requestError("Variable '" + definition.name + "' has an invalid value: it is required and was not provided",
                                 definition.location);
                    return false;
                }
                continue;
            }
            nlohmann::json value = provided.at(definition.name);
            std::string problem;
            if (!inputValueFits(value, definition.type, problem)) {
                requestError("Variable '" + definition.name + "' has an invalid value: " + problem, definition.location);
                return false;
            }
            coerced_[definition.name] = value;
        }
        return true;
    }

    ordered_json executeSelectionSet(const SelectionSet& selections, const ObjectPtr& object, const ordered_json& path, bool& propagate) {
        ordered_json result = ordered_json::object();
        std::vector<std::pair<std::string, std::vector<const Field*>>> grouped;
        collectFields(object->typeName(), selections, grouped);
        const TypeDefinition* type = schema_.type(object->typeName());
        for (const auto& [key, fields] : grouped) {
            const Field& field = *fields.front();
            ordered_json fieldPath = path;
            fieldPath.push_back(key);
            if (field.name == "__typename") {
                result[key] = object->typeName();
                continue;
            }
            const FieldDefinition* definition = type ? schema_.fieldOf(*type, field.name) : nullptr;
            if (!definition) continue;  // validation rejected unknown fields already
            bool childPropagate = false;
            // Introspection reads the schema, not the application's resolvers (and needs no tenant).
            bool meta = Schema::isIntrospectionMetaField(field.name) && type->name == schema_.queryTypeName();
            ordered_json value = executeField(fields, *definition, meta ? makeIntrospectionRoot(schema_) : object, fieldPath, childPropagate);
            if (childPropagate) {
                propagate = true;
                return nullptr;
            }
            result[key] = std::move(value);
        }
        return result;
    }

private:
    void requestError(const std::string& message, SourceLocation location) {
        GraphqlError error;
        error.message = message;
        error.locations.push_back(location);
        error.errorType = "ValidationError";
        errors.push_back(std::move(error));
    }

    void fieldError(const std::string& message, const std::string& errorType, SourceLocation location, const ordered_json& path) {
        GraphqlError error;
        error.message = message;
        error.locations.push_back(location);
        error.path = path;
        error.errorType = errorType;
        errors.push_back(std::move(error));
    }

    nlohmann::json literalToJson(const ValuePtr& value) const {
        if (!value) return nullptr;
        switch (value->kind) {
            case Value::Kind::Null: return nullptr;
            case Value::Kind::Int: {
                auto number = parseInt64(value->text);
                return number ? nlohmann::json(*number) : nlohmann::json(std::stod(value->text));
            }
            case Value::Kind::Float: return std::stod(value->text);
            case Value::Kind::String:
            case Value::Kind::Enum: return value->text;
            case Value::Kind::Boolean: return value->text == "true";
            case Value::Kind::Variable: {
                auto it = coerced_.find(value->text);
                return it == coerced_.end() ? nlohmann::json(nullptr) : *it;
            }
            case Value::Kind::List: {
                nlohmann::json list = nlohmann::json::array();
                for (const auto& item : value->list) list.push_back(literalToJson(item));
                return list;
            }
            case Value::Kind::Object: {
                nlohmann::json object = nlohmann::json::object();
                for (const auto& [name, item] : value->fields) object[name] = literalToJson(item);
                return object;
            }
        }
        return nullptr;
    }

    // Input coercion (GraphQL spec 3.x "Input Coercion"): checks `value` against `type` and
    // rewrites it in place: a single value given for a list becomes a list of one, and
    // input-object fields that were left out get their defaults.
    bool inputValueFits(nlohmann::json& value, const TypeReference& type, std::string& problem) const {
        if (type.kind == TypeReference::Kind::NonNull) {
            if (value.is_null()) {
                problem = "null for non-null type " + type.toString();
                return false;
            }
            return inputValueFits(value, *type.ofType, problem);
        }
        if (value.is_null()) return true;
        if (type.kind == TypeReference::Kind::List) {
            if (!value.is_array()) {
                if (!inputValueFits(value, *type.ofType, problem)) return false;
                value = nlohmann::json::array({value});
                return true;
            }
            for (auto& item : value) {
                if (!inputValueFits(item, *type.ofType, problem)) return false;
            }
            return true;
        }
        const TypeDefinition* definition = schema_.type(type.name);
        if (!definition) {
            problem = "unknown type " + type.name;
            return false;
        }
        if (type.name == "Int") {
            bool fits = value.is_number_integer() && value.get<int64_t>() >= std::numeric_limits<int32_t>::min() &&
                        value.get<int64_t>() <= std::numeric_limits<int32_t>::max();
            if (!fits) problem = "Int cannot represent " + value.dump();
            return fits;
        }
        if (type.name == "Float") {
            if (!value.is_number()) problem = "Float cannot represent " + value.dump();
            return value.is_number();
        }
        if (type.name == "String") {
            if (!value.is_string()) problem = "String cannot represent " + value.dump();
            return value.is_string();
        }
        if (type.name == "Boolean") {
            if (!value.is_boolean()) problem = "Boolean cannot represent " + value.dump();
            return value.is_boolean();
        }
        if (type.name == "ID") {
            bool fits = value.is_string() || value.is_number_integer();
            if (!fits) problem = "ID cannot represent " + value.dump();
            return fits;
        }
        if (definition->kind == TypeDefinition::Kind::Enum) {
            for (const auto& name : definition->enumValues) {
                if (value.is_string() && value.get<std::string>() == name) return true;
            }
            problem = "value " + value.dump() + " is not in enum " + type.name;
            return false;
        }
        if (definition->kind == TypeDefinition::Kind::InputObject) {
            if (!value.is_object()) {
                problem = type.name + " must be an object";
                return false;
            }
            for (const auto& field : definition->inputFields) {
                if (!value.contains(field.name)) {
                    if (field.defaultValue) {
                        value[field.name] = *field.defaultValue;
                        continue;
                    }
                    nlohmann::json missing = nullptr;
                    if (!inputValueFits(missing, field.type, problem)) {
                        problem = "field '" + field.name + "': " + problem;
                        return false;
                    }
                    continue;
                }
                if (!inputValueFits(value[field.name], field.type, problem)) {
                    problem = "field '" + field.name + "': " + problem;
                    return false;
                }
            }
            for (const auto& [name, item] : value.items()) {
                bool known = false;
                for (const auto& field : definition->inputFields) known = known || field.name == name;
                if (!known) {
                    problem = "field '" + name + "' is not defined by type " + type.name;
                    return false;
                }
            }
            return true;
        }
        return true;  // custom scalars accept any JSON
    }

    bool shouldInclude(const std::vector<Directive>& directives) const {
        for (const auto& directive : directives) {
            for (const auto& argument : directive.arguments) {
                if (argument.name != "if") continue;
                bool condition = literalToJson(argument.value) == true;
                if (directive.name == "skip" && condition) return false;
                if (directive.name == "include" && !condition) return false;
            }
        }
        return true;
    }

    void collectFields(const std::string& objectType, const SelectionSet& selections,
                       std::vector<std::pair<std::string, std::vector<const Field*>>>& grouped) const {
        std::set<std::string> visitedFragments;
        collectFields(objectType, selections, grouped, visitedFragments);
    }

    // CollectFields of the GraphQL spec (6.3.2): each fragment is expanded at most once
    // per selection set, which also makes a cyclic document harmless here.
    void collectFields(const std::string& objectType, const SelectionSet& selections,
                       std::vector<std::pair<std::string, std::vector<const Field*>>>& grouped,
                       std::set<std::string>& visitedFragments) const {
        for (const auto& selection : selections) {
            switch (selection.kind) {
                case Selection::Kind::Field: {
                    if (!shouldInclude(selection.field.directives)) break;
                    const std::string& key = selection.field.responseKey();
                    bool found = false;
                    for (auto& [existingKey, fields] : grouped) {
                        if (existingKey == key) {
                            fields.push_back(&selection.field);
                            found = true;
                        }
                    }
                    if (!found) grouped.push_back({key, {&selection.field}});
                    break;
                }
                case Selection::Kind::InlineFragment: {
                    const auto& fragment = selection.inlineFragment;
                    if (!shouldInclude(fragment.directives)) break;
                    if (!fragment.typeCondition.empty() && !schema_.isPossibleType(fragment.typeCondition, objectType)) break;
                    collectFields(objectType, fragment.selectionSet, grouped, visitedFragments);
                    break;
                }
                case Selection::Kind::FragmentSpread: {
                    if (!shouldInclude(selection.spread.directives)) break;
                    if (!visitedFragments.insert(selection.spread.name).second) break;
                    for (const auto& fragment : document_.fragments) {
                        if (fragment.name != selection.spread.name) continue;
                        if (!schema_.isPossibleType(fragment.typeCondition, objectType)) break;
                        collectFields(objectType, fragment.selectionSet, grouped, visitedFragments);
                    }
                    break;
                }
            }
        }
    }

    nlohmann::json coerceArguments(const Field& field, const FieldDefinition& definition, std::string& problem) const {
        nlohmann::json arguments = nlohmann::json::object();
        for (const auto& argumentDefinition : definition.arguments) {
            const Argument* given = nullptr;
            for (const auto& argument : field.arguments) {
                if (argument.name == argumentDefinition.name) given = &argument;
            }
            bool variableMissing = given && given->value->kind == Value::Kind::Variable && !coerced_.contains(given->value->text);
            if (!given || variableMissing) {
                if (argumentDefinition.defaultValue) arguments[argumentDefinition.name] = *argumentDefinition.defaultValue;
                else if (argumentDefinition.type.kind == TypeReference::Kind::NonNull) {
                    problem = "argument '" + argumentDefinition.name + "' of type " + argumentDefinition.type.toString() + " is required";
                }
                continue;
            }
            nlohmann::json value = literalToJson(given->value);
            std::string why;
            if (!inputValueFits(value, argumentDefinition.type, why)) {
                problem = "argument '" + argumentDefinition.name + "': " + why;
                continue;
            }
            arguments[argumentDefinition.name] = std::move(value);
        }
        return arguments;
    }

    ordered_json executeField(const std::vector<const Field*>& fields, const FieldDefinition& definition, const ObjectPtr& object,
                              const ordered_json& path, bool& propagate) {
        const Field& field = *fields.front();
        std::string problem;
        nlohmann::json arguments = coerceArguments(field, definition, problem);
        if (!problem.empty()) {
            fieldError("Validation error of type WrongType: " + problem, "ValidationError", field.location, path);
            return handleNull(definition.type, propagate);
        }
        auto resolved = object->resolve(field.name, arguments);
        if (!resolved) {
            fieldError(resolved.error().message, errorTypeFor(resolved.error().code), field.location, path);
            return handleNull(definition.type, propagate);
        }
        // The sub-selections of every field of the response key; one field (the common case)
        // is used as it is: copying the AST subtree for every object was most of a request's cost.
        SelectionSet merged;
        if (fields.size() > 1) {
            for (const Field* each : fields) merged.insert(merged.end(), each->selectionSet.begin(), each->selectionSet.end());
        }
        const SelectionSet& selections = fields.size() > 1 ? merged : field.selectionSet;
        bool nullReported = false;
        ordered_json value = completeValue(definition.type, *resolved, selections, field, path, nullReported);
        // A null in a non-null field nulls the parent object (GraphQL spec 6.4.4).
        if (value.is_null() && definition.type.kind == TypeReference::Kind::NonNull) propagate = true;
        return value;
    }

    ordered_json handleNull(const TypeReference& type, bool& propagate) {
        if (type.kind == TypeReference::Kind::NonNull) propagate = true;
        return nullptr;
    }

    // Completes a resolved value by its type. `nullReported` is set when the returned null
    // stems from an error already in `errors`, so wrappers above add no second error.
    ordered_json completeValue(const TypeReference& type, const ResolvedValue& resolved, const SelectionSet& selections,
                               const Field& field, const ordered_json& path, bool& nullReported) {
        if (type.kind == TypeReference::Kind::NonNull) {
            bool innerReported = false;
            ordered_json value = completeValue(*type.ofType, resolved, selections, field, path, innerReported);
            if (value.is_null()) {
                if (!innerReported) {
                    fieldError("Cannot return null for non-nullable type: '" + namedType(type) + "' within parent", "InternalFailure",
                               field.location, path);
                }
                nullReported = true;
            }
            return value;
        }
        if (std::holds_alternative<std::nullptr_t>(resolved.value)) return nullptr;
        if (type.kind == TypeReference::Kind::List) {
            const auto* items = std::get_if<std::vector<ResolvedValue>>(&resolved.value);
            if (!items) {
                fieldError("Expected a list for field " + field.name, "InternalFailure", field.location, path);
                nullReported = true;
                return nullptr;
            }
            ordered_json list = ordered_json::array();
            for (size_t i = 0; i < items->size(); ++i) {
                ordered_json itemPath = path;
                itemPath.push_back(i);
                bool itemReported = false;
                ordered_json item = completeValue(*type.ofType, (*items)[i], selections, field, itemPath, itemReported);
                if (item.is_null() && type.ofType->kind == TypeReference::Kind::NonNull) {
                    // A null in a list of non-null items nulls the whole list.
                    nullReported = true;
                    return nullptr;
                }
                list.push_back(std::move(item));
            }
            return list;
        }
        const TypeDefinition* definition = schema_.type(type.name);
        if (definition && definition->isLeaf()) {
            const auto* scalar = std::get_if<nlohmann::json>(&resolved.value);
            if (!scalar) return nullptr;
            return ordered_json::parse(scalar->dump());
        }
        const auto* object = std::get_if<ObjectPtr>(&resolved.value);
        if (!object) {
            fieldError("Expected an object for field " + field.name, "InternalFailure", field.location, path);
            nullReported = true;
            return nullptr;
        }
        bool childPropagate = false;
        ordered_json value = executeSelectionSet(selections, *object, path, childPropagate);
        if (childPropagate) {
            nullReported = true;
            return nullptr;
        }
        return value;
    }

    const Schema& schema_;
    const Document& document_;
    nlohmann::json coerced_ = nlohmann::json::object();
};

}  // namespace

nlohmann::ordered_json ExecutionResult::toJson() const {
    nlohmann::ordered_json response;
    response["data"] = data;
    if (!errors.empty()) {
        auto list = nlohmann::ordered_json::array();
        for (const auto& error : errors) list.push_back(error.toJson());
        response["errors"] = list;
    }
    return response;
}

ExecutionResult Executor::execute(const Document& document, const std::string& operationName, const nlohmann::json& variables,
                                  const ObjectPtr& root) const {
    ExecutionResult result;
    result.data = nullptr;
    const OperationDefinition* operation = nullptr;
    for (const auto& candidate : document.operations) {
        if (operationName.empty() ? document.operations.size() == 1 : candidate.name == operationName) operation = &candidate;
    }
    if (!operation) {
        GraphqlError error;
        error.message = operationName.empty() ? "Must provide operation name if query contains multiple operations"
                                              : "Unknown operation named '" + operationName + "'";
        error.errorType = "ValidationError";
        result.errors.push_back(std::move(error));
        return result;
    }
    ExecutionRun run(schema_, document);
    if (!run.coerceVariables(*operation, variables)) {
        result.errors = std::move(run.errors);
        return result;
    }
    bool propagate = false;
    result.data = run.executeSelectionSet(operation->selectionSet, root, nlohmann::ordered_json::array(), propagate);
    if (propagate) result.data = nullptr;
    result.errors = std::move(run.errors);
    return result;
}

}  // namespace svc::graphql
