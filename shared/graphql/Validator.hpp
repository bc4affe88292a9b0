#pragma once
// Validates a parsed document against the schema (GraphQL spec, section 5). Error
// messages follow graphql-java: "Validation error of type <Type>: <detail> @ '<path>'".
//
// Linear in the document however its fragments are spread: each fragment is checked once
// (where it is first spread), and what a later spread needs from it is remembered
// (docs/adr/0053). The one quadratic rule, that fields under one response key merge, has a
// budget.
#include <cstddef>
#include <vector>

#include "graphql/Ast.hpp"
#include "graphql/FragmentGraph.hpp"
#include "graphql/GraphqlError.hpp"
#include "graphql/Schema.hpp"

namespace svc::graphql {

struct ValidationLimits {
    size_t maxErrors = 100;                 // then one more error says validation stopped (as graphql-js)
    size_t maxFieldComparisons = 50000;     // work of the field-merging rule (fields collected and pairs compared)
    int maxNesting = 128;                   // selection sets nested through fragments (checking recurses this deep)
};

class Validator {
public:
    explicit Validator(const Schema& schema, ValidationLimits limits = {}) : schema_(schema), limits_(limits) {}
    std::vector<GraphqlError> validate(const Document& document) const;
    // The same with the document's fragment graph, when the caller has it.
    std::vector<GraphqlError> validate(const FragmentGraph& fragments) const;

private:
    const Schema& schema_;
    ValidationLimits limits_;
};

}  // namespace svc::graphql
