#include "graphql/Validator.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "text/StringUtil.hpp"

namespace svc::graphql {
namespace {

class ValidationRun {
public:
    ValidationRun(const Schema& schema, const FragmentGraph& graph, ValidationLimits limits)
        : schema_(schema), document_(graph.document()), graph_(graph), limits_(limits), facts_(document_.fragments.size()) {}

    std::vector<GraphqlError> run() {
        // Checking follows fragment spreads: it recurses as deep as the selections nest
        // through them, which is bounded first (each definition alone is, by the parser).
        for (const auto& operation : document_.operations) {
            int nesting = graph_.nesting(operation.selectionSet);
            if (nesting > limits_.maxNesting) {
                report("MaxNestingExceeded", "the selections nest " + std::to_string(nesting) +
                       " deep through fragments, more than the maximum of " + std::to_string(limits_.maxNesting),
                       operation.location, "");
                return std::move(errors_);
            }
        }
        std::map<std::string, SourceLocation> operationNames;
        for (const auto& operation : document_.operations) {
            if (aborted_) break;
            currentOperation_ = &operation;
            if (document_.operations.size() > 1 && operation.name.empty()) {
                report("LoneAnonymousOperation", "Anonymous operation with other operations", operation.location, "");
            }
            if (!operation.name.empty()) {
                if (auto [earlier, added] = operationNames.emplace(operation.name, operation.nameLocation); !added) {
                    report("DuplicateOperationName", "There can be only one operation named '" + operation.name + "'",
                           operation.nameLocation, "", earlier->second);
                }
            }
            const TypeDefinition* root = operation.operation == "query" ? schema_.type(schema_.queryTypeName()) : nullptr;
            if (!root) {
                report("UnknownOperation", "The schema does not support operation type '" + operation.operation + "'",
                       operation.location, "");
                continue;
            }
            usedVariables_.clear();
            definedVariables_.clear();
            variables_.clear();
            reachedByOperation_.assign(document_.fragments.size(), false);
            checkMisplacedDirectives(operation.directives, "");
            for (const auto& variable : operation.variables) {
                definedVariables_.insert(variable.name);
                auto [earlier, added] = variables_.emplace(variable.name, &variable);
                if (!added) {
                    report("DuplicateVariableName", "There can be only one variable named " + variable.name, variable.nameLocation, "",
                           earlier->second->nameLocation);
                }
                const std::string& typeName = namedType(variable.type);
                const TypeDefinition* type = schema_.type(typeName);
                if (!type) report("UnknownType", "Unknown type " + typeName, variable.location, "");
                else if (type->isComposite()) {
                    report("NonInputTypeOnVariable", "Input variable " + variable.name + " type " +
                           variable.type.toString() + " is not an input type", variable.location, "");
                } else if (variable.defaultValue) {
                    std::vector<LiteralProblem> problems;
                    literalProblems(variable.defaultValue, variable.type, problems);
                    for (auto& problem : problems) {
                        std::string detail = problem.type == "WrongType" ? "variable '" + variable.name + "' default value: " + problem.detail
                                                                         : problem.detail;
                        reportAt(problem.type, detail, problem.locations, "");
                    }
                }
            }
            checkSelectionSet(operation.selectionSet, *root, "");
            for (const auto& variable : operation.variables) {
                if (!usedVariables_.count(variable.name)) {
                    report("UnusedVariable", "Unused variable " + variable.name, variable.location, "");
                }
            }
        }
        if (!aborted_) reportFragmentCycles();
        std::map<std::string, SourceLocation> fragmentNames;
        for (size_t index = 0; index < document_.fragments.size() && !aborted_; ++index) {
            const auto& fragment = document_.fragments[index];
            checkMisplacedDirectives(fragment.directives, "");
            if (const TypeDefinition* type = schema_.type(fragment.typeCondition); type && !type->isComposite()) {
                report("InvalidFragmentType", "Fragment " + fragment.name + " cannot condition on non composite type " + type->name,
                       fragment.typeConditionLocation, "");
            }
            if (auto [earlier, added] = fragmentNames.emplace(fragment.name, fragment.nameLocation); !added) {
                report("DuplicateFragmentName", "There can be only one fragment named '" + fragment.name + "'",
                       fragment.nameLocation, "", earlier->second);
            }
            if (!usedFragments_.count(fragment.name)) {
                report("UnusedFragment", "Unused fragment " + fragment.name, fragment.location, "");
            }
        }
        return std::move(errors_);
    }

private:
    // NoFragmentCycles, as graphql-js does it: each fragment is entered once, with the spreads
    // on the way; a spread back to a fragment on the way closes a cycle, reported at the
    // spreads along it, in order.
    void reportFragmentCycles() {
        std::vector<bool> entered(document_.fragments.size());
        std::vector<const FragmentSpread*> path;
        std::map<std::string, size_t> pathIndex;
        for (size_t index = 0; index < document_.fragments.size() && !aborted_; ++index) {
            detectCycles(index, entered, path, pathIndex);
        }
    }

