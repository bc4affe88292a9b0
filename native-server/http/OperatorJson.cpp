#include "http/OperatorJson.hpp"

#include "text/BoundedJson.hpp"

namespace svc {

void sendOperatorJson(httplib::Response& response, int status, const nlohmann::json& body) {
    response.status = status;
    response.set_header("Cache-Control", "no-store");
    response.set_content(body.dump(), "application/json");
}

Result<nlohmann::json> operatorJsonBody(const httplib::Request& request) {
    std::string type = request.get_header_value("Content-Type");
    if (type.find("application/json") == std::string::npos) return Error::invalidArgument("Content-Type: must be application/json");
    auto body = BoundedJson::parse(request.body, "body");
    if (!body) return body.error();
    if (!body->is_object()) return Error::invalidArgument("body: must be a JSON object");
    return body;
}

Result<std::string> operatorStringField(const nlohmann::json& body, const std::string& field) {
    const auto& value = body.at(field);
    if (!value.is_string()) return Error::invalidArgument(field + ": must be a string");
    return value.get<std::string>();
}

}  // namespace svc
