#pragma once
// The one error model of svc. Expected failures (bad input, unknown ids, missing
// credentials) are values of this type; exceptions are reserved for bugs. Each
// boundary (HTTP, GraphQL, SDK console) maps ErrorCode exactly once (docs/adr/0079).
#include <cstdint>
#include <string>
#include <string_view>

namespace svc {

enum class ErrorCode {
    InvalidArgument,
    NotFound,
    Unauthenticated,
    PermissionDenied,
    AlreadyExists,
    ResourceExhausted,
    // One client asked too often in a window; retryAfterSeconds says when it may ask again.
    RateLimited,
    Unavailable,
    Internal,
};

// Stable, upper-case name used in JSON bodies and logs (e.g. "INVALID_ARGUMENT"). RateLimited
// is "RESOURCE_EXHAUSTED" on the wire, as in gRPC: clients that switch on the name keep working,
// and HTTP tells the two apart by status (429 and 413).
std::string_view errorCodeName(ErrorCode code);

// Which rule about the request's form (not its content) an InvalidArgument breaks. Transports
// with a status of their own for it (HTTP 415, 411, 408) tell them apart; others see InvalidArgument.
enum class RequestRule { None, MediaType, LengthRequired, BodyDeadline };

struct Error {
    Error() = default;
    Error(ErrorCode errorCode, std::string text) : code(errorCode), message(std::move(text)) {}

    ErrorCode code = ErrorCode::Internal;
    // Names the place: file, row, column or field path, so the reader can fix it.
    std::string message;
    // The field, header or parameter the message is about ("currency", "Content-Type"), so a form
    // shows the message next to it; empty when the error is about no single field. When set, the
    // message starts with "<field>: ".
    std::string field;
    // A stable id clients may match on (docs/api/errors.md), e.g. "svc.http.101"; boundaries put it
    // in front of the message as "[svc.http.101] ". Empty for errors no client tells apart.
    std::string id;
    // RateLimited, and an Unavailable that sheds load on purpose: seconds until asking again may
    // succeed (0: not said).
    int64_t retryAfterSeconds = 0;
    RequestRule rule = RequestRule::None;

    static Error invalidArgument(std::string message) { return {ErrorCode::InvalidArgument, std::move(message)}; }
    static Error notFound(std::string message) { return {ErrorCode::NotFound, std::move(message)}; }
    static Error unauthenticated(std::string message) { return {ErrorCode::Unauthenticated, std::move(message)}; }
    static Error permissionDenied(std::string message) { return {ErrorCode::PermissionDenied, std::move(message)}; }
    static Error alreadyExists(std::string message) { return {ErrorCode::AlreadyExists, std::move(message)}; }
    static Error resourceExhausted(std::string message) { return {ErrorCode::ResourceExhausted, std::move(message)}; }
    static Error unavailable(std::string message) { return {ErrorCode::Unavailable, std::move(message)}; }
    static Error internal(std::string message) { return {ErrorCode::Internal, std::move(message)}; }
    static Error rateLimited(std::string message, int64_t retryAfterSeconds) {
        Error error{ErrorCode::RateLimited, std::move(message)};
        error.retryAfterSeconds = retryAfterSeconds < 1 ? 1 : retryAfterSeconds;
        return error;
    }
    // An InvalidArgument about one field: the message is "<field>: <detail>".
    static Error invalidField(std::string field, const std::string& detail) { return Error::invalidArgument(field + ": " + detail).about(std::move(field)); }

    // The same error, naming the field it is about (the message already starts with it).
    Error about(std::string name) && {
        field = std::move(name);
        return std::move(*this);
    }
    Error withId(std::string stableId) && {
        id = std::move(stableId);
        return std::move(*this);
    }
    Error breaking(RequestRule broken) && {
        rule = broken;
        return std::move(*this);
    }
    Error retryAfter(int64_t seconds) && {
        retryAfterSeconds = seconds;
        return std::move(*this);
    }
    // The message with its stable id in front, as clients read it: "[svc.http.101] content-length: required".
    std::string messageWithId() const { return id.empty() ? message : "[" + id + "] " + message; }
};

}  // namespace svc