    void detectCycles(size_t index, std::vector<bool>& entered, std::vector<const FragmentSpread*>& path,
                      std::map<std::string, size_t>& pathIndex) {
        if (entered[index]) return;
        entered[index] = true;
        const FragmentDefinition& fragment = document_.fragments[index];
        std::vector<const FragmentSpread*> spreads;
        spreadsIn(fragment.selectionSet, spreads);
        if (spreads.empty()) return;
        pathIndex[fragment.name] = path.size();
        for (const FragmentSpread* spread : spreads) {
            if (aborted_) break;
            auto cycleStart = pathIndex.find(spread->name);
            path.push_back(spread);
            if (cycleStart == pathIndex.end()) {
                size_t target = graph_.indexOf(spread->name);
                if (target != FragmentGraph::kNone) detectCycles(target, entered, path, pathIndex);
            } else {
                std::vector<SourceLocation> locations;
                for (size_t i = cycleStart->second; i < path.size(); ++i) locations.push_back(path[i]->location);
                reportAt("FragmentCycle", "Fragment cycles not allowed", std::move(locations), "");
            }
            path.pop_back();
        }
        pathIndex.erase(fragment.name);
    }

    static void spreadsIn(const SelectionSet& selections, std::vector<const FragmentSpread*>& out) {
        for (const auto& selection : selections) {
            switch (selection.kind) {
                case Selection::Kind::Field: spreadsIn(selection.field.selectionSet, out); break;
                case Selection::Kind::InlineFragment: spreadsIn(selection.inlineFragment.selectionSet, out); break;
                case Selection::Kind::FragmentSpread: out.push_back(&selection.spread); break;
            }
        }
    }

    // `earlier`: the other place of a conflict (listed first, as graphql-js does).
    void report(const std::string& type, const std::string& detail, SourceLocation location, const std::string& path,
                std::optional<SourceLocation> earlier = std::nullopt) {
        std::vector<SourceLocation> locations;
        if (earlier) locations.push_back(*earlier);
        locations.push_back(location);
        reportAt(type, detail, std::move(locations), path);
    }

    // The same with every place the error involves, in the order graphql-js lists them. After
    // the maximum number of errors, one more says so and validation stops (as graphql-js's).
    void reportAt(const std::string& type, const std::string& detail, std::vector<SourceLocation> locations, const std::string& path) {
        if (aborted_) return;
        GraphqlError error;
        error.errorType = "ValidationError";
        if (errors_.size() >= limits_.maxErrors) {
            error.message = "Validation error of type MaxErrorsExceeded: more than " + std::to_string(limits_.maxErrors) +
                            " validation errors; validation stopped";
            errors_.push_back(std::move(error));
            aborted_ = true;
            return;
        }
        error.message = "Validation error of type " + type + ": " + detail + (path.empty() ? "" : " @ '" + path + "'");
        error.locations = std::move(locations);
        errors_.push_back(std::move(error));
    }

    struct LiteralProblem {
        std::string detail;
        std::vector<SourceLocation> locations;
        std::string type = "WrongType";
    };

