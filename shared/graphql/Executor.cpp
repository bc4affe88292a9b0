#include "graphql/Executor.hpp"

#include "graphql/Introspection.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "text/JsonWriter.hpp"
#include "text/StringUtil.hpp"

namespace svc::graphql {
namespace {

using ordered_json = nlohmann::ordered_json;

// One response key of a selection set for one object type: its fields (more than one when
// the document repeats the key), their definition and merged sub-selections, and the
// arguments, coerced on first use.
struct CollectedField {
    std::string key;
    std::vector<const Field*> fields;
    bool isTypename = false;
    bool meta = false;                          // __schema or __type on the query type
    const FieldDefinition* definition = nullptr;  // null for __typename
    const SelectionSet* selections = nullptr;
    bool argumentsCoerced = false;
    nlohmann::json arguments;
    std::string argumentProblem;
};

// More than `limit` levels of arrays and objects? Counted with a stack of its own: the value
// comes from the request, and nothing here may recurse as deep as a client nests it.
bool nestedDeeperThan(const nlohmann::json& value, size_t limit) {
    if (!value.is_structured()) return false;  // the usual variable: nothing to walk
    std::vector<std::pair<const nlohmann::json*, size_t>> pending{{&value, 1}};
    while (!pending.empty()) {
        auto [current, depth] = pending.back();
        pending.pop_back();
        if (!current->is_structured()) continue;
        if (depth > limit) return true;
        for (const auto& item : *current) pending.push_back({&item, depth + 1});
    }
    return false;
}

// A value in an error message: its JSON text, shortened (a request may send megabytes).
std::string shown(const nlohmann::json& value) {
    constexpr size_t kShown = 100;
    std::string text = value.dump();
    if (text.size() > kShown) text = text.substr(0, kShown) + "...";
    return text;
}

class ExecutionRun {
public:
    ExecutionRun(const Schema& schema, const Document& document, const ExecutionLimits& limits)
        : schema_(schema), document_(document), limits_(limits) {}

