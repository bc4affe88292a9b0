#include "core/Error.hpp"

namespace svc {

std::string_view errorCodeName(ErrorCode code) {
    switch (code) {
        case ErrorCode::InvalidArgument: return "INVALID_ARGUMENT";
        case ErrorCode::NotFound: return "NOT_FOUND";
        case ErrorCode::Unauthenticated: return "UNAUTHENTICATED";
        case ErrorCode::PermissionDenied: return "PERMISSION_DENIED";
        case ErrorCode::AlreadyExists: return "ALREADY_EXISTS";
        case ErrorCode::ResourceExhausted:
        case ErrorCode::RateLimited: return "RESOURCE_EXHAUSTED";
        case ErrorCode::Unavailable: return "UNAVAILABLE";
        case ErrorCode::Internal: return "INTERNAL";
    }
    return "INTERNAL";
}

}  // namespace svc