    // ValuesOfCorrectType (and UniqueInputFieldNames inside input objects): every reason a
    // literal is not a value of `type`, each at the node graphql-js reports it at, in its
    // order (an object's missing fields before the problems of its fields).
    // Variables fit anywhere here; VariablesInAllowedPosition checks them.
    void literalProblems(const ValuePtr& value, const TypeReference& type, std::vector<LiteralProblem>& out) const {
        if (!value || value->kind == Value::Kind::Variable) return;
        if (type.kind == TypeReference::Kind::NonNull) {
            if (value->kind == Value::Kind::Null) {
                out.push_back({"null is not a valid '" + type.toString() + "'", {value->location}});
                return;
            }
            literalProblems(value, *type.ofType, out);
            return;
        }
        if (value->kind == Value::Kind::Null) return;
        if (type.kind == TypeReference::Kind::List) {
            if (value->kind != Value::Kind::List) return literalProblems(value, *type.ofType, out);  // one item for a list
            for (const auto& item : value->list) literalProblems(item, *type.ofType, out);
            return;
        }
        const TypeDefinition* named = schema_.type(type.name);
        if (!named) return;  // an unknown type is reported where it is named
        std::string invalid = "value '" + printValue(value) + "' is not a valid '" + type.name + "'";
        if (named->kind == TypeDefinition::Kind::Enum) {
            bool known = value->kind == Value::Kind::Enum &&
                         std::find(named->enumValues.begin(), named->enumValues.end(), value->text) != named->enumValues.end();
            if (!known) out.push_back({invalid, {value->location}});
            return;
        }
        if (named->kind == TypeDefinition::Kind::InputObject) {
            if (value->kind != Value::Kind::Object) {
                out.push_back({invalid, {value->location}});
                return;
            }
            for (const auto& field : named->inputFields) {
                bool given = std::any_of(value->fields.begin(), value->fields.end(), [&](const auto& f) { return f.first == field.name; });
                if (!given && field.type.kind == TypeReference::Kind::NonNull && !field.defaultValue) {
                    out.push_back({"field '" + field.name + "' of type '" + type.name + "' is required", {value->location}});
                }
            }
            std::map<std::string_view, size_t> firstOfName;  // an object literal can have thousands of fields
            for (size_t i = 0; i < value->fields.size(); ++i) {
                const std::string& name = value->fields[i].first;
                SourceLocation at = i < value->fieldLocations.size() ? value->fieldLocations[i] : value->location;
                auto field = std::find_if(named->inputFields.begin(), named->inputFields.end(), [&](const auto& f) { return f.name == name; });
                if (field == named->inputFields.end()) {
                    out.push_back({"field '" + name + "' is not defined by type '" + type.name + "'", {at}});
                } else {
                    literalProblems(value->fields[i].second, field->type, out);
                }
                if (auto [earlier, added] = firstOfName.emplace(name, i); !added) {
                    size_t j = earlier->second;
                    SourceLocation first = j < value->fieldLocations.size() ? value->fieldLocations[j] : value->location;
                    out.push_back({"There can be only one input field named '" + name + "'", {first, at}, "DuplicateInputField"});
                }
            }
            return;
        }
        using Kind = Value::Kind;
        bool fits = true;
        if (type.name == "Int") fits = value->kind == Kind::Int && fitsInt32(value->text);
        else if (type.name == "Float") fits = value->kind == Kind::Int || value->kind == Kind::Float;
        else if (type.name == "String") fits = value->kind == Kind::String;
        else if (type.name == "Boolean") fits = value->kind == Kind::Boolean;
        else if (type.name == "ID") fits = value->kind == Kind::String || value->kind == Kind::Int;
        if (!fits) out.push_back({invalid, {value->location}});
    }

    static bool fitsInt32(const std::string& text) {
        auto number = parseInt64(text);
        return number && *number >= INT32_MIN && *number <= INT32_MAX;
    }

    static std::string printValue(const ValuePtr& value) {
        if (!value) return "";
        switch (value->kind) {
            case Value::Kind::String: return "\"" + value->text + "\"";
            case Value::Kind::Variable: return "$" + value->text;
            case Value::Kind::Null: return "null";
            case Value::Kind::List: {
                std::string text = "[";
                for (size_t i = 0; i < value->list.size(); ++i) text += (i ? ", " : "") + printValue(value->list[i]);
                return text + "]";
            }
            case Value::Kind::Object: {
                std::string text = "{";
                for (size_t i = 0; i < value->fields.size(); ++i) {
                    text += (i ? ", " : "") + value->fields[i].first + ": " + printValue(value->fields[i].second);
                }
                return text + "}";
            }
            default: return value->text;
        }
    }

