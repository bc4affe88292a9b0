#pragma once
// Recursive-descent parser for executable GraphQL documents (GraphQL spec, section 2).
// Nesting is bounded so that hostile input cannot exhaust the stack.
#include <string_view>

#include "core/Result.hpp"
#include "graphql/Ast.hpp"
#include "graphql/Lexer.hpp"

namespace svc::graphql {

struct SyntaxError {
    std::string message;
    SourceLocation location;
};

class Parser {
public:
    static constexpr int kMaxNesting = 128;

    explicit Parser(std::string_view source) : lexer_(source) {}
    // The document, or the first syntax error with its location.
    Result<Document> parseDocument();
    const SyntaxError& lastError() const { return error_; }

private:
    bool advance();
    bool peekPunctuator(std::string_view text) const;
    bool peekName(std::string_view text) const;
    bool expectPunctuator(std::string_view text);
    bool expectName(std::string& out);
    bool fail(const std::string& message);
    bool fail(const std::string& message, SourceLocation at);

    bool parseOperation(Document& document);
    bool parseFragment(Document& document);
    bool parseVariableDefinitions(std::vector<VariableDefinition>& out);
    bool parseType(TypeReference& out);
    bool parseDirectives(std::vector<Directive>& out, bool constant);
    bool parseArguments(std::vector<Argument>& out, bool constant);
    bool parseValue(ValuePtr& out, bool constant);
    bool parseSelectionSet(SelectionSet& out);
    bool parseSelection(Selection& out);

    Lexer lexer_;
    Token current_;
    SyntaxError error_;
    int nesting_ = 0;
};

}  // namespace svc::graphql
