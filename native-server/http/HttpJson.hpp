#pragma once
// The HTTP boundary's one JSON body reader and one JSON writer (docs/adr/0079). Every route
// class reads request bodies and writes answers through these, so a body limit, a Content-Type
// rule or a caching rule is decided here once.
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/Result.hpp"

namespace svc {

enum class JsonCaching {
    Default,  // no Cache-Control: the route sets one if it wants to
    NoStore,  // tenant settings, secrets, import states: never kept by a cache
};

void sendJsonText(httplib::Response& response, int status, std::string text, JsonCaching caching);

// `Json` is nlohmann::json unless the route keeps its members in insertion order (ordered_json).
template <class Json = nlohmann::json>
void sendJson(httplib::Response& response, int status, const Json& body, JsonCaching caching = JsonCaching::Default) {
    sendJsonText(response, status, body.dump(), caching);
}

struct JsonBodyRules {
    // Operator API: a Content-Type naming application/json is required; the public set and
    // template routes also take a body without one (curl -d without -H).
    bool contentTypeRequired = true;
    // Every body but the set and template files (objects or arrays, SetJson says) is an object.
    bool objectRequired = true;
};

// The request's body as JSON, within BoundedJson's limits; the error names the line and column
// where parsing stopped, or the rule the body breaks.
Result<nlohmann::json> readJsonBody(const httplib::Request& request, JsonBodyRules rules = {});
// A body already read (a route that checks other things first): a JSON object, or an error naming it.
Result<nlohmann::json> parseJsonObject(const std::string& body);
// A string member, or an error naming it.
Result<std::string> jsonStringMember(const nlohmann::json& body, const std::string& field);

}  // namespace svc