    // VariablesInAllowedPosition: a variable used where `type` is expected (in a position
    // with a default when `locationHasDefault`). Its usages are remembered for the fragment
    // being checked, for other operations that spread it.
    void checkVariablePositions(const ValuePtr& value, const TypeReference& type, bool locationHasDefault) {
        if (!value) return;
        if (value->kind == Value::Kind::Variable) {
            if (collecting_) collecting_->usages.push_back({value.get(), &type, locationHasDefault});
            checkVariablePosition(*value, type, locationHasDefault);
            return;
        }
        const TypeReference& inner = type.kind == TypeReference::Kind::NonNull ? *type.ofType : type;
        if (value->kind == Value::Kind::List && inner.kind == TypeReference::Kind::List) {
            for (const auto& item : value->list) checkVariablePositions(item, *inner.ofType, false);
        } else if (value->kind == Value::Kind::Object && inner.kind == TypeReference::Kind::Named) {
            const TypeDefinition* named = schema_.type(inner.name);
            if (!named) return;
            for (const auto& [name, item] : value->fields) {
                for (const auto& field : named->inputFields) {
                    if (field.name == name) checkVariablePositions(item, field.type, field.defaultValue.has_value());
                }
            }
        }
    }

    void checkVariablePosition(const Value& value, const TypeReference& type, bool locationHasDefault) {
        auto defined = variables_.find(value.text);
        if (defined == variables_.end()) return;  // UndefinedVariable is reported elsewhere
        const VariableDefinition& variable = *defined->second;
        const TypeReference* expected = &type;
        bool variableHasDefault = variable.defaultValue && variable.defaultValue->kind != Value::Kind::Null;
        if (type.kind == TypeReference::Kind::NonNull && variable.type.kind != TypeReference::Kind::NonNull &&
            (variableHasDefault || locationHasDefault)) {
            expected = type.ofType.get();
        }
        if (!isSubType(variable.type, *expected)) {
            report("VariableTypeMismatch", "Variable type '" + variable.type.toString() + "' doesn't match expected type '" +
                   type.toString() + "'", value.location, "", variable.location);
        }
    }

    static bool isSubType(const TypeReference& maybeSub, const TypeReference& super) {
        if (super.kind == TypeReference::Kind::NonNull) {
            return maybeSub.kind == TypeReference::Kind::NonNull && isSubType(*maybeSub.ofType, *super.ofType);
        }
        if (maybeSub.kind == TypeReference::Kind::NonNull) return isSubType(*maybeSub.ofType, super);
        if (super.kind == TypeReference::Kind::List) {
            return maybeSub.kind == TypeReference::Kind::List && isSubType(*maybeSub.ofType, *super.ofType);
        }
        return maybeSub.kind == TypeReference::Kind::Named && maybeSub.name == super.name;
    }

    // Checks a field's or directive's argument value: literal types and variable positions.
    void checkArgumentValue(const Argument& argument, const ArgumentDefinition& definition, const std::string& path) {
        if (!argument.value) return;  // the parser always gives one; nothing to check without
        std::vector<LiteralProblem> problems;
        literalProblems(argument.value, definition.type, problems);
        for (auto& problem : problems) {
            std::string detail = problem.type == "WrongType" ? "argument '" + argument.name + "' with " + problem.detail : problem.detail;
            reportAt(problem.type, detail, problem.locations, path);
        }
        checkVariablePositions(argument.value, definition.type, definition.defaultValue.has_value());
    }

    // PossibleFragmentSpreads: can an object of type `parent` also be of type `target`?
    bool typesOverlap(const TypeDefinition& parent, const TypeDefinition& target) const {
        if (parent.name == target.name) return true;
        if (parent.kind == TypeDefinition::Kind::Object) return schema_.isPossibleType(target.name, parent.name);
        if (target.kind == TypeDefinition::Kind::Object) return schema_.isPossibleType(parent.name, target.name);
        for (const auto& possible : parent.possibleTypes) {
            if (schema_.isPossibleType(target.name, possible)) return true;
        }
        return false;
    }

    // KnownDirectives' locations: @include and @skip belong on fields and fragment spreads only.
    void checkMisplacedDirectives(const std::vector<Directive>& directives, const std::string& path) {
        for (const auto& directive : directives) {
            if (directive.name == "include" || directive.name == "skip") {
                report("MisplacedDirective", "Directive " + directive.name + " not allowed here", directive.location, path);
            } else {
                report("UnknownDirective", "Unknown directive " + directive.name, directive.location, path);
            }
        }
    }

    // NoUndefinedVariables and NoUnusedVariables: every variable a value uses.
    void checkValueVariables(const ValuePtr& value) {
        if (!value) return;
        if (value->kind == Value::Kind::Variable) {
            if (collecting_) collecting_->variables.push_back(value.get());
            checkVariableDefined(*value);
        }
        for (const auto& item : value->list) checkValueVariables(item);
        for (const auto& [name, item] : value->fields) checkValueVariables(item);
    }

