#pragma once
// What resolvers hand back to the engine. Resolvers are plain classes that know
// nothing of parsing, validation or response shape.
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.hpp"

namespace svc::graphql {

class ObjectResolver;

struct ResolvedValue {
    // null, a scalar or enum as JSON, an object, a list of values, or a string scalar (most
    // leaves are strings; holding them as std::string spares the JSON value around them).
    // A std::string_view is text the resolver does not copy: it must stay valid for as long
    // as the resolver object that returned it (the executor writes it out before letting go).
    std::variant<std::nullptr_t, nlohmann::json, std::shared_ptr<const ObjectResolver>, std::vector<ResolvedValue>, std::string,
                 std::string_view>
        value;

    static ResolvedValue null() { return {nullptr}; }
    static ResolvedValue scalar(nlohmann::json json) { return {std::move(json)}; }
    static ResolvedValue scalar(std::string text) { return {std::move(text)}; }
    static ResolvedValue scalar(const char* text) { return {std::string(text)}; }
    static ResolvedValue borrowed(std::string_view text) { return {text}; }
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
    virtual std::string_view typeName() const = 0;
    virtual Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const = 0;
};

using ObjectPtr = std::shared_ptr<const ObjectResolver>;

}  // namespace svc::graphql
