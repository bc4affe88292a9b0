#include "graphql/GraphqlError.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace svc::graphql {
namespace {

// errorType (the spec's) to extensions.code, the name GraphQL clients switch on (Apollo's
// codes where it has one). The only place a code is chosen.
constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kCodes = {{
    {"Unauthorized", "UNAUTHENTICATED"},
    {"BadRequest", "BAD_USER_INPUT"},
    {"NotFound", "NOT_FOUND"},
    {"LimitExceeded", "LIMIT_EXCEEDED"},
    {"ServiceUnavailable", "SERVICE_UNAVAILABLE"},
    {"Conflict", "CONFLICT"},
    {"InternalFailure", "INTERNAL_SERVER_ERROR"},
    {"InvalidSyntax", "GRAPHQL_PARSE_FAILED"},
    {"ValidationError", "GRAPHQL_VALIDATION_FAILED"},
    {"InvalidRequest", "BAD_REQUEST"},
    {"PersistedQueryNotFound", "PERSISTED_QUERY_NOT_FOUND"},
}};

std::string_view codeFor(std::string_view errorType) {
    for (const auto& [type, code] : kCodes) {
        if (type == errorType) return code;
    }
    return "INTERNAL_SERVER_ERROR";
}

}  // namespace

std::string errorTypeFor(ErrorCode code) {
    switch (code) {
        case ErrorCode::Unauthenticated:
        case ErrorCode::PermissionDenied: return "Unauthorized";
        case ErrorCode::InvalidArgument: return "BadRequest";
        case ErrorCode::NotFound: return "NotFound";
        case ErrorCode::ResourceExhausted:
        case ErrorCode::RateLimited: return "LimitExceeded";
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
    // Field order as the spec's error example: path, data, errorType, errorInfo, locations, message;
    // then the GraphQL specification's extensions.
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
    entry["extensions"] = {{"code", codeFor(errorType)}};
    return entry;
}

}  // namespace svc::graphql
