#include "http/HttpJson.hpp"

#include "text/BoundedJson.hpp"

namespace svc {

void sendJsonText(httplib::Response& response, int status, std::string text, JsonCaching caching) {
    response.status = status;
    if (caching == JsonCaching::NoStore) response.set_header("Cache-Control", "no-store");
    response.set_content(std::move(text), "application/json");
}

Result<nlohmann::json> readJsonBody(const httplib::Request& request, JsonBodyRules rules) {
    std::string type = request.get_header_value("Content-Type");
    bool named = !type.empty() || rules.contentTypeRequired;
    if (named && type.find("application/json") == std::string::npos) {
        return Error::invalidField("Content-Type", "must be application/json").withId("svc.http.103");
    }
    if (rules.objectRequired) return parseJsonObject(request.body);
    return BoundedJson::parse(request.body, "body");
}

Result<nlohmann::json> parseJsonObject(const std::string& body) {
    auto parsed = BoundedJson::parse(body, "body");
    if (!parsed) return parsed.error();
    if (!parsed->is_object()) return Error::invalidField("body", "must be a JSON object");
    return parsed;
}

Result<std::string> jsonStringMember(const nlohmann::json& body, const std::string& field) {
    const auto& value = body.at(field);
    if (!value.is_string()) return Error::invalidField(field, "must be a string");
    return value.get<std::string>();
}

}  // namespace svc
