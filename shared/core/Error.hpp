#pragma once
// The one error model of svc. Expected failures (bad input, unknown ids, missing
// credentials) are values of this type; exceptions are reserved for bugs. Each
// boundary (HTTP, GraphQL, SDK console) maps ErrorCode exactly once.
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
    Unavailable,
    Internal,
};

// Stable, upper-case name used in JSON bodies and logs (e.g. "INVALID_ARGUMENT").
std::string_view errorCodeName(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::Internal;
    // Names the place: file, row, column or field path, so the reader can fix it.
    std::string message;

    static Error invalidArgument(std::string message) { return {ErrorCode::InvalidArgument, std::move(message)}; }
    static Error notFound(std::string message) { return {ErrorCode::NotFound, std::move(message)}; }
    static Error unauthenticated(std::string message) { return {ErrorCode::Unauthenticated, std::move(message)}; }
    static Error permissionDenied(std::string message) { return {ErrorCode::PermissionDenied, std::move(message)}; }
    static Error alreadyExists(std::string message) { return {ErrorCode::AlreadyExists, std::move(message)}; }
    static Error resourceExhausted(std::string message) { return {ErrorCode::ResourceExhausted, std::move(message)}; }
    static Error unavailable(std::string message) { return {ErrorCode::Unavailable, std::move(message)}; }
    static Error internal(std::string message) { return {ErrorCode::Internal, std::move(message)}; }
};

}  // namespace svc