    void checkVariableDefined(const Value& variable) {
        usedVariables_.insert(variable.text);
        if (!definedVariables_.count(variable.text)) {
            // Where it is used, then the operation that lacks it (as graphql-js).
            std::vector<SourceLocation> locations = {variable.location};
            if (currentOperation_) locations.push_back(currentOperation_->location);
            reportAt("UndefinedVariable", "Undefined variable " + variable.text, std::move(locations), "");
        }
    }

    void checkDirectives(const std::vector<Directive>& directives, const std::string& path) {
        static const ArgumentDefinition ifArgument = argumentDef("if", "Boolean!");
        std::map<std::string, SourceLocation> seen;
        for (const auto& directive : directives) {
            if (directive.name != "include" && directive.name != "skip") {
                report("UnknownDirective", "Unknown directive " + directive.name, directive.location, path);
                continue;
            }
            if (auto [earlier, added] = seen.emplace(directive.name, directive.location); !added) {
                report("DuplicateDirectiveName", "Directive " + directive.name + " may only be used once per location",
                       directive.location, path, earlier->second);
            }
            bool hasIf = false;
            for (const auto& argument : directive.arguments) {
                checkValueVariables(argument.value);
                if (argument.name == "if") {
                    hasIf = true;
                    checkArgumentValue(argument, ifArgument, path);
                } else {
                    report("UnknownDirective", "Unknown directive argument " + argument.name, argument.location, path);
                }
            }
            if (!hasIf) report("MissingDirectiveArgument", "Missing directive argument if", directive.location, path);
        }
    }

    // OverlappingFieldsCanBeMerged: fields under one response key, wherever fragments bring
    // them from, must be the same field with the same arguments (unless their parents are
    // different object types, which never apply together), and their sub-selections merge.
    //
    // The fields of a selection set are its own (inline fragments' included) followed by
    // those of the fragments it spreads at its level, each fragment once: a fragment's own
    // fields and spreads are collected once per run. Comparing fields stays quadratic in the
    // fields under one key, so it has a budget (ValidationLimits::maxFieldComparisons).
    struct CollectedField {
        const Field* field;
        const TypeDefinition* parent;
    };
    using FieldsByKey = std::map<std::string, std::vector<CollectedField>>;

    // A fragment's own fields at its level, and the fragments it spreads there.
    struct LevelFields {
        bool collected = false;
        FieldsByKey fields;
        std::vector<size_t> spreads;
    };

    void collectOwnFields(const SelectionSet& selections, const TypeDefinition* parent, FieldsByKey& out,
                          std::vector<size_t>& spreads) {
        for (const auto& selection : selections) {
            switch (selection.kind) {
                case Selection::Kind::Field:
                    spendComparison();
                    out[selection.field.responseKey()].push_back({&selection.field, parent});
                    break;
                case Selection::Kind::InlineFragment: {
                    const auto& fragment = selection.inlineFragment;
                    const TypeDefinition* target = fragment.typeCondition.empty() ? parent : schema_.type(fragment.typeCondition);
                    if (target) collectOwnFields(fragment.selectionSet, target, out, spreads);
                    break;
                }
                case Selection::Kind::FragmentSpread: {
                    size_t target = graph_.indexOf(selection.spread.name);
                    if (target != FragmentGraph::kNone) spreads.push_back(target);
                    break;
                }
            }
        }
    }

    const LevelFields& levelFields(size_t fragment) {
        LevelFields& level = levelFields_[fragment];
        if (!level.collected) {
            level.collected = true;
            const FragmentDefinition& definition = document_.fragments[fragment];
            if (const TypeDefinition* target = schema_.type(definition.typeCondition)) {
                collectOwnFields(definition.selectionSet, target, level.fields, level.spreads);
            }
        }
        return level;
    }

    void collectFields(const SelectionSet& selections, const TypeDefinition* parent, FieldsByKey& out) {
        std::vector<size_t> pending;
        collectOwnFields(selections, parent, out, pending);
        std::vector<bool> taken(document_.fragments.size());
        for (size_t next = 0; next < pending.size() && !overBudget_; ++next) {
            size_t fragment = pending[next];
            if (taken[fragment]) continue;
            taken[fragment] = true;
            const LevelFields& level = levelFields(fragment);
            for (const auto& [key, entries] : level.fields) {
                auto& into = out[key];
                for (const auto& entry : entries) {
                    spendComparison();
                    into.push_back(entry);
                }
            }
            pending.insert(pending.end(), level.spreads.begin(), level.spreads.end());
        }
    }

