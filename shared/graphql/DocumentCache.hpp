#pragma once
// Parsed-and-validated documents by their text, so that a repeated query (the normal case:
// clients send the same few documents with different variables) skips the lexer, the
// parser and the validator. Bounded, least recently used out first; thread-safe.
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "graphql/Ast.hpp"
#include "graphql/FragmentGraph.hpp"
#include "graphql/GraphqlError.hpp"

namespace svc::graphql {

struct PreparedDocument {
    std::shared_ptr<const Document> document;  // null when it did not parse
    std::vector<GraphqlError> errors;          // syntax or validation errors; empty when valid
    bool syntaxError = false;
    std::shared_ptr<const FragmentGraph> fragments;  // of `document`, when it is valid
    // Per operation: its cost when no variable changes it (QueryCost), computed once.
    std::vector<std::optional<uint64_t>> fixedCosts;
};

class DocumentCache {
public:
    explicit DocumentCache(size_t capacity) : capacity_(capacity) {}

    std::shared_ptr<const PreparedDocument> find(const std::string& text);
    void insert(const std::string& text, std::shared_ptr<const PreparedDocument> prepared);
    size_t size() const;

private:
    using Order = std::list<std::string>;  // most recently used first
    struct Entry {
        std::shared_ptr<const PreparedDocument> prepared;
        Order::iterator position;
    };
    size_t capacity_;
    mutable std::mutex mutex_;
    Order order_;
    std::unordered_map<std::string, Entry> entries_;
};

}  // namespace svc::graphql
