#include "graphql/Validator.hpp"

#include <algorithm>
#include <set>

namespace svc::graphql {
namespace {

class ValidationRun {
public:
    ValidationRun(const Schema& schema, const Document& document) : schema_(schema), document_(document) {}

    std::vector<GraphqlError> run() {
        std::set<std::string> operationNames;
        for (const auto& operation : document_.operations) {
            if (document_.operations.size() > 1 && operation.name.empty()) {
                report("LoneAnonymousOperation", "Anonymous operation with other operations", operation.location, "");
            }
            if (!operation.name.empty() && !operationNames.insert(operation.name).second) {
                report("DuplicateOperationName", "There can be only one operation named '" + operation.name + "'",
                       operation.location, "");
            }
            const TypeDefinition* root = operation.operation == "query" ? schema_.type(schema_.queryTypeName()) : nullptr;
            if (!root) {
                report("UnknownOperation", "The schema does not support operation type '" + operation.operation + "'",
                       operation.location, "");
                continue;
            }
            usedVariables_.clear();
            definedVariables_.clear();
            for (const auto& variable : operation.variables) {
                definedVariables_.insert(variable.name);
                const std::string& typeName = namedType(variable.type);
                const TypeDefinition* type = schema_.type(typeName);
                if (!type) report("UnknownType", "Unknown type " + typeName, variable.location, "");
                else if (type->isComposite()) {
                    report("NonInputTypeOnVariable", "Input variable " + variable.name + " type " +
                           variable.type.toString() + " is not an input type", variable.location, "");
                }
            }
            visitedFragments_.clear();
            checkSelectionSet(operation.selectionSet, *root, "");
            for (const auto& variable : operation.variables) {
                if (!usedVariables_.count(variable.name)) {
                    report("UnusedVariable", "Unused variable " + variable.name, variable.location, "");
                }
            }
        }
        std::set<std::string> inCycle;
        for (const auto& fragment : document_.fragments) {
            std::vector<std::string> path;
            if (inCycle.count(fragment.name)) continue;
            if (reachesItself(fragment.name, fragment.selectionSet, path)) {
                inCycle.insert(path.begin(), path.end());
                report("FragmentCycle", "Fragment cycles not allowed", fragment.location, "");
            }
        }
        std::set<std::string> fragmentNames;
        for (const auto& fragment : document_.fragments) {
            if (!fragmentNames.insert(fragment.name).second) {
                report("DuplicateFragmentName", "There can be only one fragment named '" + fragment.name + "'",
                       fragment.location, "");
            }
            if (!usedFragments_.count(fragment.name)) {
                report("UnusedFragment", "Unused fragment " + fragment.name, fragment.location, "");
            }
        }
        return std::move(errors_);
    }

private:
    const FragmentDefinition* fragmentNamed(const std::string& name) const {
        for (const auto& fragment : document_.fragments) {
            if (fragment.name == name) return &fragment;
        }
        return nullptr;
    }

    // Depth-first over spreads (through fields and inline fragments): does `start` spread itself?
    bool reachesItself(const std::string& start, const SelectionSet& selections, std::vector<std::string>& path) const {
        for (const auto& selection : selections) {
            const SelectionSet* inner = nullptr;
            if (selection.kind == Selection::Kind::Field) inner = &selection.field.selectionSet;
            else if (selection.kind == Selection::Kind::InlineFragment) inner = &selection.inlineFragment.selectionSet;
            if (inner) {
                if (reachesItself(start, *inner, path)) return true;
                continue;
            }
            const std::string& name = selection.spread.name;
            if (name == start) return true;
            if (std::find(path.begin(), path.end(), name) != path.end()) continue;  // another cycle, found from its own start
            const FragmentDefinition* target = fragmentNamed(name);
            if (!target) continue;
            path.push_back(name);
            if (reachesItself(start, target->selectionSet, path)) return true;
            path.pop_back();
        }
        return false;
    }

    void report(const std::string& type, const std::string& detail, SourceLocation location, const std::string& path) {
        GraphqlError error;
        error.message = "Validation error of type " + type + ": " + detail + (path.empty() ? "" : " @ '" + path + "'");
        error.locations.push_back(location);
        error.errorType = "ValidationError";
        errors_.push_back(std::move(error));
    }

    void checkValueVariables(const ValuePtr& value) {
        if (!value) return;
        if (value->kind == Value::Kind::Variable) {
            usedVariables_.insert(value->text);
            if (!definedVariables_.count(value->text)) {
                report("UndefinedVariable", "Undefined variable " + value->text, value->location, "");
            }
        }
        for (const auto& item : value->list) checkValueVariables(item);
        for (const auto& [name, item] : value->fields) checkValueVariables(item);
    }