    // One unit of the conflict check's budget; past it the check stops, with an error.
    void spendComparison() {
        if (++comparisons_ <= limits_.maxFieldComparisons || overBudget_) return;
        overBudget_ = true;
        GraphqlError error = limitError("maxFieldComparisons",
            "Validation error of type MaxFieldComparisonsExceeded: checking that the document's fields merge takes more than " +
                std::to_string(limits_.maxFieldComparisons) + " comparisons",
            {{"maximum", limits_.maxFieldComparisons}});
        errors_.push_back(std::move(error));
        aborted_ = true;
    }

    const std::string& argumentsText(const Field& field) {
        auto [found, added] = argumentsTexts_.try_emplace(&field);
        if (added) {
            std::vector<std::string> parts;
            for (const auto& argument : field.arguments) {
                parts.push_back(argument.name + ":" + (argument.value ? printValue(argument.value) : std::string()));
            }
            std::sort(parts.begin(), parts.end());
            for (const auto& part : parts) found->second += part + ",";
        }
        return found->second;
    }

    void checkFieldConflicts(const FieldsByKey& fields) {
        for (const auto& [key, entries] : fields) {
            if (entries.size() < 2 || interchangeable(entries)) continue;
            for (size_t i = 0; i < entries.size() && !overBudget_; ++i) {
                for (size_t j = i + 1; j < entries.size() && !overBudget_; ++j) checkFieldPair(key, entries[i], entries[j], {}, {}, "");
            }
        }
    }

    // The same leaf field with the same arguments, however often: nothing to compare (a
    // document that repeats a field thousands of times costs one pass).
    bool interchangeable(const std::vector<CollectedField>& entries) {
        const Field& first = *entries.front().field;
        for (const auto& entry : entries) {
            spendComparison();
            if (!entry.field->selectionSet.empty() || entry.field->name != first.name || argumentsText(*entry.field) != argumentsText(first)) {
                return false;
            }
        }
        return true;
    }

    // `chainA`/`chainB`: the locations of the parent fields through which `a` and `b` were
    // reached; a conflict lists A's side, then B's, as graphql-js does.
    void checkFieldPair(const std::string& key, const CollectedField& a, const CollectedField& b, std::vector<SourceLocation> chainA,
                        std::vector<SourceLocation> chainB, const std::string& prefix) {
        if (a.field == b.field) return;
        spendComparison();
        if (overBudget_) return;
        // Each pair of fields once: fragment cycles (reported elsewhere) would otherwise nest
        // the comparison without end, and repeated fragments would repeat it.
        auto pairKey = std::minmax(a.field, b.field);
        if (!comparedPairs_.insert({pairKey.first, pairKey.second}).second) return;
        bool exclusive = a.parent && b.parent && a.parent != b.parent && a.parent->kind == TypeDefinition::Kind::Object &&
                         b.parent->kind == TypeDefinition::Kind::Object;
        std::string reason;
        if (!exclusive && a.field->name != b.field->name) {
            reason = a.field->name + " and " + b.field->name + " are different fields";
        } else if (!exclusive && argumentsText(*a.field) != argumentsText(*b.field)) {
            reason = "they have differing arguments";
        }
        chainA.push_back(a.field->location);
        chainB.push_back(b.field->location);
        if (!reason.empty()) {
            std::vector<SourceLocation> locations = chainA;
            locations.insert(locations.end(), chainB.begin(), chainB.end());
            std::string pair;
            for (const auto& location : locations) pair += std::to_string(location.line) + ":" + std::to_string(location.column) + " ";
            if (reportedConflicts_.insert(pair).second) reportAt("FieldsConflict", prefix + key + ": " + reason, std::move(locations), "");
            return;
        }
        if (a.field->selectionSet.empty() || b.field->selectionSet.empty()) return;
        auto returnType = [&](const CollectedField& entry) -> const TypeDefinition* {
            const FieldDefinition* definition = entry.parent ? schema_.fieldOf(*entry.parent, entry.field->name) : nullptr;
            return definition ? schema_.type(namedType(definition->type)) : nullptr;
        };
        // Only pairs across the two sub-selections: each one alone is checked where it stands.
        FieldsByKey fromA, fromB;
        collectFields(a.field->selectionSet, returnType(a), fromA);
        collectFields(b.field->selectionSet, returnType(b), fromB);
        for (const auto& [subKey, entriesA] : fromA) {
            auto entriesB = fromB.find(subKey);
            if (entriesB == fromB.end()) continue;
            for (const auto& x : entriesA) {
                for (const auto& y : entriesB->second) {
                    if (overBudget_) return;
                    checkFieldPair(subKey, x, y, chainA, chainB, prefix + key + ": subfields ");
                }
            }
        }
    }

