#include "http/HttpErrors.hpp"
#include "log/Log.hpp"

#include <nlohmann/json.hpp>

namespace svc {
namespace {

// A deliberate refusal under load (a full sign-in queue) says when to come back: it is an
// answer, not a fault, so its message is shown and it is not logged.
bool hidesDetail(const Error& error) {
    return error.code == ErrorCode::Internal || (error.code == ErrorCode::Unavailable && error.retryAfterSeconds == 0);
}

void setRetryAfter(httplib::Response& response, const Error& error) {
    if (error.retryAfterSeconds > 0) response.set_header("Retry-After", std::to_string(error.retryAfterSeconds));
}

// The field an error names. Errors made with Error::invalidField or about() carry it; the
// producers in shared/ and the stores that still write "field: message" without it are read
// by their prefix until they do (docs/adr/0079, what is left).
std::string fieldOf(const Error& error) {
    if (!error.field.empty()) return error.field;
    size_t colon = error.message.find(": ");
    return colon == std::string::npos ? "" : error.message.substr(0, colon);
}

std::string detailOf(const Error& error, const std::string& field) {
    if (field.empty() || error.message.compare(0, field.size() + 2, field + ": ") != 0) return error.message;
    return error.message.substr(field.size() + 2);
}

}  // namespace

int httpStatusFor(const Error& error) {
    switch (error.rule) {
        case RequestRule::MediaType: return 415;
        case RequestRule::LengthRequired: return 411;
        case RequestRule::BodyDeadline: return 408;
        case RequestRule::None: break;
    }
    switch (error.code) {
        case ErrorCode::InvalidArgument: return 400;
        case ErrorCode::Unauthenticated: return 401;
        case ErrorCode::PermissionDenied: return 403;
        case ErrorCode::NotFound: return 404;
        case ErrorCode::AlreadyExists: return 409;
        // Every other limit the HTTP API enforces is a body size.
        case ErrorCode::ResourceExhausted: return 413;
        case ErrorCode::RateLimited: return 429;
        case ErrorCode::Unavailable: return 503;
        case ErrorCode::Internal: return 500;
    }
    return 500;
}

void sendError(httplib::Response& response, const Error& error) {
    response.status = httpStatusFor(error);
    setRetryAfter(response, error);
    // Internal details (SQLite messages, paths) go to the log, not into the answer. Messages
    // never contain secrets: credentials are compared, not echoed.
    bool hide = hidesDetail(error);
    if (hide) Log::error(std::string(errorCodeName(error.code)) + ": " + error.message);
    nlohmann::json body{{"code", errorCodeName(error.code)},
                        {"message", hide ? "the service could not complete the request" : error.messageWithId()}};
    if (!hide && !error.field.empty()) body["field"] = error.field;
    response.set_content(nlohmann::json{{"error", std::move(body)}}.dump(), "application/json");
}

void sendFieldErrors(httplib::Response& response, const std::vector<Error>& errors) {
    if (errors.empty()) return;
    nlohmann::json fields = nlohmann::json::array();
    for (const auto& error : errors) {
        std::string field = fieldOf(error);
        fields.push_back({{"field", field}, {"message", detailOf(error, field)}});
    }
    const Error& first = errors.front();
    response.status = httpStatusFor(first);
    setRetryAfter(response, first);
    nlohmann::json body{{"error", {{"code", errorCodeName(first.code)},
                                   {"message", first.messageWithId()},
                                   {"field", fields.front()["field"]},
                                   {"fields", fields}}}};
    response.set_content(body.dump(), "application/json");
}

}  // namespace svc
