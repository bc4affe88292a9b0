#pragma once
// What resolvers hand back to the engine. Resolvers are plain classes that know
// nothing of parsing, validation or response shape.
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.hpp"

namespace svc::graphql {

class ObjectResolver;

struct ResolvedValue {
    // null, a scalar or enum as JSON, an object, or a list of values.
    std::variant<std::nullptr_t, nlohmann::json, std::shared_ptr<const ObjectResolver>, std::vector<ResolvedValue>> value;

    static ResolvedValue null() { return {nullptr}; }
    static ResolvedValue scalar(nlohmann::json json) { return {std::move(json)}; }
    static ResolvedValue object(std::shared_ptr<const ObjectResolver> object) {
        if (!object) return null();
        return {std::move(object)};
    }
    static ResolvedValue list(std::vector<ResolvedValue> items) { return {std::move(items)}; }
};

// Arguments after coercion, as a JSON object: given arguments and those with defaults;
// a nullable argument without default that was not given is absent.
using ArgumentValues = nlohmann::json;

class ObjectResolver {
public:
    virtual ~ObjectResolver() = default;
    virtual std::string typeName() const = 0;
    virtual Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const = 0;
};

using ObjectPtr = std::shared_ptr<const ObjectResolver>;

}  // namespace svc::graphql
