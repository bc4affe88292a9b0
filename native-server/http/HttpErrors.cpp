#include "http/HttpErrors.hpp"
#include "log/Log.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

namespace svc {

int httpStatusFor(ErrorCode code) {
    switch (code) {
        case ErrorCode::InvalidArgument: return 400;
        case ErrorCode::Unauthenticated: return 401;
        case ErrorCode::PermissionDenied: return 403;
        case ErrorCode::NotFound: return 404;
        case ErrorCode::AlreadyExists: return 409;
        // Every limit the HTTP API enforces is a body size (there is no rate limit yet).
        case ErrorCode::ResourceExhausted: return 413;
        case ErrorCode::Unavailable: return 503;
        case ErrorCode::Internal: return 500;
    }
    return 500;
}

void sendError(httplib::Response& response, const Error& error) {
    response.status = httpStatusFor(error.code);
    // Internal details (SQLite messages, paths) go to the log, not into the answer. Messages
    // never contain secrets: credentials are compared, not echoed.
    bool hideDetail = error.code == ErrorCode::Internal || error.code == ErrorCode::Unavailable;
    if (hideDetail) Log::error(std::string(errorCodeName(error.code)) + ": " + error.message);
    nlohmann::json body{{"error", {{"code", errorCodeName(error.code)},
                                   {"message", hideDetail ? "the service could not complete the request" : error.message}}}};
    response.set_content(body.dump(), "application/json");
}

void sendFieldErrors(httplib::Response& response, const std::vector<Error>& errors) {
    if (errors.empty()) return;
    nlohmann::json fields = nlohmann::json::array();
    for (const auto& error : errors) {
        size_t colon = error.message.find(": ");
        std::string field = colon == std::string::npos ? "" : error.message.substr(0, colon);
        std::string message = colon == std::string::npos ? error.message : error.message.substr(colon + 2);
        fields.push_back({{"field", field}, {"message", message}});
    }
    response.status = httpStatusFor(errors.front().code);
    nlohmann::json body{{"error", {{"code", errorCodeName(errors.front().code)},
                                   {"message", errors.front().message},
                                   {"field", fields.front()["field"]},
                                   {"fields", fields}}}};
    response.set_content(body.dump(), "application/json");
}

}  // namespace svc
