#include "graphql/GraphqlError.hpp"

namespace svc::graphql {

std::string errorTypeFor(ErrorCode code) {
    switch (code) {
        case ErrorCode::Unauthenticated:
        case ErrorCode::PermissionDenied: return "Unauthorized";
        case ErrorCode::InvalidArgument: return "BadRequest";
        case ErrorCode::NotFound: return "NotFound";
        case ErrorCode::ResourceExhausted: return "LimitExceeded";
        case ErrorCode::Unavailable: return "ServiceUnavailable";
        case ErrorCode::AlreadyExists: return "Conflict";
        case ErrorCode::Internal: return "InternalFailure";
    }
    return "InternalFailure";
}

GraphqlError limitError(const std::string& limit, const std::string& message, nlohmann::ordered_json details) {
    GraphqlError error;
    error.message = message;
    error.errorType = "LimitExceeded";
    nlohmann::ordered_json info;
    info["limit"] = limit;
    for (auto& [key, value] : details.items()) info[key] = value;
    error.errorInfo = std::move(info);
    return error;
}

nlohmann::ordered_json GraphqlError::toJson() const {
    // Field order as the spec's error example: path, data, errorType, errorInfo, locations, message.
    nlohmann::ordered_json entry;
    entry["path"] = path ? *path : nlohmann::ordered_json(nullptr);
    entry["data"] = nullptr;
    entry["errorType"] = errorType;
    entry["errorInfo"] = errorInfo ? *errorInfo : nlohmann::ordered_json(nullptr);
    auto locationList = nlohmann::ordered_json::array();
    for (const auto& location : locations) {
        locationList.push_back({{"line", location.line}, {"column", location.column}, {"sourceName", nullptr}});
    }
    entry["locations"] = locationList;
    entry["message"] = message;
    return entry;
}

}  // namespace svc::graphql