    // What a fragment's checking found that depends on the operation: the variables it uses
    // and where. Another operation that spreads the fragment checks these instead of the
    // fragment again.
    struct VariablePosition {
        const Value* variable;
        const TypeReference* expected;
        bool locationHasDefault;
    };
    struct FragmentFacts {
        bool checked = false;
        std::vector<const Value*> variables;
        std::vector<VariablePosition> usages;
    };

    // A fragment already checked (for an earlier operation, or earlier in this one): its
    // variables, and those of every fragment it reaches, for this operation, each once.
    void recheckVariables(size_t fragment) {
        if (reachedByOperation_[fragment]) return;
        std::vector<size_t> reached{fragment};
        reachedByOperation_[fragment] = true;
        for (size_t next = 0; next < reached.size(); ++next) {
            for (size_t target : graph_.spreadsOf(reached[next])) {
                if (!reachedByOperation_[target]) {
                    reachedByOperation_[target] = true;
                    reached.push_back(target);
                }
            }
        }
        for (size_t index : reached) {
            usedFragments_.insert(document_.fragments[index].name);
            for (const Value* variable : facts_[index].variables) checkVariableDefined(*variable);
            for (const auto& usage : facts_[index].usages) checkVariablePosition(*usage.variable, *usage.expected, usage.locationHasDefault);
        }
    }

    void checkSelectionSet(const SelectionSet& selections, const TypeDefinition& parent, const std::string& path) {
        if (aborted_) return;
        {
            FieldsByKey fields;
            collectFields(selections, &parent, fields);
            checkFieldConflicts(fields);
        }
        for (const auto& selection : selections) {
            if (aborted_) return;
            switch (selection.kind) {
                case Selection::Kind::Field: checkField(selection.field, parent, path); break;
                case Selection::Kind::InlineFragment: {
                    const auto& fragment = selection.inlineFragment;
                    checkDirectives(fragment.directives, path);
                    const TypeDefinition* target = &parent;
                    if (!fragment.typeCondition.empty()) {
                        target = schema_.type(fragment.typeCondition);
                        if (!target) {
                            report("UnknownType", "Unknown type " + fragment.typeCondition, fragment.typeConditionLocation, path);
                            break;
                        }
                        if (!target->isComposite()) {
                            report("InlineFragmentTypeConditionInvalid", "Fragment cannot condition on non composite type " + target->name,
                                   fragment.typeConditionLocation, path);
                            break;
                        }
                        if (!typesOverlap(parent, *target)) {
                            report("InvalidFragmentType", "Fragment cannot be spread here as objects of type " + parent.name +
                                   " can never be of type " + target->name, fragment.location, path);
                            break;
                        }
                    }
                    checkSelectionSet(fragment.selectionSet, *target, path);
                    break;
                }
                case Selection::Kind::FragmentSpread: checkSpread(selection.spread, parent, path); break;
            }
        }
    }

    // A fragment is checked once, where it is first spread (errors in it name that path); a
    // later spread checks only what depends on where it stands and on the operation.
    void checkSpread(const FragmentSpread& spread, const TypeDefinition& parent, const std::string& path) {
        checkDirectives(spread.directives, path);
        usedFragments_.insert(spread.name);
        size_t index = graph_.indexOf(spread.name);
        if (index == FragmentGraph::kNone) {
            report("UndefinedFragment", "Undefined fragment " + spread.name, spread.nameLocation, path);
            return;
        }
        const FragmentDefinition& definition = document_.fragments[index];
        const TypeDefinition* target = schema_.type(definition.typeCondition);
        if (target && target->isComposite() && !typesOverlap(parent, *target)) {
            report("InvalidFragmentType", "Fragment " + spread.name + " cannot be spread here as objects of type " +
                   parent.name + " can never be of type " + target->name, spread.location, path);
            return;
        }
        FragmentFacts& facts = facts_[index];
        if (facts.checked) {
            recheckVariables(index);
            return;
        }
        facts.checked = true;
        reachedByOperation_[index] = true;
        if (!target) {
            report("UnknownType", "Unknown type " + definition.typeCondition, definition.typeConditionLocation, path);
            return;
        }
        if (!target->isComposite()) return;  // reported once, at the definition
        FragmentFacts* outer = collecting_;
        collecting_ = &facts;
        checkSelectionSet(definition.selectionSet, *target, path);
        collecting_ = outer;
    }