    std::vector<GraphqlError> errors;
    std::optional<GraphqlError> stopError;  // set when a limit stopped the run

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
            if (nestedDeeperThan(provided.at(definition.name), limits_.maxVariableDepth)) {
                requestError("Variable '" + definition.name + "' has an invalid value: nested more than " +
                             std::to_string(limits_.maxVariableDepth) + " levels deep", definition.location);
                return false;
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

    // Writes the object's selected fields into `out` as a JSON object. False when a non-null
    // field came out null: the object itself is then null (the caller discards what was written).
    bool writeObject(const SelectionSet& selections, const ObjectPtr& object) {
        std::string_view typeName = object->typeName();
        std::vector<CollectedField>& collected = collectedFields(typeName, selections);
        out += '{';
        bool first = true;
        for (auto& entry : collected) {
            if (!first) out += ',';
            first = false;
            // Response keys are GraphQL names ([_A-Za-z][_0-9A-Za-z]*): nothing to escape.
            out += '"';
            out += entry.key;
            out += "\":";
            if (entry.isTypename) {
                appendJsonString(out, typeName);
                continue;
            }
            path_.push_back({&entry.key, 0});
            // Introspection reads the schema, not the application's resolvers (and needs no tenant).
            bool fieldNulledParent = !writeField(entry, entry.meta ? makeIntrospectionRoot(schema_) : object);
            path_.pop_back();
            if (fieldNulledParent) return false;
        }
        out += '}';
        return true;
    }

    std::string out;  // the response's `data`, as JSON text

private:
    // Checked before each field: the response's size every time (a comparison), the host's
    // stop check every stopCheckInterval fields (it may read a clock). The rare outcomes are
    // out of line: this runs for every field of every request. Once it says stop, every field
    // after answers null at once and the nulls unwind the run; the response grows past the
    // limit by one field's value at most.
    bool shouldStop() {
        if (stopped()) return true;
        if (!limits_.stopCheck || ++fieldsSinceStopCheck_ < limits_.stopCheckInterval) return false;
        return askHost();
    }

    bool stopped() { return stopError || (out.size() > limits_.maxResponseBytes && stopForSize()); }

    [[gnu::cold, gnu::noinline]] bool askHost() {
        fieldsSinceStopCheck_ = 0;
        StopReason reason = limits_.stopCheck();
        if (reason.limit.empty()) return false;
        stopError = limitError(reason.limit, reason.message);
        return true;
    }

    [[gnu::cold, gnu::noinline]] bool stopForSize() {
        stopError = limitError("maxResponseBytes",
                               "the response is larger than the limit of " + std::to_string(limits_.maxResponseBytes) +
                                   " bytes: ask for fewer fields or smaller pages",
                               {{"maximum", limits_.maxResponseBytes}});
        return true;
    }

    void requestError(const std::string& message, SourceLocation location) {
        GraphqlError error;
        error.message = message;
        error.locations.push_back(location);
        error.errorType = "ValidationError";
        errors.push_back(std::move(error));
    }

    void fieldError(const std::string& message, const std::string& errorType, SourceLocation location) {
        GraphqlError error;
        error.message = message;
        error.locations.push_back(location);
        error.path = currentPath();
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
            if (!fits) problem = "Int cannot represent " + shown(value);
            return fits;
        }
        if (type.name == "Float") {
            if (!value.is_number()) problem = "Float cannot represent " + shown(value);
            return value.is_number();
        }
        if (type.name == "String") {
            if (!value.is_string()) problem = "String cannot represent " + shown(value);
            return value.is_string();
        }
        if (type.name == "Boolean") {
            if (!value.is_boolean()) problem = "Boolean cannot represent " + shown(value);
            return value.is_boolean();
        }
        if (type.name == "ID") {
            bool fits = value.is_string() || value.is_number_integer();
            if (!fits) problem = "ID cannot represent " + shown(value);
            return fits;
        }
        if (definition->kind == TypeDefinition::Kind::Enum) {
            for (const auto& name : definition->enumValues) {
                if (value.is_string() && value.get<std::string>() == name) return true;
            }
            problem = "value " + shown(value) + " is not in enum " + type.name;
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

    using GroupedFields = std::vector<std::pair<std::string, std::vector<const Field*>>>;

    void collectFields(const std::string& objectType, const SelectionSet& selections, GroupedFields& grouped) const {
        std::set<std::string> visitedFragments;
        std::unordered_map<std::string_view, size_t> byKey;  // views of the document's names, once there are many keys
        collectFields(objectType, selections, grouped, visitedFragments, byKey);
    }

    // A selection set's keys are few: scanned; thousands (aliases) are looked up.
    static constexpr size_t kScannedKeys = 16;

    // CollectFields of the GraphQL spec (6.3.2): each fragment is expanded at most once
    // per selection set, which also makes a cyclic document harmless here.
    void collectFields(const std::string& objectType, const SelectionSet& selections, GroupedFields& grouped,
                       std::set<std::string>& visitedFragments, std::unordered_map<std::string_view, size_t>& byKey) const {
        for (const auto& selection : selections) {
            switch (selection.kind) {
                case Selection::Kind::Field: {
                    if (!shouldInclude(selection.field.directives)) break;
                    const std::string& key = selection.field.responseKey();
                    if (grouped.size() < kScannedKeys) {
                        auto same = std::find_if(grouped.begin(), grouped.end(), [&](const auto& group) { return group.first == key; });
                        if (same == grouped.end()) grouped.push_back({key, {&selection.field}});
                        else same->second.push_back(&selection.field);
                        break;
                    }
                    if (byKey.empty()) {
                        for (size_t i = 0; i < grouped.size(); ++i) byKey.emplace(grouped[i].second.front()->responseKey(), i);
                    }
                    auto [found, added] = byKey.try_emplace(key, grouped.size());
                    if (added) grouped.push_back({key, {&selection.field}});
                    else grouped[found->second].second.push_back(&selection.field);
                    break;
                }
                case Selection::Kind::InlineFragment: {
                    const auto& fragment = selection.inlineFragment;
                    if (!shouldInclude(fragment.directives)) break;
                    if (!fragment.typeCondition.empty() && !schema_.isPossibleType(fragment.typeCondition, objectType)) break;
                    collectFields(objectType, fragment.selectionSet, grouped, visitedFragments, byKey);
                    break;
                }
                case Selection::Kind::FragmentSpread: {
                    if (!shouldInclude(selection.spread.directives)) break;
                    if (!visitedFragments.insert(selection.spread.name).second) break;
                    const FragmentDefinition* fragment = fragmentNamed(selection.spread.name);
                    if (!fragment || !schema_.isPossibleType(fragment->typeCondition, objectType)) break;
                    collectFields(objectType, fragment->selectionSet, grouped, visitedFragments, byKey);
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

    // Resolves and writes one response key. False when its value is null in a non-null field,
    // which nulls the parent object (GraphQL spec 6.4.4).
    bool writeField(CollectedField& entry, const ObjectPtr& object) {
        const Field& field = *entry.fields.front();
        const FieldDefinition& definition = *entry.definition;
        bool nonNull = definition.type.kind == TypeReference::Kind::NonNull;
        if (shouldStop()) {
            out += "null";
            return false;
        }
        if (!entry.argumentsCoerced) {
            // Arguments depend on the field's literals and the run's variables only: coerced once per run.
            entry.arguments = definition.arguments.empty() ? nlohmann::json::object() : coerceArguments(field, definition, entry.argumentProblem);
            entry.argumentsCoerced = true;
        }
        if (!entry.argumentProblem.empty()) {
            fieldError("Validation error of type WrongType: " + entry.argumentProblem, "ValidationError", field.location);
            out += "null";
            return !nonNull;
        }
        auto resolved = object->resolve(field.name, entry.arguments);
        if (!resolved) {
            fieldError(resolved.error().messageWithId(), errorTypeFor(resolved.error().code), field.location);
            out += "null";
            return !nonNull;
        }
        bool nullReported = false;
        bool isNull = writeValue(definition.type, *resolved, *entry.selections, field, nullReported);
        return !(isNull && nonNull);
    }

    // Completes a resolved value by its type and writes it; true when it wrote null.
    // `nullReported` is set when that null stems from an error already in `errors`, so
    // wrappers above add no second error.
    bool writeValue(const TypeReference& type, const ResolvedValue& resolved, const SelectionSet& selections, const Field& field,
                    bool& nullReported) {
        if (type.kind == TypeReference::Kind::NonNull) {
            bool innerReported = false;
            bool isNull = writeValue(*type.ofType, resolved, selections, field, innerReported);
            if (isNull) {
                if (!innerReported) {
                    fieldError("Cannot return null for non-nullable type: '" + namedType(type) + "' within parent", "InternalFailure",
                               field.location);
                }
                nullReported = true;
            }
            return isNull;
        }
        if (std::holds_alternative<std::nullptr_t>(resolved.value)) {
            out += "null";
            return true;
        }
        if (type.kind == TypeReference::Kind::List) {
            const auto* items = std::get_if<std::vector<ResolvedValue>>(&resolved.value);
            if (!items) {
                fieldError("Expected a list for field " + field.name, "InternalFailure", field.location);
                nullReported = true;
                out += "null";
                return true;
            }
            size_t start = out.size();
            out += '[';
            for (size_t i = 0; i < items->size(); ++i) {
                if (i) out += ',';
                path_.push_back({nullptr, i});
                bool itemReported = false;
                bool itemNull = writeValue(*type.ofType, (*items)[i], selections, field, itemReported);
                path_.pop_back();
                if (itemNull && type.ofType->kind == TypeReference::Kind::NonNull) {
                    // A null in a list of non-null items nulls the whole list.
                    out.resize(start);
                    out += "null";
                    nullReported = true;
                    return true;
                }
            }
            out += ']';
            return false;
        }
        const TypeDefinition* definition = typeOf(type);
        if (definition && definition->isLeaf()) return !writeScalar(resolved);
        const auto* object = std::get_if<ObjectPtr>(&resolved.value);
        if (!object) {
            fieldError("Expected an object for field " + field.name, "InternalFailure", field.location);
            nullReported = true;
            out += "null";
            return true;
        }
        size_t start = out.size();
        if (!writeObject(selections, *object)) {
            out.resize(start);
            out += "null";
            nullReported = true;
            return true;
        }
        return false;
    }

    // Writes a leaf value; false when it wrote null (no value, or not a scalar).
    bool writeScalar(const ResolvedValue& resolved) {
        if (const auto* text = std::get_if<std::string>(&resolved.value)) {
            appendJsonString(out, *text);
            return true;
        }
        if (const auto* text = std::get_if<std::string_view>(&resolved.value)) {
            appendJsonString(out, *text);
            return true;
        }
        const auto* scalar = std::get_if<nlohmann::json>(&resolved.value);
        if (!scalar || scalar->is_null()) {
            out += "null";
            return false;
        }
        if (scalar->is_string()) appendJsonString(out, scalar->get_ref<const std::string&>());
        else if (scalar->is_boolean()) out += scalar->get<bool>() ? "true" : "false";
        else if (scalar->is_number_integer()) out += std::to_string(scalar->get<int64_t>());
        else out += scalar->dump();
        return true;
    }

    // The fields of `selections` for an object of `typeName`, grouped by response key, with
    // their definitions; computed once per run for each selection set and type (a list of
    // twelve products collects its fields once, not twelve times).
    std::vector<CollectedField>& collectedFields(std::string_view objectType, const SelectionSet& selections) {
        // A selection set is almost always completed for one type only: a short list to scan.
        auto& forSelections = collected_[&selections];
        for (auto& [type, fields] : forSelections) {
            if (type == objectType) return fields;
        }
        std::string typeName(objectType);
        GroupedFields grouped;
        collectFields(typeName, selections, grouped);
        const TypeDefinition* type = schema_.type(typeName);
        std::vector<CollectedField> collected;
        for (auto& [responseKey, fields] : grouped) {
            CollectedField entry;
            entry.key = responseKey;
            const Field& field = *fields.front();
            if (field.name == "__typename") {
                entry.isTypename = true;
            } else {
                entry.definition = type ? schema_.fieldOf(*type, field.name) : nullptr;
                if (!entry.definition) continue;  // validation rejected unknown fields already
                entry.meta = Schema::isIntrospectionMetaField(field.name) && type->name == schema_.queryTypeName();
                entry.selections = &field.selectionSet;
                if (fields.size() > 1) {
                    // The sub-selections of every field of the key, merged once and kept for the run.
                    auto merged = mergedSelections_.try_emplace(fields);
                    if (merged.second) {
                        for (const Field* each : fields) {
                            merged.first->second.insert(merged.first->second.end(), each->selectionSet.begin(), each->selectionSet.end());
                        }
                    }
                    entry.selections = &merged.first->second;
                }
            }
            entry.fields = std::move(fields);
            collected.push_back(std::move(entry));
        }
        forSelections.emplace_back(std::move(typeName), std::move(collected));
        return forSelections.back().second;
    }

    // The schema's definition of a named type reference, looked up once per run: by name it
    // was a map search for every value written.
    const TypeDefinition* typeOf(const TypeReference& type) {
        auto [found, inserted] = namedTypes_.try_emplace(&type, nullptr);
        if (inserted) found->second = schema_.type(type.name);
        return found->second;
    }

    // The current position in the response, for error paths: keys and list indices.
    struct PathSegment {
        const std::string* key;  // null for a list index
        size_t index;
    };

    // The first fragment of that name (the document is valid: there is one).
    const FragmentDefinition* fragmentNamed(const std::string& name) const {
        if (fragmentsByName_.empty()) {
            for (const auto& fragment : document_.fragments) fragmentsByName_.try_emplace(fragment.name, &fragment);
        }
        auto found = fragmentsByName_.find(name);
        return found == fragmentsByName_.end() ? nullptr : found->second;
    }

    ordered_json currentPath() const {
        ordered_json path = ordered_json::array();
        for (const auto& segment : path_) {
            if (segment.key) path.push_back(*segment.key);
            else path.push_back(segment.index);
        }
        return path;
    }

    const Schema& schema_;
    const Document& document_;
    const ExecutionLimits& limits_;
    unsigned fieldsSinceStopCheck_ = 0;
    mutable std::unordered_map<std::string_view, const FragmentDefinition*> fragmentsByName_;
    nlohmann::json coerced_ = nlohmann::json::object();
    std::vector<PathSegment> path_;
    std::unordered_map<const TypeReference*, const TypeDefinition*> namedTypes_;
    // Per selection set: the object types it was completed for, each with its collected fields.
    // std::deque keeps references stable while nested selection sets add their entries.
    std::unordered_map<const SelectionSet*, std::deque<std::pair<std::string, std::vector<CollectedField>>>> collected_;
    std::map<std::vector<const Field*>, SelectionSet> mergedSelections_;
};

}  // namespace

std::string ExecutionResult::toJsonText() const {
    std::string response = "{\"data\":" + data;
    if (!errors.empty()) {
        response += ",\"errors\":[";
        for (size_t i = 0; i < errors.size(); ++i) {
            if (i) response += ',';
            response += errors[i].toJson().dump();
        }
        response += ']';
    }
    if (!extensions.empty()) response += ",\"extensions\":" + extensions;
    return response + "}";
}

ExecutionResult Executor::execute(const Document& document, const std::string& operationName, const nlohmann::json& variables,
                                  const ObjectPtr& root, const ExecutionLimits& limits) const {
    ExecutionResult result;
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
    ExecutionRun run(schema_, document, limits);
    if (!run.coerceVariables(*operation, variables)) {
        result.errors = std::move(run.errors);
        return result;
    }
    run.out.reserve(8192);
    bool written = run.writeObject(operation->selectionSet, root);
    if (run.stopError) {
        // Whatever was written is incomplete: the answer is the limit's error alone.
        result.stopped = true;
        result.errors = {std::move(*run.stopError)};
        return result;
    }
    if (written) result.data = std::move(run.out);
    result.errors = std::move(run.errors);
    return result;
}

}  // namespace svc::graphql