    void checkDirectives(const std::vector<Directive>& directives, const std::string& path) {
        for (const auto& directive : directives) {
            if (directive.name != "include" && directive.name != "skip") {
                report("UnknownDirective", "Unknown directive " + directive.name, directive.location, path);
                continue;
            }
            bool hasIf = false;
            for (const auto& argument : directive.arguments) {
                checkValueVariables(argument.value);
                if (argument.name == "if") hasIf = true;
                else report("UnknownDirective", "Unknown directive argument " + argument.name, argument.location, path);
            }
            if (!hasIf) report("MissingDirectiveArgument", "Missing directive argument if", directive.location, path);
        }
    }

    void checkSelectionSet(const SelectionSet& selections, const TypeDefinition& parent, const std::string& path) {
        for (const auto& selection : selections) {
            switch (selection.kind) {
                case Selection::Kind::Field: checkField(selection.field, parent, path); break;
                case Selection::Kind::InlineFragment: {
                    const auto& fragment = selection.inlineFragment;
                    checkDirectives(fragment.directives, path);
                    const TypeDefinition* target = &parent;
                    if (!fragment.typeCondition.empty()) {
                        target = schema_.type(fragment.typeCondition);
                        if (!target) {
                            report("UnknownType", "Unknown type " + fragment.typeCondition, fragment.location, path);
                            break;
                        }
                    }
                    checkSelectionSet(fragment.selectionSet, *target, path);
                    break;
                }
                case Selection::Kind::FragmentSpread: {
                    const auto& spread = selection.spread;
                    checkDirectives(spread.directives, path);
                    usedFragments_.insert(spread.name);
                    const FragmentDefinition* definition = nullptr;
                    for (const auto& fragment : document_.fragments) {
                        if (fragment.name == spread.name) definition = &fragment;
                    }
                    if (!definition) {
                        report("UndefinedFragment", "Undefined fragment " + spread.name, spread.location, path);
                        break;
                    }
                    if (visitedFragments_.count(spread.name)) break;  // cycles are reported once, not followed
                    visitedFragments_.insert(spread.name);
                    const TypeDefinition* target = schema_.type(definition->typeCondition);
                    if (!target) {
                        report("UnknownType", "Unknown type " + definition->typeCondition, definition->location, path);
                        break;
                    }
                    checkSelectionSet(definition->selectionSet, *target, path);
                    visitedFragments_.erase(spread.name);
                    break;
                }
            }
        }
    }

    void checkField(const Field& field, const TypeDefinition& parent, const std::string& parentPath) {
        std::string path = parentPath.empty() ? field.responseKey() : parentPath + "/" + field.responseKey();
        checkDirectives(field.directives, path);
        if (field.name == "__typename") {
            if (!field.selectionSet.empty()) {
                report("SubSelectionNotAllowed", "Sub selection not allowed on leaf type String! of field __typename",
                       field.location, path);
            }
            return;
        }
        const FieldDefinition* definition = schema_.fieldOf(parent, field.name);
        if (!definition) {
            report("FieldUndefined", "Field '" + field.name + "' in type '" + parent.name + "' is undefined",
                   field.location, path);
            return;
        }
        std::set<std::string> given;
        for (const auto& argument : field.arguments) {
            checkValueVariables(argument.value);
            if (!given.insert(argument.name).second) {
                report("DuplicateArgumentNames", "There can be only one argument named " + argument.name,
                       argument.location, path);
            }
            if (!definition->argument(argument.name)) {
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
                   " of field " + field.name, field.location, path);
        } else if (!fieldType->isLeaf() && field.selectionSet.empty()) {
            report("SubSelectionRequired", "Sub selection required for type " + definition->type.toString() +
                   " of field " + field.name, field.location, path);
        } else if (!fieldType->isLeaf()) {
            checkSelectionSet(field.selectionSet, *fieldType, path);
        }
    }

    const Schema& schema_;
    const Document& document_;
    std::vector<GraphqlError> errors_;
    std::set<std::string> usedVariables_;
    std::set<std::string> definedVariables_;
    std::set<std::string> usedFragments_;
    std::set<std::string> visitedFragments_;
};

}  // namespace

std::vector<GraphqlError> Validator::validate(const Document& document) const {
    return ValidationRun(schema_, document).run();
}

}  // namespace svc::graphql