    void checkField(const Field& field, const TypeDefinition& parent, const std::string& parentPath) {
        std::string path = parentPath.empty() ? field.responseKey() : parentPath + "/" + field.responseKey();
        checkDirectives(field.directives, path);
        if (field.name == "__typename") {
            if (!field.selectionSet.empty()) {
                report("SubSelectionNotAllowed", "Sub selection not allowed on leaf type String! of field __typename",
                       field.selectionSetLocation, path);
            }
            return;
        }
        const FieldDefinition* definition = schema_.fieldOf(parent, field.name);
        if (!definition) {
            report("FieldUndefined", "Field '" + field.name + "' in type '" + parent.name + "' is undefined",
                   field.location, path);
            return;
        }
        std::map<std::string, SourceLocation> given;
        for (const auto& argument : field.arguments) {
            checkValueVariables(argument.value);
            if (auto [earlier, added] = given.emplace(argument.name, argument.location); !added) {
                report("DuplicateArgumentNames", "There can be only one argument named " + argument.name,
                       argument.location, path, earlier->second);
            }
            if (const ArgumentDefinition* argumentDefinition = definition->argument(argument.name)) {
                checkArgumentValue(argument, *argumentDefinition, path);
            } else {
                report("UnknownArgument", "Unknown field argument " + argument.name, argument.location, path);
            }
        }
        for (const auto& argument : definition->arguments) {
            bool required = argument.type.kind == TypeReference::Kind::NonNull && !argument.defaultValue;
            if (required && !given.count(argument.name)) {
                report("MissingFieldArgument", "Missing field argument " + argument.name, field.location, path);
            }
        }
        const TypeDefinition* fieldType = schema_.type(namedType(definition->type));
        if (!fieldType) return;
        if (fieldType->isLeaf() && !field.selectionSet.empty()) {
            report("SubSelectionNotAllowed", "Sub selection not allowed on leaf type " + definition->type.toString() +
                   " of field " + field.name, field.selectionSetLocation, path);
        } else if (!fieldType->isLeaf() && field.selectionSet.empty()) {
            report("SubSelectionRequired", "Sub selection required for type " + definition->type.toString() +
                   " of field " + field.name, field.location, path);
        } else if (!fieldType->isLeaf()) {
            checkSelectionSet(field.selectionSet, *fieldType, path);
        }
    }

    const Schema& schema_;
    const Document& document_;
    const FragmentGraph& graph_;
    ValidationLimits limits_;
    std::vector<GraphqlError> errors_;
    bool aborted_ = false;     // too many errors, or over the comparison budget
    bool overBudget_ = false;
    size_t comparisons_ = 0;
    std::set<std::string> usedVariables_;
    std::set<std::string> definedVariables_;
    std::set<std::string> usedFragments_;
    std::vector<FragmentFacts> facts_;              // per fragment
    std::vector<bool> reachedByOperation_;          // per fragment: its variables counted for the current operation
    FragmentFacts* collecting_ = nullptr;           // the fragment being checked, which remembers its variables
    std::map<size_t, LevelFields> levelFields_;
    std::unordered_map<const Field*, std::string> argumentsTexts_;
    std::map<std::string, const VariableDefinition*> variables_;  // of the operation being checked
    std::set<std::string> reportedConflicts_;  // field location pairs, each conflict once
    std::set<std::pair<const Field*, const Field*>> comparedPairs_;
    const OperationDefinition* currentOperation_ = nullptr;
};

}  // namespace

std::vector<GraphqlError> Validator::validate(const Document& document) const {
    FragmentGraph graph(document);
    return validate(graph);
}

std::vector<GraphqlError> Validator::validate(const FragmentGraph& graph) const {
    return ValidationRun(schema_, graph, limits_).run();
}

}  // namespace svc::graphql
