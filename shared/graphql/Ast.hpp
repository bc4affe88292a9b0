#pragma once
// Abstract syntax tree of an executable GraphQL document.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace svc::graphql {

struct SourceLocation {
    size_t line = 1;
    size_t column = 1;
};

struct Value;
using ValuePtr = std::shared_ptr<Value>;

struct Value {
    enum class Kind { Null, Int, Float, String, Boolean, Enum, List, Object, Variable };
    Kind kind = Kind::Null;
    std::string text;  // Int/Float/String/Enum text, variable name, "true"/"false"
    std::vector<ValuePtr> list;
    std::vector<std::pair<std::string, ValuePtr>> fields;  // object fields in source order
    std::vector<SourceLocation> fieldLocations;            // where each field's name starts (parallel to fields)
    SourceLocation location;
};

struct TypeReference {
    enum class Kind { Named, List, NonNull };
    Kind kind = Kind::Named;
    std::string name;                     // for Named
    std::shared_ptr<TypeReference> ofType;  // for List and NonNull
    std::string toString() const;
};

struct Argument {
    std::string name;
    ValuePtr value;
    SourceLocation location;
};

struct Directive {
    std::string name;
    std::vector<Argument> arguments;
    SourceLocation location;
};

struct Selection;
using SelectionSet = std::vector<Selection>;

struct Field {
    std::string alias;  // empty when none
    std::string name;
    std::vector<Argument> arguments;
    std::vector<Directive> directives;
    SelectionSet selectionSet;
    SourceLocation location;
    SourceLocation selectionSetLocation;  // its "{", when it has one
    const std::string& responseKey() const { return alias.empty() ? name : alias; }
};

struct FragmentSpread {
    std::string name;
    std::vector<Directive> directives;
    SourceLocation location;      // the "..."
    SourceLocation nameLocation;  // where errors about the name point (as graphql-js)
};

struct InlineFragment {
    std::string typeCondition;  // empty when none
    std::vector<Directive> directives;
    SelectionSet selectionSet;
    SourceLocation location;
    SourceLocation typeConditionLocation;
};

struct Selection {
    enum class Kind { Field, FragmentSpread, InlineFragment };
    Kind kind = Kind::Field;
    Field field;
    FragmentSpread spread;
    InlineFragment inlineFragment;
};

struct VariableDefinition {
    std::string name;
    TypeReference type;
    ValuePtr defaultValue;  // null when none
    SourceLocation location;      // the "$"
    SourceLocation nameLocation;  // where errors about the name point (as graphql-js)
};

struct OperationDefinition {
    std::string operation = "query";  // query, mutation, subscription
    std::string name;
    std::vector<VariableDefinition> variables;
    std::vector<Directive> directives;
    SelectionSet selectionSet;
    SourceLocation location;
    SourceLocation nameLocation;  // the name's, when named
};

struct FragmentDefinition {
    std::string name;
    std::string typeCondition;
    std::vector<Directive> directives;
    SelectionSet selectionSet;
    SourceLocation location;
    SourceLocation nameLocation;
    SourceLocation typeConditionLocation;
};

struct Document {
    std::vector<OperationDefinition> operations;
    std::vector<FragmentDefinition> fragments;
};

}  // namespace svc::graphql
