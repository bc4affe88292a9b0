#pragma once
// The operator API's JSON plumbing, shared by its route classes: answers are never cached
// (they carry tenant settings and, once, secrets), bodies must be JSON objects, and a wrong
// member is an error naming it.
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/Result.hpp"

namespace svc {

void sendOperatorJson(httplib::Response& response, int status, const nlohmann::json& body);
Result<nlohmann::json> operatorJsonBody(const httplib::Request& request);
// A string member, or an error naming it.
Result<std::string> operatorStringField(const nlohmann::json& body, const std::string& field);

}  // namespace svc
