#include "graphql/Parser.hpp"

namespace svc::graphql {
namespace {

std::string describe(const Token& token) {
    switch (token.kind) {
        case Token::Kind::EndOfFile: return "<EOF>";
        case Token::Kind::String: return "'\"" + token.text + "\"'";
        default: return "'" + token.text + "'";
    }
}

// Nesting guard for recursive productions.
struct NestingGuard {
    int& depth;
    explicit NestingGuard(int& d) : depth(d) { ++depth; }
    ~NestingGuard() { --depth; }
};

}  // namespace

std::string TypeReference::toString() const {
    switch (kind) {
        case Kind::Named: return name;
        case Kind::List: return "[" + ofType->toString() + "]";
        case Kind::NonNull: return ofType->toString() + "!";
    }
    return name;
}

bool Parser::fail(const std::string& message, SourceLocation at) {
    if (error_.message.empty()) {
        error_.message = message;
        error_.location = at;
    }
    return false;
}

bool Parser::fail(const std::string& message) { return fail(message, current_.location); }

bool Parser::count(size_t& counter, size_t maximum, const char* limit, const char* what) {
    if (++counter <= maximum) return true;
    if (error_.message.empty()) {
        error_.message = "query: the document has more than the maximum of " + std::to_string(maximum) + " " + what;
        error_.location = current_.location;
        error_.limit = limit;
        error_.maximum = maximum;
    }
    return false;
}

bool Parser::advance() {
    if (!count(tokens_, limits_.maxTokens, "maxTokens", "tokens")) return false;
    auto token = lexer_.next();
    if (!token) {
        // Lexer messages start with "line:column: "; keep the location separately.
        const std::string& text = token.error().message;
        size_t first = text.find(':');
        size_t second = text.find(':', first + 1);
        SourceLocation at{std::stoul(text.substr(0, first)), std::stoul(text.substr(first + 1, second - first - 1))};
        return fail(text.substr(second + 2), at);
    }
    current_ = std::move(token.value());
    return true;
}

bool Parser::peekPunctuator(std::string_view text) const {
    return current_.kind == Token::Kind::Punctuator && current_.text == text;
}

bool Parser::peekName(std::string_view text) const { return current_.kind == Token::Kind::Name && current_.text == text; }

bool Parser::expectPunctuator(std::string_view text) {
    if (!peekPunctuator(text)) return fail("offending token " + describe(current_) + ", expected '" + std::string(text) + "'");
    return advance();
}

bool Parser::expectName(std::string& out) {
    if (current_.kind != Token::Kind::Name) return fail("offending token " + describe(current_) + ", expected a name");
    out = current_.text;
    return advance();
}

Result<Document> Parser::parseDocument() {
    Document document;
    if (!advance()) return Error::invalidArgument(error_.message);
    if (current_.kind == Token::Kind::EndOfFile) {
        fail("the document contains no operation");
        return Error::invalidArgument(error_.message);
    }
    while (current_.kind != Token::Kind::EndOfFile) {
        if (!count(definitions_, limits_.maxDefinitions, "maxDefinitions", "operations and fragments")) {
            return Error::invalidArgument(error_.message);
        }
        bool ok;
        if (peekName("fragment")) ok = parseFragment(document);
        else if (peekPunctuator("{") || peekName("query") || peekName("mutation") || peekName("subscription")) ok = parseOperation(document);
        else ok = fail("offending token " + describe(current_) + ", expected an operation or fragment");
        if (!ok) return Error::invalidArgument(error_.message);
    }
    return document;
}

bool Parser::parseOperation(Document& document) {
    OperationDefinition operation;
    operation.location = current_.location;
    if (peekPunctuator("{")) {
        if (!parseSelectionSet(operation.selectionSet)) return false;
        document.operations.push_back(std::move(operation));
        return true;
    }
    operation.operation = current_.text;
    if (!advance()) return false;
    operation.nameLocation = current_.location;
    if (current_.kind == Token::Kind::Name && !expectName(operation.name)) return false;
    if (peekPunctuator("(") && !parseVariableDefinitions(operation.variables)) return false;
    if (!parseDirectives(operation.directives, false)) return false;
    if (!parseSelectionSet(operation.selectionSet)) return false;
    document.operations.push_back(std::move(operation));
    return true;
}

bool Parser::parseFragment(Document& document) {
    FragmentDefinition fragment;
    fragment.location = current_.location;
    if (!advance()) return false;
    if (peekName("on")) return fail("offending token 'on', expected a fragment name");
    fragment.nameLocation = current_.location;
    if (!expectName(fragment.name)) return false;
    if (!peekName("on")) return fail("offending token " + describe(current_) + ", expected 'on'");
    if (!advance()) return false;
    fragment.typeConditionLocation = current_.location;
    if (!expectName(fragment.typeCondition)) return false;
    if (!parseDirectives(fragment.directives, false)) return false;
    if (!parseSelectionSet(fragment.selectionSet)) return false;
    document.fragments.push_back(std::move(fragment));
    return true;
}

bool Parser::parseVariableDefinitions(std::vector<VariableDefinition>& out) {
    if (!expectPunctuator("(")) return false;
    do {
        VariableDefinition definition;
        definition.location = current_.location;
        if (!expectPunctuator("$")) return false;
        definition.nameLocation = current_.location;
        if (!expectName(definition.name)) return false;
        if (!expectPunctuator(":")) return false;
        if (!parseType(definition.type)) return false;
        if (peekPunctuator("=")) {
            if (!advance()) return false;
            if (!parseValue(definition.defaultValue, true)) return false;
        }
        std::vector<Directive> ignored;
        if (!parseDirectives(ignored, true)) return false;
        out.push_back(std::move(definition));
    } while (!peekPunctuator(")"));
    return advance();
}

bool Parser::parseType(TypeReference& out) {
    NestingGuard guard(nesting_);
    if (nesting_ > kMaxNesting) return fail("document nesting is too deep");
    if (peekPunctuator("[")) {
        if (!advance()) return false;
        auto inner = std::make_shared<TypeReference>();
        if (!parseType(*inner)) return false;
        if (!expectPunctuator("]")) return false;
        out.kind = TypeReference::Kind::List;
        out.ofType = inner;
    } else {
        out.kind = TypeReference::Kind::Named;
        if (!expectName(out.name)) return false;
    }
    if (peekPunctuator("!")) {
        if (!advance()) return false;
        auto inner = std::make_shared<TypeReference>(out);
        out = TypeReference{TypeReference::Kind::NonNull, "", inner};
    }
    return true;
}

bool Parser::parseDirectives(std::vector<Directive>& out, bool constant) {
    while (peekPunctuator("@")) {
        Directive directive;
        directive.location = current_.location;
        if (!advance()) return false;
        if (!expectName(directive.name)) return false;
        if (peekPunctuator("(") && !parseArguments(directive.arguments, constant)) return false;
        out.push_back(std::move(directive));
    }
    return true;
}

bool Parser::parseArguments(std::vector<Argument>& out, bool constant) {
    if (!expectPunctuator("(")) return false;
    do {
        Argument argument;
        argument.location = current_.location;
        if (!expectName(argument.name)) return false;
        if (!expectPunctuator(":")) return false;
        if (!parseValue(argument.value, constant)) return false;
        out.push_back(std::move(argument));
    } while (!peekPunctuator(")"));
    return advance();
}

bool Parser::parseValue(ValuePtr& out, bool constant) {
    NestingGuard guard(nesting_);
    if (nesting_ > kMaxNesting) return fail("document nesting is too deep");
    out = std::make_shared<Value>();
    out->location = current_.location;
    switch (current_.kind) {
        case Token::Kind::Int: out->kind = Value::Kind::Int; out->text = current_.text; return advance();
        case Token::Kind::Float: out->kind = Value::Kind::Float; out->text = current_.text; return advance();
        case Token::Kind::String:
        case Token::Kind::BlockString: out->kind = Value::Kind::String; out->text = current_.text; return advance();
        case Token::Kind::Name:
            if (current_.text == "true" || current_.text == "false") out->kind = Value::Kind::Boolean;
            else if (current_.text == "null") out->kind = Value::Kind::Null;
            else out->kind = Value::Kind::Enum;
            out->text = current_.text;
            return advance();
        case Token::Kind::Punctuator:
            if (current_.text == "$") {
                if (constant) return fail("offending token '$', variables are not allowed here");
                if (!advance()) return false;
                out->kind = Value::Kind::Variable;
                return expectName(out->text);
            }
            if (current_.text == "[") {
                out->kind = Value::Kind::List;
                if (!advance()) return false;
                while (!peekPunctuator("]")) {
                    if (current_.kind == Token::Kind::EndOfFile) return fail("offending token <EOF>, expected ']'");
                    ValuePtr item;
                    if (!parseValue(item, constant)) return false;
                    out->list.push_back(item);
                }
                return advance();
            }
            if (current_.text == "{") {
                out->kind = Value::Kind::Object;
                if (!advance()) return false;
                while (!peekPunctuator("}")) {
                    std::string name;
                    SourceLocation nameLocation = current_.location;
                    if (!expectName(name)) return false;
                    if (!expectPunctuator(":")) return false;
                    ValuePtr item;
                    if (!parseValue(item, constant)) return false;
                    out->fields.emplace_back(std::move(name), item);
                    out->fieldLocations.push_back(nameLocation);
                }
                return advance();
            }
            [[fallthrough]];
        default: return fail("offending token " + describe(current_) + ", expected a value");
    }
}

bool Parser::parseSelectionSet(SelectionSet& out) {
    NestingGuard guard(nesting_);
    if (nesting_ > kMaxNesting) return fail("document nesting is too deep");
    if (!expectPunctuator("{")) return false;
    do {
        Selection selection;
        if (!parseSelection(selection)) return false;
        out.push_back(std::move(selection));
    } while (!peekPunctuator("}"));
    return advance();
}

bool Parser::parseSelection(Selection& out) {
    if (!count(selections_, limits_.maxSelections, "maxSelections", "selections (fields, fragment spreads and inline fragments)")) {
        return false;
    }
    if (peekPunctuator("...")) {
        SourceLocation at = current_.location;
        if (!advance()) return false;
        if (current_.kind == Token::Kind::Name && current_.text != "on") {
            out.kind = Selection::Kind::FragmentSpread;
            out.spread.location = at;
            out.spread.nameLocation = current_.location;
            if (!expectName(out.spread.name)) return false;
            return parseDirectives(out.spread.directives, false);
        }
        out.kind = Selection::Kind::InlineFragment;
        out.inlineFragment.location = at;
        if (peekName("on")) {
            if (!advance()) return false;
            out.inlineFragment.typeConditionLocation = current_.location;
            if (!expectName(out.inlineFragment.typeCondition)) return false;
        }
        if (!parseDirectives(out.inlineFragment.directives, false)) return false;
        return parseSelectionSet(out.inlineFragment.selectionSet);
    }
    out.kind = Selection::Kind::Field;
    Field& field = out.field;
    field.location = current_.location;
    if (!expectName(field.name)) return false;
    if (peekPunctuator(":")) {
        if (!count(aliases_, limits_.maxAliases, "maxAliases", "aliases")) return false;
        if (!advance()) return false;
        field.alias = field.name;
        if (!expectName(field.name)) return false;
    }
    if (peekPunctuator("(") && !parseArguments(field.arguments, false)) return false;
    if (!parseDirectives(field.directives, false)) return false;
    field.selectionSetLocation = current_.location;
    if (peekPunctuator("{") && !parseSelectionSet(field.selectionSet)) return false;
    return true;
}

}  // namespace svc::graphql
