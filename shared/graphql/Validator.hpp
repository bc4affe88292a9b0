#pragma once
// Validates a parsed document against the schema (GraphQL spec, section 5). Error
// messages follow graphql-java: "Validation error of type <Type>: <detail> @ '<path>'".
#include <vector>

#include "graphql/Ast.hpp"
#include "graphql/GraphqlError.hpp"
#include "graphql/Schema.hpp"

namespace svc::graphql {

class Validator {
public:
    explicit Validator(const Schema& schema) : schema_(schema) {}
    std::vector<GraphqlError> validate(const Document& document) const;

private:
    const Schema& schema_;
};

}  // namespace svc::graphql
